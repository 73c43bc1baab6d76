package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code access INTERFACE} (virtual server; Cisco IOS SLB Command Reference, "access (virtual
 * server)"): interface awareness, only what arrives on the interface is served; several lines add
 * interfaces, on TCP and datagram virtual servers. A name that cannot be a Linux interface's and
 * {@code route framed-ip} are reported.
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
        assertThat(t.config().virtualServers().get("W").access()).containsExactly("lo");
        assertThat(t.report().entry(7).orElseThrow().outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(t.report().entry(7).orElseThrow().detail()).isEqualTo("virtual-servers.V.access");
        assertThat(t.report().entry(8).orElseThrow().outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(t.report().entry(9).orElseThrow().detail()).contains("route framed-ip");
        assertThat(t.report().entry(10).orElseThrow().detail()).contains("not a Linux interface name");
        assertThat(t.report().entry(15).orElseThrow().detail()).isEqualTo("virtual-servers.W.access");
        assertThat(t.report().count(IosReport.Outcome.UNSUPPORTED)).isEqualTo(2);

        // export-ios writes the lines back.
        assertThat(IosExporter.export(t.config())).contains(" access lo\n");

        String yaml = IosYamlWriter.write(t, "access");
        assertThat(yaml).containsPattern("access: \\[ *\"?lo\"? *\\] +# line 7: access lo|access:.*# line 7");
        assertThat(new io.switchboard.app.config.ConfigLoader(io.switchboard.app.Services.discover().available())
                .parse(yaml)).isEqualTo(t.config());
    }

    @Test
    void allPortVirtualServersAreNamedForDispatchedMode() {
        // IOS SLB: port 0 (or "any") is every port; "virtual ADDR any 0" every protocol too.
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                  inservice
                ip slb vserver T
                 virtual 10.0.0.1 tcp 0
                 serverfarm F
                ip slb vserver U
                 virtual 10.0.0.1 udp any
                 serverfarm F
                ip slb vserver A
                 virtual 10.0.0.2 any 0
                 serverfarm F
                ip slb vserver G
                 virtual 10.0.0.3 udp 0 service gtp
                 serverfarm F
                """);

        assertThat(t.report().entry(4).orElseThrow().outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(t.report().entry(4).orElseThrow().detail()).contains("all-port").contains("protocols: [tcp]");
        assertThat(t.report().entry(7).orElseThrow().detail()).contains("protocols: [udp]");
        assertThat(t.report().entry(10).orElseThrow().detail()).contains("protocols: [any]");
        // A GTP virtual server's port 0 is GTP's port, as before.
        assertThat(t.config().virtualServers().get("G").listen().port()).isEqualTo(2123);
        assertThat(t.config().virtualServers()).containsOnlyKeys("G");
    }
}
