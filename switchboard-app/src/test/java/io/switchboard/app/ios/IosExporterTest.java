package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.SwitchboardConfig;
import java.net.Inet4Address;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code export-ios} on configurations written in YAML, not translated from IOS: what IOS cannot
 * express (IPv6, ephemeral ports, secrets...) is a {@code !} comment naming it, and what it wrote
 * imports again with the same virtual servers and reals.
 */
class IosExporterTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    @ParameterizedTest
    @ValueSource(strings = {"config/full.yaml", "config/minimal.yaml", "whatif/lab.yaml", "whatif/gtp-inspect.yaml",
        "whatif/fixed-address.yaml", "whatif/small-table.yaml"})
    void aYamlConfigurationExportsToIosThatImportsAgain(String resource) {
        SwitchboardConfig config = LOADER.load(Path.of("src/test/resources", resource));

        String ios = IosExporter.export(config);
        IosTranslation again = new IosTranslator(new IosTranslator.Options(Optional.of("s"))).translate(ios);

        assertThat(ios).startsWith("! IOS SLB configuration written by switchboard export-ios").endsWith("end\n");
        var ipv4Servers = config.virtualServers().values().stream()
                .filter(vs -> vs.listen().address() instanceof Inet4Address && vs.listen().port() != 0).toList();
        assertThat(again.config().virtualServers().keySet()).containsExactlyElementsOf(
                ipv4Servers.stream().map(vs -> vs.name()).toList());
        ipv4Servers.forEach(vs -> {
            assertThat(again.config().virtualServers().get(vs.name()).listen()).isEqualTo(vs.listen());
            assertThat(again.config().virtualServers().get(vs.name()).service()).isEqualTo(vs.service());
        });
        config.farms().forEach((name, farm) -> assertThat(again.config().farms().get(name).reals())
                .extracting(r -> r.endpoint()).containsExactlyElementsOf(farm.reals().stream()
                        .filter(r -> r.address() instanceof Inet4Address)
                        .map(r -> farm.predictor() == io.switchboard.director.config.PredictorKind.HASH
                                ? new io.switchboard.director.config.Endpoint(r.address(), IosFarmBuilder.FIREWALL_PORT)
                                : r.endpoint()).toList()));
        if (config.virtualServers().size() > ipv4Servers.size()) {
            assertThat(ios).containsPattern("IPv6 virtual servers have no IOS form here|an ephemeral port");
        }
    }

    @org.junit.jupiter.api.Test
    void rateMaxclientsInbandAndPurgeExportAndImportAgain() {
        IosTranslator translator = new IosTranslator(new IosTranslator.Options(Optional.of("s")));
        SwitchboardConfig config = translator.translate("""
                ip slb serverfarm F
                 failaction purge
                 real 10.1.1.1
                  rate 50
                  maxclients 1000
                  no faildetect inband
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 2123 service gtp
                 serverfarm F
                 inservice
                """).config();

        String ios = IosExporter.export(config);
        assertThat(ios).contains(" failaction purge\n", "  rate 50\n", "  maxclients 1000\n", "  no faildetect inband\n");
        SwitchboardConfig again = translator.translate(ios).config();
        assertThat(again.farms().get("F").failure()).isEqualTo(config.farms().get("F").failure());
        assertThat(again.farms().get("F").reals().get(0).limits()).isEqualTo(config.farms().get("F").reals().get(0).limits());
    }
}
