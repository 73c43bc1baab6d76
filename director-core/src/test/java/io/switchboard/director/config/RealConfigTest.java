package io.switchboard.director.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.spi.RealKey;
import java.net.InetAddress;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RealConfigTest {

    private static final RealKey<String> SECRET = RealKey.secret("test-shared-secret", "a test's secret");
    private static final RealKey<String> LABEL = RealKey.string("test-label", "a test's label");

    @Test
    void printingARealMasksItsSecretsAndShowsTheRest() throws Exception {
        RealConfig real = new RealConfig(InetAddress.getByName("10.0.0.1"), 1812, 8, OptionalInt.empty(), true)
                .with(SECRET, "s3cr3t-value").with(LABEL, "rack-4");
        assertThat(real.toString())
                .doesNotContain("s3cr3t-value")
                .contains("test-shared-secret=****", "test-label=rack-4", "address=10.0.0.1", "port=1812");
    }
}
