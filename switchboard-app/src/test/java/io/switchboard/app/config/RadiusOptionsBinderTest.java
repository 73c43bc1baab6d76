package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.radius.RadiusCheck;
import io.switchboard.director.radius.RadiusModule;
import io.switchboard.director.radius.RadiusOptions;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code clients:} and {@code radius:} of {@code service: radius}, as the issue's example writes them. */
class RadiusOptionsBinderTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static final String FARMS = """
            farms:
              aaa-auth:
                reals:
                  - { address: 127.0.0.2, port: 1812, weight: 1, secret: testing123 }
                  - { address: 127.0.0.3, port: 1812, weight: 1, secret: testing123 }
              aaa-acct:
                reals:
                  - { address: 127.0.0.2, port: 1813, weight: 1, secret: testing123 }
                  - { address: 127.0.0.3, port: 1813, weight: 1, secret: testing123 }
            """;

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void theIssuesExampleBinds() throws Exception {
        SwitchboardConfig config = LOADER.parse(FARMS + """
                virtual-servers:
                  radius-auth:
                    listen: 127.0.0.10:1812
                    service: radius
                    farm: aaa-auth
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id, username], idle: 1h, group: subscribers }
                  radius-acct:
                    listen: 127.0.0.10:1813
                    service: radius
                    farm: aaa-acct
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id, username], idle: 1h, group: subscribers }
                    radius:
                      framed-ip: { learn: true, purge-on-stop: true, purge-on-accounting-on-off: true }
                      vsa-correlation: { vendor: 10415, type: 22, hold: 30m }
                """);
        VirtualServerConfig acct = config.virtualServers().get("radius-acct");
        assertThat(acct.sticky().orElseThrow().group()).isEqualTo(Optional.of("subscribers"));
        assertThat(acct.options(RadiusOptions.class)).isEqualTo(new RadiusOptions(
                List.of(new RadiusOptions.Client(InetAddress.getByName("127.0.0.0"), 8, "testing123")),
                new RadiusOptions.FramedIp(true, true, true), RadiusOptions.DEFAULT_STATE_IDLE,
                Optional.of(new RadiusOptions.VsaCorrelation(10415, 22, Duration.ofMinutes(30)))));
        assertThat(config.farms().get("aaa-auth").reals().get(0).value(RadiusModule.SECRET)).isEqualTo(Optional.of("testing123"));
        assertThat(config.virtualServers().get("radius-auth").options(RadiusOptions.class).stateIdle())
                .isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void clientsAreRequiredAndChecked() {
        assertThat(errors(FARMS + """
                virtual-servers:
                  a: { listen: 127.0.0.10:1812, service: radius, farm: aaa-auth }
                  b:
                    listen: 127.0.0.10:1813
                    service: radius
                    farm: aaa-acct
                    clients:
                      - { subnet: 10.0.0.0, secret: s }
                      - { address: 10.0.0.1, subnet: 10.0.0.0/8, secret: s }
                      - { subnet: 10.0.0.0/33, secret: s }
                      - { address: 10.0.0.1 }
                      - { address: 10.0.0.1, secret: s, port: 1 }
                    radius: { framed-ip: { learn: maybe }, ttl: 1s }
                """)).containsExactly(
                "virtual-servers.a.clients: required for service radius (a list of {subnet|address, secret})",
                "virtual-servers.b.clients[0].subnet: '10.0.0.0' must be ADDRESS/PREFIX, e.g. 10.0.0.0/8",
                "virtual-servers.b.clients[1]: give either address or subnet",
                "virtual-servers.b.clients[2].subnet: '10.0.0.0/33': prefix longer than the address",
                "virtual-servers.b.clients[3].secret: required",
                "virtual-servers.b.clients[4].port: unknown key (known: address, subnet, secret,"
                        + " require-message-authenticator, limit-proxy-state, certificate-name)",
                "virtual-servers.b.radius.ttl: unknown key (known: framed-ip, state-idle, vsa-correlation,"
                        + " upstream-sockets, accounting-on-off, duplicates, status-server, dae-sessions, accounting-local-ack)",
                "virtual-servers.b.radius.framed-ip.learn: must be true or false, not a string");
    }

    @Test
    void upstreamSocketsAndAccountingOnOffBindAndAreChecked() throws Exception {
        SwitchboardConfig config = LOADER.parse(FARMS + """
                virtual-servers:
                  a:
                    listen: 127.0.0.10:1813
                    service: radius
                    farm: aaa-acct
                    clients: [ { subnet: 127.0.0.0/8, secret: s } ]
                    radius: { upstream-sockets: 4, accounting-on-off: one-real }
                  b:
                    listen: 127.0.0.11:1813
                    service: radius
                    farm: aaa-acct
                    clients: [ { subnet: 127.0.0.0/8, secret: s } ]
                """);
        RadiusOptions a = config.virtualServers().get("a").options(RadiusOptions.class);
        assertThat(a.upstreamSockets()).isEqualTo(4);
        assertThat(a.accountingOnOffToAllReals()).isFalse();
        RadiusOptions b = config.virtualServers().get("b").options(RadiusOptions.class);
        assertThat(b.upstreamSockets()).isEqualTo(RadiusOptions.DEFAULT_UPSTREAM_SOCKETS);
        assertThat(b.accountingOnOffToAllReals()).isTrue();
        assertThat(errors(FARMS + """
                virtual-servers:
                  a:
                    listen: 127.0.0.10:1813
                    service: radius
                    farm: aaa-acct
                    clients: [ { subnet: 127.0.0.0/8, secret: s } ]
                    radius: { upstream-sockets: 0, accounting-on-off: all }
                """)).containsExactly(
                "virtual-servers.a.radius.upstream-sockets: must be 1..1024",
                "virtual-servers.a.radius.accounting-on-off: must be all-reals or one-real, not 'all'");
    }

    @Test
    void theBlastRadiusDefencesAndTheResponseCacheBindAndAreChecked() throws Exception {
        SwitchboardConfig config = LOADER.parse("""
                farms:
                  aaa:
                    reals:
                      - { address: 127.0.0.2, port: 1812, secret: s, require-message-authenticator: true }
                      - { address: 127.0.0.3, port: 1812, secret: s, require-message-authenticator: auto }
                      - { address: 127.0.0.4, port: 1812, secret: s }
                virtual-servers:
                  a:
                    listen: 127.0.0.10:1812
                    service: radius
                    farm: aaa
                    clients:
                      - { subnet: 10.0.0.0/8, secret: s, require-message-authenticator: true, limit-proxy-state: false }
                      - { address: 127.0.0.1, secret: s }
                    radius: { duplicates: { cache-time: 30s, max-entries: 1024 } }
                """);
        RadiusOptions a = config.virtualServers().get("a").options(RadiusOptions.class);
        assertThat(a.clients().get(0).requireMessageAuthenticator()).isEqualTo(RadiusOptions.Tristate.ON);
        assertThat(a.clients().get(0).limitProxyState()).isEqualTo(RadiusOptions.Tristate.OFF);
        assertThat(a.clients().get(1).requireMessageAuthenticator()).isEqualTo(RadiusOptions.Tristate.AUTO);
        assertThat(a.clients().get(1).limitProxyState()).isEqualTo(RadiusOptions.Tristate.AUTO);
        assertThat(a.duplicates()).isEqualTo(new RadiusOptions.Duplicates(Duration.ofSeconds(30), 1024));
        var reals = config.farms().get("aaa").reals();
        assertThat(reals.get(0).value(RadiusModule.REQUIRE_MESSAGE_AUTHENTICATOR)).contains(RadiusOptions.Tristate.ON);
        assertThat(reals.get(1).value(RadiusModule.REQUIRE_MESSAGE_AUTHENTICATOR)).contains(RadiusOptions.Tristate.AUTO);
        assertThat(reals.get(2).value(RadiusModule.REQUIRE_MESSAGE_AUTHENTICATOR)).isEmpty();
        assertThat(errors("""
                farms:
                  aaa:
                    reals: [ { address: 127.0.0.2, port: 1812, secret: s, require-message-authenticator: sometimes } ]
                virtual-servers:
                  a:
                    listen: 127.0.0.10:1812
                    service: radius
                    farm: aaa
                    clients: [ { address: 127.0.0.1, secret: s, limit-proxy-state: 1 } ]
                    radius: { duplicates: { cache-time: 0s, max-entries: -1, size: 3 } }
                """)).contains(
                "farms.aaa.reals[0].require-message-authenticator: must be true, false or auto",
                "virtual-servers.a.clients[0].limit-proxy-state: must be true, false or auto",
                "virtual-servers.a.radius.duplicates.size: unknown key (known: cache-time, max-entries)",
                "virtual-servers.a.radius.duplicates.max-entries: must be 0..4194304");
    }

    @Test
    void theRouteMapIsTheFarmsNotTheVirtualServers() {
        // It moved to farms.<name>.route-map (ConfigLoaderTest.RouteMap): here it is an unknown key.
        assertThat(errors(FARMS + """
                virtual-servers:
                  acct:
                    listen: 127.0.0.10:1813
                    service: radius
                    farm: aaa-acct
                    clients: [ { subnet: 127.0.0.0/8, secret: s } ]
                    sticky: { key: calling-station-id, idle: 1h }
                    radius:
                      route-map:
                        - { prefix: 10.1.0.0/16, real: 127.0.0.2:1813 }
                """)).containsExactly("virtual-servers.acct.radius.route-map: unknown key (known: framed-ip,"
                + " state-idle, vsa-correlation, upstream-sockets, accounting-on-off, duplicates, status-server, dae-sessions, accounting-local-ack)");
    }

    @Test
    void statusChecksAndTheStatusServerAnswerBind() throws Exception {
        SwitchboardConfig config = LOADER.parse("""
                probes:
                  plain: { type: radius, secret: testing123 }
                  home-server: { type: radius, secret: testing123, check-interval: 5s, zombie-period: 40s,
                                 answers-to-alive: 3 }
                  period-only: { type: radius, zombie-period: 20s }
                farms:
                  aaa: { probes: [plain, home-server, period-only], reals: [{ address: 127.0.0.2, port: 1812, secret: s }] }
                virtual-servers:
                  auth: { listen: 127.0.0.10:1812, service: radius, farm: aaa, clients: [{ address: 127.0.0.1, secret: s }] }
                  acct: { listen: 127.0.0.10:1813, service: radius, farm: aaa, clients: [{ address: 127.0.0.1, secret: s }],
                          radius: { status-server: off } }
                """);
        assertThat(config.probes().get("plain").check().zombies()).isEmpty();
        assertThat(config.probes().get("home-server").check().zombies()).contains(new io.switchboard.director.config
                .ZombieChecks(Optional.of(Duration.ofSeconds(5)), Duration.ofSeconds(40), 3));
        assertThat(config.probes().get("period-only").check().zombies()).contains(new io.switchboard.director.config
                .ZombieChecks(Optional.empty(), Duration.ofSeconds(20), 3));
        assertThat(config.virtualServers().get("auth").options(RadiusOptions.class).statusServer())
                .isEqualTo(RadiusOptions.StatusServerPort.AUTO);
        assertThat(config.virtualServers().get("acct").options(RadiusOptions.class).statusServer())
                .isEqualTo(RadiusOptions.StatusServerPort.OFF);
        assertThat(errors("""
                probes:
                  a: { type: radius, secret: s, zombie-period: 5m }
                  b: { type: radius, secret: s, check-interval: 0s, answers-to-alive: 11 }
                farms:
                  aaa: { probes: [a, b], reals: [{ address: 127.0.0.2, port: 1812, secret: s }] }
                virtual-servers:
                  v: { listen: 127.0.0.10:1812, service: radius, farm: aaa, clients: [{ address: 127.0.0.1, secret: s }],
                       radius: { status-server: maybe } }
                """)).containsExactly(
                "probes.a.zombie-period: at most 120s",
                "probes.b.check-interval: must be greater than zero",
                "probes.b.answers-to-alive: must be 1..10",
                "virtual-servers.v.radius.status-server: must be auto, access, accounting or off");
    }

    @Test
    void radiusProbesBind() throws Exception {
        SwitchboardConfig config = LOADER.parse("""
                probes:
                  status: { type: radius, secret: testing123 }
                  login: { type: radius, secret: testing123, user: probe, password: pw, timeout: 1s }
                farms:
                  aaa:
                    probes: [status, login]
                    reals: [{ address: 127.0.0.2, port: 1812, secret: testing123 }]
                virtual-servers:
                  v: { listen: 127.0.0.10:1812, service: radius, farm: aaa, clients: [{ address: 127.0.0.1, secret: s }] }
                """);
        assertThat(config.probes().get("status").check())
                .isEqualTo(new RadiusCheck("testing123", Optional.empty(), Optional.empty()));
        assertThat(config.probes().get("login").check())
                .isEqualTo(new RadiusCheck("testing123", Optional.of("probe"), Optional.of("pw")));
        assertThat(LOADER.parse("""
                probes:
                  own: { type: radius }
                farms:
                  aaa: { probes: [own], reals: [{ address: 127.0.0.2, port: 1812, secret: s }] }
                virtual-servers:
                  v: { listen: 127.0.0.10:1812, service: radius, farm: aaa, clients: [{ address: 127.0.0.1, secret: s }] }
                """).probes().get("own").check()).isEqualTo(new RadiusCheck("", Optional.empty(), Optional.empty()));
        assertThat(errors("""
                probes:
                  a: { type: radius, secret: "" }
                  b: { type: radius, secret: s, password: pw }
                  c: { type: udp, send: x, expect: y, secret: s }
                farms:
                  aaa: { reals: [{ address: 127.0.0.2, port: 1812 }] }
                virtual-servers:
                  v: { listen: 127.0.0.10:1812, service: radius, farm: aaa, clients: [{ address: 127.0.0.1, secret: s }] }
                """)).containsExactly(
                "probes.a.secret: must not be empty",
                "probes.b.password: only with user (an Access-Request probe)",
                "probes.c.secret: only for probes of type radius");
    }

    @Test
    void radiusKeysAreRefusedOnOtherServices() {
        assertThat(errors(FARMS + """
                virtual-servers:
                  u: { listen: 127.0.0.10:1, service: udp, farm: aaa-auth, clients: [] }
                """)).containsExactly("virtual-servers.u.clients: only for service radius or radius-dae or tcp, not udp");
        assertThat(errors(FARMS + """
                virtual-servers:
                  u: { listen: 127.0.0.10:1, service: udp, farm: aaa-auth, radius: { state-idle: 1m } }
                """)).containsExactly("virtual-servers.u.radius: only for service radius, not udp");
    }
}
