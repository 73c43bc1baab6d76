package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.testing.SpiBoundary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The module's main code sees director-core's SPI, not its engine (issue 17). */
class SpiBoundaryTest {

    @Test
    void theMainCodeImportsTheSpiAndNotTheEngine() {
        Path sources = Path.of("src/main/java");
        assertThat(sources).isDirectory();
        assertThat(SpiBoundary.violations(sources, "io.switchboard.director.gtp")).isEmpty();
    }
}
