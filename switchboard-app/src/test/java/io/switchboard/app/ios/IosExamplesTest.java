package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.SwitchboardConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every example configuration of src/test/resources/ios (sources in its README): the translation
 * loads back through the YAML loader to the same model (so it passes {@code check}), the report
 * names every line that is not blank or a comment, and {@code export-ios} followed by
 * {@code import-ios} gives the same model again.
 */
class IosExamplesTest {

    static final String SECRET = "example-secret";
    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();
    private static final IosTranslator TRANSLATOR = new IosTranslator(new IosTranslator.Options(Optional.of(SECRET)));

    static String example(String name) throws IOException {
        try (InputStream in = IosExamplesTest.class.getResourceAsStream("/ios/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"basic.ios", "gtp.ios", "gtp-inspect.ios", "radius.ios", "home-agent.ios", "asn.ios",
        "firewall.ios", "probes.ios", "dfp.ios", "limits.ios"})
    void translationLoadsBackToTheSameModel(String name) throws IOException {
        IosTranslation t = TRANSLATOR.translate(example(name));
        String yaml = IosYamlWriter.write(t, IosImport.header(name));

        SwitchboardConfig loaded = LOADER.parse(yaml);

        assertThat(loaded).as(yaml).isEqualTo(t.config());
    }

    @ParameterizedTest
    @ValueSource(strings = {"basic.ios", "gtp.ios", "gtp-inspect.ios", "radius.ios", "home-agent.ios", "asn.ios",
        "firewall.ios", "probes.ios", "dfp.ios", "limits.ios"})
    void theReportNamesEveryLineOnce(String name) throws IOException {
        String text = example(name);
        List<String> lines = text.lines().toList();
        IosReport report = TRANSLATOR.translate(text).report();

        List<Integer> configuring = IntStream.rangeClosed(1, lines.size())
                .filter(n -> !lines.get(n - 1).isBlank() && !lines.get(n - 1).strip().startsWith("!")).boxed().toList();
        assertThat(report.entries()).extracting(IosReport.Entry::line).containsExactlyElementsOf(configuring);
        assertThat(report.entries()).allSatisfy(e -> assertThat(e.detail()).isNotBlank());
    }

    @ParameterizedTest
    @ValueSource(strings = {"basic.ios", "gtp.ios", "gtp-inspect.ios", "radius.ios", "home-agent.ios", "asn.ios",
        "firewall.ios", "probes.ios", "dfp.ios", "limits.ios"})
    void exportThenImportIsTheIdentityOnTheModel(String name) throws IOException {
        SwitchboardConfig model = TRANSLATOR.translate(example(name)).config();
        String ios = IosExporter.export(model);

        SwitchboardConfig again = TRANSLATOR.translate(ios).config();

        assertThat(again).as(ios).isEqualTo(model);
    }

    @org.junit.jupiter.api.Test
    void withItsLinksTheFirewallFarmIsTranslatedLoadsBackAndRoundTrips() throws IOException {
        IosTranslator withLinks = new IosTranslator(new IosTranslator.Options(Optional.of(SECRET),
                IosFirewallLinks.parse(example("firewall.links"))));
        IosTranslation t = withLinks.translate(example("firewall.ios"));

        var farm = t.config().dispatched().firewallFarms().get("FIRE1");
        assertThat(farm.hashPorts()).isTrue();
        assertThat(farm.sticky()).isEqualTo(java.time.Duration.ofMinutes(3));
        assertThat(farm.firewalls()).extracting(f -> f.outside().mac())
                .containsExactly("02:00:00:00:03:01", "02:00:00:00:04:01");
        assertThat(t.report().exitCode()).as(t.report().text()).isZero();
        assertThat(LOADER.parse(IosYamlWriter.write(t, "firewall.ios"))).isEqualTo(t.config());
        assertThat(withLinks.translate(IosExporter.export(t.config())).config()).isEqualTo(t.config());
    }

    @org.junit.jupiter.api.Test
    void aLinksFileErrorNamesItsLine() {
        IosSyntaxException e = org.assertj.core.api.Assertions.catchThrowableOfType(IosSyntaxException.class,
                () -> IosFirewallLinks.parse("FIRE1 outside eth0 inside eth1\nFIRE1 10.1.1.2 eth2 02:00:00:00:03:01\n"));

        assertThat(e.getMessage()).startsWith("line 2, column 39: expected FARM ADDRESS OUTSIDE-INTERFACE MAC");
    }
}
