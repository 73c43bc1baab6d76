package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.Subnet;
import io.switchboard.l4.tcp.TcpOptions;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The {@code clients:} and {@code tcp:} keys of a {@code tcp} virtual server. */
class TcpOptionsBinderTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();
    private static final String FARM = "farms:\n  web: { reals: [{ address: 10.0.0.2, port: 80 }] }\n";

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void bindsTheAccessListAndTheTcpSettings() throws Exception {
        var config = LOADER.parse(FARM + """
                virtual-servers:
                  web:
                    listen: 127.0.0.1:8080
                    service: tcp
                    farm: web
                    clients: [10.0.0.0/8, 192.0.2.15, "2001:db8::/32"]
                    tcp: { connect-timeout: 500ms, reassign: 2, syn-guard: { limit: 100, interval: 2s }, idle: 5m, delay: 2s }
                """);
        TcpOptions options = config.virtualServers().get("web").options(TcpOptions.class);
        assertThat(options).isEqualTo(new TcpOptions(List.of(
                new Subnet(InetAddress.getByName("10.0.0.0"), 8),
                new Subnet(InetAddress.getByName("192.0.2.15"), 32),
                new Subnet(InetAddress.getByName("2001:db8::"), 32)),
                Duration.ofMillis(500), 2, OptionalInt.of(100), Duration.ofSeconds(2), Duration.ofMinutes(5),
                Duration.ofSeconds(2)));
        assertThat(options.allows(InetAddress.getByName("10.9.8.7"))).isTrue();
        assertThat(options.allows(InetAddress.getByName("192.0.2.16"))).isFalse();
    }

    @Test
    void reportsBadSubnetsSettingsAndKeysOnOtherServices() {
        assertThat(errors(FARM + """
                virtual-servers:
                  web:
                    listen: 127.0.0.1:8080
                    service: tcp
                    farm: web
                    clients: [10.0.0.0/33, www.example.net]
                    tcp: { reassign: 0, syn-guard: { interval: 1s } }
                  dns:
                    listen: 127.0.0.1:53
                    service: udp
                    farm: web
                    tcp: { reassign: 2 }
                """)).containsExactlyInAnyOrder(
                "virtual-servers.web.clients[0]: prefix length must be 0..32",
                "virtual-servers.web.clients[1]: 'www.example.net' is not an IPv4 or IPv6 address (host names are not resolved)",
                "virtual-servers.web.tcp.reassign: must be 1..16",
                "virtual-servers.web.tcp.syn-guard.limit: required: new connections allowed per interval",
                "virtual-servers.dns.tcp: only for service tcp, not udp");
    }
}
