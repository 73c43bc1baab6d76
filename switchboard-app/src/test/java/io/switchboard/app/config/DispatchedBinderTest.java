package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.SwitchboardConfig;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code firewall-farms:} and {@code vpn-farms:}: bound to exact records, or every problem by its path. */
class DispatchedBinderTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();
    private static final String BASE = """
            farms:
              firewalls:
                predictor: hash
                reals: [{ address: 10.2.1.2, port: 1 }, { address: 10.2.2.2, port: 1 }]
              vpn:
                reals: [{ address: 10.2.1.2, port: 500 }, { address: 10.2.2.2, port: 500 }]
              aaa:
                reals: [{ address: 10.2.2.2, port: 1812, secret: s }]
            virtual-servers:
              ike:
                listen: 10.1.0.1:500
                service: udp
                farm: vpn
                sticky: { key: client-address, idle: 10m, group: vpn }
              radius:
                listen: 10.1.0.1:1812
                service: radius
                farm: aaa
                clients: [{ subnet: 10.9.0.0/16, secret: c }]
                sticky: { keys: [framed-ip], idle: 1d, group: subscribers }
            """;

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void bindsFirewallAndVpnFarms() throws Exception {
        SwitchboardConfig config = LOADER.parse(BASE + """
                firewall-farms:
                  edge:
                    farm: firewalls
                    outside: eth0
                    inside: eth1
                    hash-ports: true
                    sticky: 30s
                    framed-ip-group: subscribers
                    firewalls:
                      - { address: 10.2.1.2, outside: { interface: eth2, mac: "02:00:00:00:03:01" }, inside: { interface: eth3, mac: "02:00:00:00:03:02" } }
                      - { address: 10.2.2.2, outside: { interface: eth2, mac: "02:00:00:00:04:01" }, inside: { interface: eth3, mac: "02:00:00:00:04:02" } }
                vpn-farms:
                  ipsec:
                    farm: vpn
                    interface: eth0
                    address: 10.1.0.1
                    protocols: [esp]
                    sticky-group: vpn
                    reals:
                      - { address: 10.2.1.2, interface: eth2, mac: "02:00:00:00:03:01" }
                      - { address: 10.2.2.2, interface: eth2, mac: "02:00:00:00:04:01" }
                """);
        InetAddress f1 = InetAddress.getByName("10.2.1.2");
        InetAddress f2 = InetAddress.getByName("10.2.2.2");
        assertThat(config.dispatched().firewallFarms().get("edge")).isEqualTo(new DispatchedConfig.FirewallFarm("edge",
                "firewalls", "eth0", "eth1", true, Duration.ofSeconds(30), List.of(
                new DispatchedConfig.Firewall(f1, new DispatchedConfig.Link("eth2", "02:00:00:00:03:01"),
                        new DispatchedConfig.Link("eth3", "02:00:00:00:03:02")),
                new DispatchedConfig.Firewall(f2, new DispatchedConfig.Link("eth2", "02:00:00:00:04:01"),
                        new DispatchedConfig.Link("eth3", "02:00:00:00:04:02"))), Optional.of("subscribers")));
        assertThat(config.dispatched().vpnFarms().get("ipsec")).isEqualTo(new DispatchedConfig.VpnFarm("ipsec", "vpn",
                "eth0", InetAddress.getByName("10.1.0.1"), Set.of(50), "vpn", List.of(
                new DispatchedConfig.VpnReal(f1, new DispatchedConfig.Link("eth2", "02:00:00:00:03:01")),
                new DispatchedConfig.VpnReal(f2, new DispatchedConfig.Link("eth2", "02:00:00:00:04:01")))));
        assertThat(LOADER.parse(BASE).dispatched().isEmpty()).isTrue();
    }

    @Test
    void reportsEveryProblemByItsPath() {
        assertThat(errors(BASE + """
                firewall-farms:
                  edge:
                    farm: vpn
                    outside: eth0
                    inside: eth0
                    sticky: 30
                    framed-ip-group: nobody
                    firewalls:
                      - { address: 10.2.1.2, outside: { interface: eth2, mac: "02:00:00:00:03" }, inside: { interface: "bad/name", mac: "02:00:00:00:03:02" } }
                      - { address: 10.9.9.9, outside: { interface: eth2, mac: "02:00:00:00:04:01" } }
                vpn-farms:
                  ipsec:
                    farm: none
                    interface: eth0
                    address: "2001:db8::1"
                    protocols: [esp, ah]
                    reals: []
                """)).containsExactlyInAnyOrder(
                "firewall-farms.edge.farm: farm 'vpn' must have predictor: hash (both directions of a flow, and both"
                        + " directors of a firewall sandwich, must choose the same firewall)",
                "firewall-farms.edge.inside: must not be the outside interface",
                "firewall-farms.edge.sticky: must be a duration with a unit, e.g. 30s",
                "firewall-farms.edge.firewalls[0].outside.mac: '02:00:00:00:03' is not a MAC address (six hex pairs separated by ':')",
                "firewall-farms.edge.firewalls[0].inside.interface: 'bad/name' is not an interface name (1..15 letters, digits, '_', '.', '-', '@')",
                "firewall-farms.edge.firewalls[1].inside: required: { interface, mac } of the firewall's inside leg",
                "firewall-farms.edge.firewalls[1].address: 10.9.9.9 is not the address of a real of farm 'vpn'",
                "firewall-farms.edge.firewalls: no entry for real 10.2.2.2 of farm 'vpn'",
                "firewall-farms.edge.framed-ip-group: no virtual server has sticky group 'nobody'",
                "vpn-farms.ipsec.farm: no farm named 'none'",
                "vpn-farms.ipsec.address: dispatched mode is IPv4 only",
                "vpn-farms.ipsec.protocols[1]: unknown protocol 'ah' (known: esp, gre, tcp, udp, any)",
                "vpn-farms.ipsec.sticky-group: required with esp or gre: the sticky group of the IKE and PPTP virtual servers");
    }
}
