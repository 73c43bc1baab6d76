package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.DispatchedConfig;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * All-port virtual servers in dispatched mode (IOS {@code virtual ADDR tcp 0}, {@code udp 0},
 * {@code any 0}): a {@code vpn-farms} entry with {@code protocols: [tcp]}, {@code [udp]} or
 * {@code [any]}, its clients kept in a table of its own unless it names a sticky group; refused where
 * a port-bound virtual server on the address would receive the same packets.
 */
class AllPortFarmBinderTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static String document(String servers, String farm) {
        return """
                farms:
                  fw:
                    reals: [{ address: 10.2.1.2, port: 1 }, { address: 10.2.2.2, port: 1 }]
                  ggsn:
                    reals: [{ address: 10.4.0.2, port: 2123 }]
                virtual-servers:
                  gtp: { listen: 10.1.0.1:2123, service: gtp, farm: ggsn }
                %s
                vpn-farms:
                  all:
                    farm: fw
                    interface: cl
                    address: 10.1.0.1
                %s
                    reals:
                      - { address: 10.2.1.2, interface: f1o, mac: "02:00:00:00:03:01" }
                      - { address: 10.2.2.2, interface: f2o, mac: "02:00:00:00:04:01" }
                """.formatted(servers, farm);
    }

    @Test
    void anAllPortFarmKeepsItsOwnClientsAndLeavesTheGtpPortsToTheHost() throws Exception {
        DispatchedConfig.VpnFarm all = LOADER.parse(document("", "    protocols: [tcp, udp]\n    sticky: 5m\n")).dispatched().vpnFarms().get("all");
        assertThat(all.protocols()).containsExactlyInAnyOrder(6, 17);
        assertThat(all.stickyGroup()).isEmpty();
        assertThat(all.sticky()).isEqualTo(Duration.ofMinutes(5));
        assertThat(all.address()).isEqualTo(InetAddress.getByName("10.1.0.1"));
        assertThat(all.dispatches(6)).isTrue();
        assertThat(all.dispatches(50)).isFalse();
        assertThat(all.leavesUdpPort(2123)).isTrue();
        assertThat(all.leavesUdpPort(53)).isFalse();

        DispatchedConfig.VpnFarm any = LOADER.parse(document("", "    protocols: [any]\n"))
                .dispatched().vpnFarms().get("all");
        assertThat(any.protocols()).containsExactly(DispatchedConfig.VpnFarm.ANY);
        assertThat(any.dispatches(50)).isTrue();
        assertThat(any.sticky()).isEqualTo(DispatchedConfig.VpnFarm.DEFAULT_STICKY);
        assertThat(any.stickyGroup()).isEqualTo(Optional.empty());
    }

    @Test
    void aPortBoundVirtualServerOnTheAddressIsRefusedUnlessOnAGtpPort() {
        List<String> errors = Rejections.errors(LOADER, document("""
                  dns: { listen: 10.1.0.1:53, service: udp, farm: fw }
                  web: { listen: 10.1.0.1:80, service: tcp, farm: fw }
                  elsewhere: { listen: 10.1.0.9:53, service: udp, farm: fw }
                """, "    protocols: [udp]\n"));
        assertThat(errors).containsExactly("vpn-farms.all.protocols: virtual server 'dns' listens on 10.1.0.1:53/udp,"
                + " a port this all-port farm dispatches (only the GTP ports 2123, 2152, 3386 are left to the host)");
        assertThat(Rejections.errors(LOADER, document("  web: { listen: 10.1.0.1:80, service: tcp, farm: fw }\n",
                "    protocols: [any]\n"))).singleElement().asString().startsWith(
                "vpn-farms.all.protocols: virtual server 'web' listens on 10.1.0.1:80/tcp");
    }

    @Test
    void anyAloneTunnelsWithTheirGroupAndStickyOnlyWithout() {
        assertThat(Rejections.errors(LOADER, document("", "    protocols: [any, tcp]\n"))).containsExactly(
                "vpn-farms.all.protocols: any is every protocol: list it alone");
        assertThat(Rejections.errors(LOADER, document("", "    protocols: [esp, udp]\n"))).singleElement()
                .asString().startsWith("vpn-farms.all.sticky-group: required with esp or gre");
        assertThat(Rejections.errors(LOADER, document("", "    protocols: [tcp]\n    sticky-group: g\n"
                + "    sticky: 1m\n"))).contains(
                "vpn-farms.all.sticky: the sticky group's virtual servers set how long a client is kept");
        assertThat(Set.copyOf(Rejections.errors(LOADER, document("", "    protocols: [sctp]\n")))).contains(
                "vpn-farms.all.protocols[0]: unknown protocol 'sctp' (known: esp, gre, tcp, udp, any)");
    }
}
