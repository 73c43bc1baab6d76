package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.ClientFarm;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Client-assigned load balancing as IOS writes it (IOS SLB configuration guide, "Client-Assigned
 * Load Balancing"; command reference, "client (virtual server)"): virtual servers on one address
 * and port, some with client lines, become one virtual server with client-farms; the YAML written
 * loads back to the same configuration.
 */
class IosClientFarmsTest {

    private static final String IOS = """
            ip slb serverfarm PUBLIC
             real 10.1.1.1
              inservice
            ip slb serverfarm INSIDE
             real 10.1.1.20
              inservice
            ip slb vserver PUBLIC_HTTP
             virtual 10.0.0.1 tcp www
             serverfarm PUBLIC
             inservice
            ip slb vserver INSIDE_HTTP
             virtual 10.0.0.1 tcp www
             serverfarm INSIDE
             client 10.4.0.0 255.255.0.0
             client 10.5.0.0 255.255.0.0
             idle 60
             inservice
            """;

    private static IosTranslation translate(String ios) {
        return new IosTranslator(new IosTranslator.Options(Optional.empty())).translate(ios);
    }

    @Test
    void virtualServersOnOneAddressBecomeOneWithClientFarms() {
        IosTranslation t = translate(IOS);
        assertThat(t.config().virtualServers()).containsOnlyKeys("PUBLIC_HTTP");
        VirtualServerConfig vs = t.config().virtualServers().get("PUBLIC_HTTP");
        assertThat(vs.farm()).isEqualTo("PUBLIC");
        assertThat(vs.clientFarms()).containsExactly(new ClientFarm(List.of(AddressLiterals.parseSubnet("10.4.0.0/16"),
                AddressLiterals.parseSubnet("10.5.0.0/16")), "INSIDE"));
        assertThat(t.report().entry(11).orElseThrow().outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(t.report().entry(12).orElseThrow().detail()).isEqualTo("virtual-servers.PUBLIC_HTTP.client-farms[0]");
        assertThat(t.report().entry(13).orElseThrow().detail())
                .isEqualTo("virtual-servers.PUBLIC_HTTP.client-farms[0].farm");
        assertThat(t.report().entry(15).orElseThrow().detail())
                .isEqualTo("virtual-servers.PUBLIC_HTTP.client-farms[0].clients[1]");
        // The member's own idle: the merged server's settings hold for all its farms.
        assertThat(t.report().entry(16).orElseThrow().outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(t.report().entries()).extracting(IosReport.Entry::line).doesNotHaveDuplicates();

        String yaml = IosYamlWriter.write(t, "client-farms.ios");
        assertThat(yaml).contains("client-farms:");
        assertThat(ConfigLoader.forInstalledPlugins().parse(yaml)).isEqualTo(t.config());

        // export-ios writes the client-farms back as virtual servers of their own on the same line.
        String exported = IosExporter.export(t.config());
        assertThat(exported).contains("ip slb vserver PUBLIC_HTTP-CLIENTS1", " client 10.4.0.0 255.255.0.0");
        assertThat(translate(exported).config().virtualServers().get("PUBLIC_HTTP").clientFarms())
                .isEqualTo(vs.clientFarms());
    }

    @Test
    void udpClientLinesWithoutAnOpenVirtualServerAreReportedUnsupported() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                 client 10.4.0.0 255.255.0.0
                """);
        assertThat(t.config().virtualServers().get("V").clientFarms()).isEmpty();
        assertThat(t.report().entry(6).orElseThrow().outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
    }
}
