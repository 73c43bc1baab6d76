package io.switchboard.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.SwitchboardConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * /etc/switchboard/switchboard.yaml as the package ships it is a configuration the director takes,
 * and so is the example of a real deployment its comments show (the installed file is checked by
 * the installed command too, in DebianPackageIT).
 */
class ShippedConfigurationTest {

    private static final Path SHIPPED = Tools.MODULE.resolve("src/deb/etc/switchboard.yaml");

    @Test
    void theDefaultIsValidAndServesOnlyTheLoopback() throws IOException {
        SwitchboardConfig config = ConfigLoader.forInstalledPlugins().parse(Files.readString(SHIPPED));
        assertThat(config.virtualServers().values()).isNotEmpty().allSatisfy(vs ->
                assertThat(vs.listen().address().isLoopbackAddress()).as(vs.name()).isTrue());
        assertThat(config.admin().listen().address().isLoopbackAddress()).isTrue();
        // Where the unit lets the service write (ReadWritePaths, StateDirectory).
        assertThat(config.persistence().file()).hasValueSatisfying(f ->
                assertThat(f).startsWithRaw(Path.of("/var/lib/switchboard")));
    }

    @Test
    void theExampleInItsCommentsIsValid() throws IOException {
        List<String> lines = Files.readAllLines(SHIPPED);
        int from = lines.indexOf("#   farms:");
        assertThat(from).as("the example starts at '#   farms:'").isPositive();
        String example = lines.subList(from, lines.size()).stream().takeWhile(l -> l.startsWith("#   "))
                .map(l -> l.substring(4)).collect(Collectors.joining("\n"));
        assertThat(example).contains("service: gtp", "service: radius");
        assertThatCode(() -> ConfigLoader.forInstalledPlugins().parse(example)).doesNotThrowAnyException();
    }
}
