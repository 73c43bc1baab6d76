package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code access INTERFACE} (virtual server; Cisco IOS SLB Command Reference, "access (virtual
 * server)"): interface awareness, only what arrives on the interface is served; several lines add
 * interfaces. A name that cannot be a Linux interface's, {@code route framed-ip} and a TCP virtual
 * server are reported.
 */
class IosAccessTest {

    private static IosTranslation translate(String ios) {
        return new IosTranslator(new IosTranslator.Options(Optional.of("s"))).translate(ios);
    }

    @Test
    void accessLinesBecomeTheVirtualServersAccessList() {
        assumeTrue(System.getProperty("os.name").toLowerCase().startsWith("linux"), "the loader checks the host's interfaces");
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                 access lo
                 access lo
                 access lo route framed-ip
                 access GigabitEthernet1/1
                 inservice
                ip slb vserver W
                 virtual 10.0.0.1 tcp 80
                 serverfarm F
                 access lo
                 inservice
                """);

        assertThat(t.config().virtualServers().get("V").access()).containsExactly("lo");
        assertThat(t.config().virtualServers().get("W").access()).isEmpty();
        assertThat(t.report().entry(7).orElseThrow().outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(t.report().entry(7).orElseThrow().detail()).isEqualTo("virtual-servers.V.access");
        assertThat(t.report().entry(8).orElseThrow().outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(t.report().entry(9).orElseThrow().detail()).contains("route framed-ip");
        assertThat(t.report().entry(10).orElseThrow().detail()).contains("not a Linux interface name");
        assertThat(t.report().entry(15).orElseThrow().detail()).contains("TCP virtual server");
        assertThat(t.report().count(IosReport.Outcome.UNSUPPORTED)).isEqualTo(3);

        String yaml = IosYamlWriter.write(t, "access");
        assertThat(yaml).containsPattern("access: \\[ *\"?lo\"? *\\] +# line 7: access lo|access:.*# line 7");
        assertThat(new io.switchboard.app.config.ConfigLoader(io.switchboard.app.Services.discover().available())
                .parse(yaml)).isEqualTo(t.config());
    }
}
