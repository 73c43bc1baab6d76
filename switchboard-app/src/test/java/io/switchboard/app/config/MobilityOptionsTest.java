package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.director.asn.AsnOptions;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.ha.HaOptions;
import io.switchboard.director.ha.MobileIpCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code ipmobile:} and {@code asn:} keys of a virtual server, as issue 6 writes them. */
class MobilityOptionsTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static final String FARMS = """
            farms:
              ha:
                reals:
                  - { address: 10.30.0.2, port: 434, weight: 3 }
                  - { address: 10.30.0.3, port: 434, weight: 1 }
              gateways:
                reals:
                  - { address: 10.40.0.2, port: 2231 }
            """;

    private static final String ISSUE_EXAMPLE = FARMS + """
            virtual-servers:
              home-agents:
                listen: 127.0.0.10:434
                service: ipmobile
                farm: ha                      # roundrobin only
                ipmobile: { relay-replies: true, rewrite-home-agent: false }
              asn-gw:
                listen: 127.0.0.10:2231
                service: asn
                farm: gateways
                sticky: { key: msid, idle: 30m }
                asn: { nwg-release: 1.2.1, relay-responses: true }
            """;

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void theIssuesExampleBindsToThePlugInsRecords() {
        SwitchboardConfig config = LOADER.parse(ISSUE_EXAMPLE);
        assertThat(config.virtualServers().get("home-agents").options(HaOptions.class))
                .isEqualTo(new HaOptions(true, false));
        assertThat(config.virtualServers().get("asn-gw").options(AsnOptions.class))
                .isEqualTo(new AsnOptions(NwgRelease.R1_0_V1_2_1, true));
    }

    @Test
    void withoutTheirKeysTheServicesGetTheirDefaults() {
        SwitchboardConfig config = LOADER.parse(FARMS + """
                virtual-servers:
                  home-agents: { listen: 127.0.0.10:434, service: ipmobile, farm: ha }
                  asn-gw:
                    listen: 127.0.0.10:2231
                    service: asn
                    farm: gateways
                    sticky: { key: msid, idle: 30m }
                    asn: { nwg-release: 1.0.0 }
                """);
        assertThat(config.virtualServers().get("home-agents").options(HaOptions.class)).isEqualTo(HaOptions.DEFAULT);
        assertThat(config.virtualServers().get("asn-gw").options(AsnOptions.class))
                .isEqualTo(new AsnOptions(NwgRelease.R1_0_V1_0_0, false));
    }

    @Test
    void badValuesForeignKeysAndForbiddenPredictorsAreReportedWithTheirPaths() {
        assertThat(errors(FARMS.replace("  ha:\n", "  ha:\n    predictor: leastconns\n") + """
                virtual-servers:
                  home-agents:
                    listen: 127.0.0.10:434
                    service: ipmobile
                    farm: ha
                    ipmobile: { relay-replies: maybe, rewrite-ha: true }
                    asn: { nwg-release: 1.2.1 }
                  asn-gw:
                    listen: 127.0.0.10:2231
                    service: asn
                    farm: gateways
                    sticky: { key: msid, idle: 30m }
                    asn: { nwg-release: 1.1.0, relay-responses: 1 }
                """)).containsExactlyInAnyOrder(
                "farms.ha.predictor: 'leastconns' is not allowed for virtual server 'home-agents'"
                        + " (service ipmobile allows: roundrobin)",
                "virtual-servers.home-agents.asn: only for service asn, not ipmobile",
                "virtual-servers.home-agents.ipmobile.rewrite-ha: unknown key (known: relay-replies, rewrite-home-agent)",
                "virtual-servers.home-agents.ipmobile.relay-replies: must be true or false, not a string",
                "virtual-servers.asn-gw.asn.nwg-release: must be one of 1.0.0, 1.2.0, 1.2.1 (NWG R1.0 release), not '1.1.0'",
                "virtual-servers.asn-gw.asn.relay-responses: must be true or false, not an integer");
    }

    @Test
    void aMobileIpProbeBindsAndItsMistakesAreReported() throws Exception {
        String servers = """
                virtual-servers:
                  home-agents: { listen: 127.0.0.10:434, service: ipmobile, farm: ha }
                """;
        SwitchboardConfig config = LOADER.parse("""
                probes:
                  mip:
                    type: mip
                    home-address: 10.99.255.1
                    home-agent: 10.30.0.10
                    nai: probe@ha.example.net
                    spi: 4096
                    key: "hex:00112233445566778899aabbccddeeff"
                """ + FARMS.replace("  ha:\n", "  ha:\n    probes: [mip]\n") + servers);
        assertThat(config.probes().get("mip").check()).isEqualTo(new MobileIpCheck(
                java.net.InetAddress.getByName("10.99.255.1"),
                java.util.Optional.of(java.net.InetAddress.getByName("10.30.0.10")),
                java.util.Optional.of("probe@ha.example.net"), 4096,
                java.util.HexFormat.of().parseHex("00112233445566778899aabbccddeeff"), 0));

        assertThat(errors("""
                probes:
                  mip: { type: mip, home-address: "2001:db8::1", spi: 12, expect-code: 300, send: x }
                """ + FARMS + servers)).containsExactlyInAnyOrder(
                "probes.mip.send: only for probes of type udp",
                "probes.mip.key: required for a mip probe: the MN-HA key",
                "probes.mip.home-address: must be an IPv4 address (Mobile IPv4)",
                "probes.mip.spi: must be at least 256",
                "probes.mip.expect-code: must be 0..255");
    }
}
