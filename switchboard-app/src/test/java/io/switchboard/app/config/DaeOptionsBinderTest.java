package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.radius.DaeOptions;
import io.switchboard.director.radius.RadiusOptions;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Dynamic Authorization's configuration: {@code radius: {dae-sessions: ...}} on the accounting
 * virtual server, and a {@code service: radius-dae} virtual server, as docs/radius.md's example writes them.
 */
class DaeOptionsBinderTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static final String FARMS = """
            farms:
              aaa:
                reals:
                  - { address: 127.0.0.2, port: 1813, weight: 1, secret: director-to-aaa }
            """;

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void theReadmesExampleBinds() throws Exception {
        SwitchboardConfig config = LOADER.parse(FARMS + """
                virtual-servers:
                  radius-acct:
                    listen: 127.0.0.10:1813
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 10.1.0.0/16, secret: nas-secret } ]
                    radius: { dae-sessions: { hold: 12h } }
                  dae:
                    listen: 127.0.0.10:3799
                    service: radius-dae
                    farm: aaa
                    clients:
                      - { subnet: 10.1.0.0/16, secret: nas-secret }
                      - { address: 10.2.0.1, secret: other, dae-port: 1700 }
                    dae: { sessions: radius-acct }
                """);
        assertThat(config.virtualServers().get("radius-acct").options(RadiusOptions.class).daeSessions())
                .isEqualTo(Optional.of(new RadiusOptions.DaeSessions(Duration.ofHours(12))));
        assertThat(config.virtualServers().get("dae").options(DaeOptions.class)).isEqualTo(new DaeOptions(List.of(
                new DaeOptions.Nas(new RadiusOptions.Client(InetAddress.getByName("10.1.0.0"), 16, "nas-secret"), 3799),
                new DaeOptions.Nas(new RadiusOptions.Client(InetAddress.getByName("10.2.0.1"), 32, "other"), 1700)),
                "radius-acct"));
    }

    @Test
    void learningIsOffUnlessAskedAndTheHoldHasADefault() throws Exception {
        SwitchboardConfig config = LOADER.parse(FARMS + """
                virtual-servers:
                  a: { listen: 127.0.0.10:1813, service: radius, farm: aaa, clients: [ { subnet: 10.1.0.0/16, secret: s } ] }
                  b:
                    listen: 127.0.0.11:1813
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 10.1.0.0/16, secret: s } ]
                    radius: { dae-sessions: {} }
                """);
        assertThat(config.virtualServers().get("a").options(RadiusOptions.class).daeSessions()).isEmpty();
        assertThat(config.virtualServers().get("b").options(RadiusOptions.class).daeSessions())
                .isEqualTo(Optional.of(new RadiusOptions.DaeSessions(RadiusOptions.DaeSessions.DEFAULT_HOLD)));
    }

    @Test
    void mistakesAreReportedByPath() {
        assertThat(errors(FARMS + """
                virtual-servers:
                  a: { listen: 127.0.0.10:3799, service: radius-dae, farm: aaa }
                  b:
                    listen: 127.0.0.11:3799
                    service: radius-dae
                    farm: aaa
                    clients:
                      - { subnet: 10.1.0.0/16, secret: s, dae-port: 0 }
                      - { address: 10.2.0.1, secret: s, limit-proxy-state: true }
                    dae: { group: x }
                  c:
                    listen: 127.0.0.12:1813
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 10.1.0.0/16, secret: s } ]
                    radius: { dae-sessions: { hold: 0s, size: 1 } }
                """)).containsExactly(
                "virtual-servers.a.clients: required for service radius-dae (a list of {subnet|address, secret, dae-port})",
                "virtual-servers.a.dae: required for service radius-dae ({sessions: the radius virtual server or its"
                        + " sticky group})",
                "virtual-servers.b.clients[0].dae-port: must be 1..65535",
                "virtual-servers.b.clients[1].limit-proxy-state: unknown key (known: address, subnet, secret, dae-port)",
                "virtual-servers.b.dae.group: unknown key (known: sessions)",
                "virtual-servers.b.dae.sessions: required (the radius virtual server or its sticky group)",
                "virtual-servers.c.radius.dae-sessions.size: unknown key (known: hold)",
                "virtual-servers.c.radius.dae-sessions.hold: must be greater than zero");
    }
}
