package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.gtp.GtpEchoCheck;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The {@code probes:} section and the farms' references to it. */
class ProbeConfigTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();
    private static final String SERVER = """
            virtual-servers:
              web: { listen: 127.0.0.1:0, service: udp, farm: web }
            """;

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void everyProbeTypeBindsWithItsDefaults() throws Exception {
        SwitchboardConfig config = LOADER.parse("""
                probes:
                  icmp: { type: ping }
                  port: { type: tcp, interval: 5s, timeout: 1s, failures: 2, port: 8080 }
                  page: { type: http, path: /private, expect-status: 401, host: www.example.test }
                  resolver: { type: dns, name: www.example.test, expect-address: 192.0.2.7 }
                  echo: { type: udp, send: ping, expect: "hex:706f6e67" }
                farms:
                  web:
                    probes: [icmp, page]
                    reals: [{ address: 10.0.0.2, port: 80 }]
                """ + SERVER);

        assertThat(config.probes()).containsOnlyKeys("icmp", "port", "page", "resolver", "echo");
        assertThat(config.probes().get("icmp")).isEqualTo(new ProbeConfig("icmp", new ProbeCheck.Ping(),
                ProbeConfig.DEFAULT_INTERVAL, ProbeConfig.DEFAULT_TIMEOUT, ProbeConfig.DEFAULT_FAILURES, OptionalInt.empty()));
        assertThat(config.probes().get("port")).isEqualTo(new ProbeConfig("port", new ProbeCheck.TcpConnect(),
                Duration.ofSeconds(5), Duration.ofSeconds(1), 2, OptionalInt.of(8080)));
        assertThat(config.probes().get("page").check())
                .isEqualTo(new ProbeCheck.Http("/private", 401, Optional.of("www.example.test")));
        assertThat(config.probes().get("resolver").check())
                .isEqualTo(new ProbeCheck.Dns("www.example.test", InetAddress.getByName("192.0.2.7")));
        assertThat(config.probes().get("echo").check())
                .isEqualTo(new ProbeCheck.Udp("ping".getBytes(), "pong".getBytes()));
        assertThat(config.farms().get("web").probes()).containsExactly("icmp", "page");
    }

    @Test
    void probeErrorsAreReportedWithTheirPaths() {
        assertThat(errors("""
                probes:
                  a: { type: smoke }
                  b: { type: tcp, path: /x }
                  c: { type: dns, name: x.test }
                  d: { type: udp, send: "hex:abc", expect: ok }
                  e: { interval: 5 }
                farms:
                  web:
                    probes: [a, missing, a]
                    reals: [{ address: 10.0.0.2, port: 80 }]
                """ + SERVER)).containsExactlyInAnyOrder(
                "probes.a.type: unknown probe type 'smoke' (known: dns, gtp-echo, http, mip, ping, radius, tcp, udp)",
                "probes.b.path: only for probes of type http",
                "probes.c.expect-address: required for a dns probe: the address the answer must hold",
                "probes.d.send: hex: must be followed by an even number of hex digits",
                "probes.e.type: required: one of dns, gtp-echo, http, mip, ping, radius, tcp, udp",
                "farms.web.probes[2]: probe 'a' listed twice",
                "farms.web.probes[1]: no probe named 'missing'");
    }

    @Test
    void gtpEchoProbesBindWithTheirDefaultsAndRefuseWhatDoesNotFit() throws Exception {
        SwitchboardConfig config = LOADER.parse("""
                probes:
                  ggsn: { type: gtp-echo, version: 1, port: 2123 }
                  pgw: { type: gtp-echo, version: 2, recovery: 9, purge-on-restart: false }
                farms:
                  web:
                    probes: [ggsn]
                    reals: [{ address: 10.0.0.2, port: 80 }]
                """ + SERVER);
        assertThat(config.probes().get("ggsn").check()).isEqualTo(new GtpEchoCheck(1, 0, true));
        assertThat(config.probes().get("ggsn").port()).isEqualTo(OptionalInt.of(2123));
        assertThat(config.probes().get("pgw").check()).isEqualTo(new GtpEchoCheck(2, 9, false));

        assertThat(errors("""
                probes:
                  a: { type: gtp-echo }
                  b: { type: gtp-echo, version: 3 }
                  c: { type: gtp-echo, version: 1, recovery: 4 }
                  d: { type: gtp-echo, version: 2, purge-on-restart: maybe }
                  e: { type: udp, send: x, expect: y, purge-on-restart: true }
                """ + SERVER + """
                farms:
                  web: { reals: [{ address: 10.0.0.2, port: 80 }] }
                """)).contains(
                "probes.a.version: required for a gtp-echo probe: 1 (GTPv1-C, GGSNs) or 2 (GTPv2-C, PGWs/SGWs)",
                "probes.c.recovery: only for version 2 (a GTPv1 Echo Request carries no Recovery)",
                "probes.e.purge-on-restart: only for probes of type gtp-echo")
                .anyMatch(e -> e.startsWith("probes.b.version:"))
                .anyMatch(e -> e.startsWith("probes.d.purge-on-restart:"));
    }
}
