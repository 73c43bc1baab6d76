package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.reload.ConfigDiff;
import io.switchboard.director.config.StaticNatConfig;
import io.switchboard.director.config.StaticNatConfig.Action;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code static-nat} section: bound, {@code virtual} resolved, mistakes by path, a change restarts. */
class StaticNatSectionTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static final String REST = """
            farms:
              dns:
                reals: [{ address: 10.9.2.2, port: 53 }, { address: 10.9.2.3, port: 53 }]
              other:
                reals: [{ address: 10.9.2.3, port: 54 }]
            virtual-servers:
              dns: { listen: 10.9.0.10:53, service: udp, farm: dns }
              other: { listen: 10.9.0.11:54, service: udp, farm: other }
            """;

    private static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal);
    }

    @Test
    void entriesAreBoundAndVirtualIsTheAddressOfTheRealsVirtualServer() throws Exception {
        StaticNatConfig nat = LOADER.parse("""
                static-nat:
                  entries:
                    - { action: nat, reals: [{ address: 10.9.2.2 }] }
                    - { action: nat, address: 192.0.2.7, reals: [{ address: 10.9.2.3, port: 53 }] }
                    - { action: drop, reals: [{ address: 10.9.2.4 }] }
                """ + REST).staticNat();
        assertThat(nat).isEqualTo(new StaticNatConfig(StaticNatConfig.DEFAULT_TABLE, List.of(
                new StaticNatConfig.Entry(Action.NAT, Optional.empty(),
                        List.of(new StaticNatConfig.Real(ip("10.9.2.2"), 0, Optional.of(ip("10.9.0.10"))))),
                new StaticNatConfig.Entry(Action.NAT, Optional.of(ip("192.0.2.7")),
                        List.of(new StaticNatConfig.Real(ip("10.9.2.3"), 53, Optional.of(ip("192.0.2.7"))))),
                new StaticNatConfig.Entry(Action.DROP, Optional.empty(),
                        List.of(new StaticNatConfig.Real(ip("10.9.2.4"), 0, Optional.empty()))))));
        assertThat(LOADER.parse(REST).staticNat()).isEqualTo(StaticNatConfig.NONE);
        assertThat(LOADER.parse("static-nat: { table: site_a, entries: [{ action: drop, reals: [{ address: 10.1.1.1 }] }] }\n"
                + REST).staticNat().table()).isEqualTo("site_a");
    }

    @Test
    void mistakesAreReportedByPath() {
        assertThat(Rejections.errors(LOADER, """
                static-nat:
                  table: 9-bad
                  entries:
                    - { action: nat, reals: [{ address: 10.9.2.3 }, { address: 10.9.2.9 }] }
                    - { action: drop, address: 10.0.0.1, reals: [{ address: 2001:db8::1 }] }
                    - { action: translate, reals: [] }
                    - { action: nat, address: nowhere, reals: [{ port: 99999 }] }
                    - { action: drop, reals: [{ address: 10.1.1.1, port: 53 }, { address: 10.1.1.1, port: 53 }] }
                """ + REST)).containsExactlyInAnyOrder(
                "static-nat.table: must be 1..32 letters, digits or '_', starting with a letter",
                "static-nat.entries[0].reals[0].address: address: virtual is ambiguous for 10.9.2.3, whose farms"
                        + " serve 10.9.0.10 (dns), 10.9.0.11 (other): give the entry an address",
                "static-nat.entries[0].reals[1].address: address: virtual, but no virtual server's farm holds the"
                        + " real 10.9.2.9: give the entry an address",
                "static-nat.entries[1].address: only with action: nat",
                "static-nat.entries[1].reals[0].address: must be an IPv4 address (static NAT writes an nftables"
                        + " table of family ip)",
                "static-nat.entries[2].action: must be nat or drop",
                "static-nat.entries[2].reals: must hold at least one real",
                "static-nat.entries[3].address: 'nowhere' is not an IPv4 or IPv6 address (host names are not resolved)",
                "static-nat.entries[3].reals[0].address: required: the real's IPv4 address",
                "static-nat.entries[3].reals[0].port: must be 1..65535",
                "static-nat.entries[4].reals[1].address: 10.1.1.1:53 is in static NAT already at"
                        + " static-nat.entries[4].reals[0]");
        assertThat(Rejections.errors(LOADER, "static-nat: { }\n" + REST))
                .containsExactly("static-nat.entries: required: at least one entry");
    }

    @Test
    void aChangeNeedsARestart() throws Exception {
        String one = "static-nat: { entries: [{ action: drop, reals: [{ address: 10.1.1.1 }] }] }\n";
        String two = "static-nat: { entries: [{ action: drop, reals: [{ address: 10.1.1.2 }] }] }\n";
        ConfigDiff diff = ConfigDiff.between(LOADER.parse(one + REST), LOADER.parse(two + REST));
        assertThat(diff.needsRestart()).containsExactly("static-nat");
        assertThat(ConfigDiff.between(LOADER.parse(one + REST), LOADER.parse(one + REST)).isEmpty()).isTrue();
    }
}
