package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.reload.ConfigDiff;
import io.switchboard.director.config.BgpConfig;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code route-health.bgp}: bound into one record, every mistake refused by its path, a change needs a restart. */
class RouteHealthBgpConfigTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static final String REST = """
            farms:
              aaa:
                reals: [{ address: 127.0.0.2, port: 1812 }]
            virtual-servers:
              auth: { listen: 10.99.0.1:1812, service: udp, farm: aaa, advertise: true }
            """;

    @TempDir
    Path dir;

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void aBirdSpeakerIsBound() throws Exception {
        String yaml = """
                route-health:
                  bgp:
                    daemon: bird
                    local-as: 4200000001
                    router-id: 10.0.1.2
                    neighbours:
                      - { address: 10.0.1.1, as: 65000, source: 10.0.1.2 }
                      - { address: "fd00::1", as: 65000 }
                    communities: ["65001:100", "4200000001:1:2"]
                    bfd-interval: 50ms
                    bfd-multiplier: 5
                    include-file: %s/switchboard.conf
                    socket: /run/bird/bird.ctl
                """.formatted(dir) + REST;
        BgpConfig bgp = LOADER.parse(yaml).routeHealth().bgp().orElseThrow();
        assertThat(bgp).isEqualTo(new BgpConfig(BgpConfig.Daemon.BIRD, 4_200_000_001L,
                Optional.of(InetAddress.getByName("10.0.1.2")),
                List.of(new BgpConfig.Neighbour(InetAddress.getByName("10.0.1.1"), 65000,
                                Optional.of(InetAddress.getByName("10.0.1.2"))),
                        new BgpConfig.Neighbour(InetAddress.getByName("fd00::1"), 65000, Optional.empty())),
                List.of("65001:100", "4200000001:1:2"), true, Duration.ofMillis(50), 5, dir.resolve("switchboard.conf"),
                Optional.of(Path.of("/run/bird/bird.ctl"))));
    }

    @Test
    void frrTakesTheDefaults() {
        BgpConfig bgp = LOADER.parse("""
                route-health:
                  bgp: { daemon: frr, local-as: 65001, neighbours: [{ address: 10.0.1.1, as: 65000 }] }
                """ + REST).routeHealth().bgp().orElseThrow();
        assertThat(bgp.bfd()).isTrue();
        assertThat(bgp.bfdInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(bgp.bfdMultiplier()).isEqualTo(3);
        assertThat(bgp.communities()).isEmpty();
        assertThat(bgp.socket()).isEmpty();
    }

    @Test
    void mistakesAreReportedByPath() {
        assertThat(errors("""
                route-health:
                  hook: /usr/local/sbin/route
                  bgp:
                    daemon: quagga
                    local-as: 23456
                    router-id: "fd00::2"
                    neighbours:
                      - { address: 10.0.1.1, as: 0 }
                      - { address: 10.0.1.300, as: 65000 }
                      - { as: 4294967296, source: "fd00::2" }
                      - { address: 10.0.1.3, as: 65000, source: "fd00::2", port: 179 }
                    communities: ["65536:1", "1:2:3:4", "x"]
                    bfd: yes-please
                    bfd-interval: 5ms
                    bfd-multiplier: 1
                    peers: []
                """ + REST)).containsExactlyInAnyOrder(
                "route-health.bgp.peers: unknown key (known: daemon, local-as, router-id, neighbours, communities, bfd,"
                        + " bfd-interval, bfd-multiplier, include-file, socket)",
                "route-health.bgp.daemon: must be bird or frr, not 'quagga'",
                "route-health.bgp.local-as: 23456 is AS_TRANS (RFC 6793 §9), not an AS of a speaker",
                "route-health.bgp.router-id: must be an IPv4 address (RFC 4271 §4.2: four octets)",
                "route-health.bgp.neighbours[0].as: must be an AS number 1..4294967295 (RFC 6793), not '0'",
                "route-health.bgp.neighbours[1].address: '10.0.1.300' is not an IPv4 or IPv6 address (host names are not resolved)",
                "route-health.bgp.neighbours[2].address: required",
                "route-health.bgp.neighbours[2].as: must be an AS number 1..4294967295 (RFC 6793), not '4294967296'",
                "route-health.bgp.neighbours[3].port: unknown key (known: address, as, source)",
                "route-health.bgp.neighbours[3].source: must be of the neighbour's address family",
                "route-health.bgp.communities[0]: must be AS:VALUE (RFC 1997, each 0..65535) or A:B:C (RFC 8092,"
                        + " each 0..4294967295), not '65536:1'",
                "route-health.bgp.communities[1]: must be AS:VALUE (RFC 1997, each 0..65535) or A:B:C (RFC 8092,"
                        + " each 0..4294967295), not '1:2:3:4'",
                "route-health.bgp.communities[2]: must be AS:VALUE (RFC 1997, each 0..65535) or A:B:C (RFC 8092,"
                        + " each 0..4294967295), not 'x'",
                "route-health.bgp.bfd: must be true or false, not a string",
                "route-health.bgp.bfd-interval: must be whole milliseconds, 10ms..60s",
                "route-health.bgp.bfd-multiplier: must be 2..255",
                "route-health.bgp: either a hook or bgp announces the virtual addresses, not both");
    }

    @Test
    void requiredKeysAndDaemonSpecificOnes() {
        assertThat(errors("route-health: { bgp: {} }\n" + REST)).containsExactlyInAnyOrder(
                "route-health.bgp.daemon: required: bird or frr",
                "route-health.bgp.local-as: required: the node's AS",
                "route-health.bgp.neighbours: required: the routers to announce to");
        assertThat(errors("""
                route-health:
                  bgp: { daemon: frr, local-as: 65001, neighbours: [], include-file: /tmp/x.conf }
                """ + REST)).containsExactlyInAnyOrder(
                "route-health.bgp.neighbours: must name at least one router",
                "route-health.bgp.include-file: only for daemon: bird (FRR is configured through vtysh)");
        assertThat(errors("""
                route-health:
                  bgp: { daemon: bird, local-as: 65001, neighbours: [{ address: 10.0.1.1, as: 65000 }],
                         include-file: /no/such/dir/switchboard.conf }
                """ + REST)).containsExactly(
                "route-health.bgp.include-file: the directory of /no/such/dir/switchboard.conf does not exist");
        assertThat(errors(REST)).containsExactly("route-health.hook: required (or route-health.bgp): virtual servers"
                + " [auth] have advertise set");
    }

    @Test
    void aChangeOfTheSpeakerNeedsARestart() {
        String bgp = "route-health: { bgp: { daemon: frr, local-as: %d, neighbours: [{ address: 10.0.1.1, as: 65000 }] } }\n";
        ConfigDiff diff = ConfigDiff.between(LOADER.parse(bgp.formatted(65001) + REST),
                LOADER.parse(bgp.formatted(65002) + REST));
        assertThat(diff.needsRestart()).containsExactly("route-health.bgp");
    }
}
