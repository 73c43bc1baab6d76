package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.gtp.GtpOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code gtp:} key of GTP virtual servers. */
class GtpOptionsBinderTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static String document(String service, String gtp) {
        return """
                farms:
                  ggsn:
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                virtual-servers:
                  gtp-c:
                    listen: 127.0.0.10:2123
                    service: %s
                    farm: ggsn
                    sticky: { key: imsi, idle: 1h }
                %s""".formatted(service, gtp.indent(4));
    }

    private static ServiceOptions options(String service, String gtp) {
        return LOADER.parse(document(service, gtp)).virtualServers().get("gtp-c").options();
    }

    private static List<String> errors(String service, String gtp) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> LOADER.parse(document(service, gtp)));
        assertThat(e).as("should be rejected").isNotNull();
        return e.errors().stream().map(ConfigError::toString).toList();
    }

    @Test
    void theIssuesExampleIsRead() {
        ServiceOptions options = options("gtp-inspect", """
                gtp:
                  versions: [1, 2]
                  reassign: 2
                  resource-causes: { v1: [199, 204, 211, 212], v2: [72, 73, 84, 91] }
                  carrier-codes: []
                """);
        assertThat(options).isEqualTo(GtpOptions.DEFAULT);
    }

    @Test
    void everyKeyIsRead() throws Exception {
        ServiceOptions options = options("gtp", """
                gtp:
                  versions: [0]
                  reassign: 1
                  resource-causes: { v1: [199], v2: [73] }
                  carrier-codes: [26242, "310260"]
                  v0-tid-order: libgtp
                  recovery: 42
                  recovery-file: /var/lib/switchboard/gtp-v0.recovery
                  unstick-on-delete: false
                  session-idle: 2h
                  director-addresses: [192.0.2.10, "2001:db8::10"]
                  apn-maps:
                    - { apn: "ims*", farm: ggsn, priority: 1 }
                    - { apn: internet.mnc042.mcc262.gprs, farm: ggsn }
                """);
        assertThat(options).isEqualTo(new GtpOptions(Set.of(0), 1, Set.of(199), Set.of(73),
                List.of("26242", "310260"), GtpV0TidOrder.LIBGTP_REVERSED, 42,
                Optional.of(Path.of("/var/lib/switchboard/gtp-v0.recovery")), false, java.time.Duration.ofHours(2),
                List.of(java.net.InetAddress.getByName("192.0.2.10"), java.net.InetAddress.getByName("2001:db8::10")),
                List.of(new GtpOptions.ApnMap("ims*", "ggsn", 1),
                        new GtpOptions.ApnMap("internet.mnc042.mcc262.gprs", "ggsn", 0))));
    }

    @Test
    void withoutTheKeyThePlugInUsesItsDefaults() {
        assertThat(options("gtp", "")).isSameAs(ServiceOptions.NONE);
    }

    @Test
    void mistakesAreReportedByPath() {
        assertThat(errors("gtp", """
                gtp:
                  versions: [0, 1]
                  reassign: -1
                  resource-causes: { v1: [199, 300], v3: [1] }
                  carrier-codes: [2624, x]
                  v0-tid-order: reversed
                  recovery: 256
                  unstick-on-delete: maybe
                  session-idle: 0s
                  director-addresses: [192.0.2.10, 192.0.2.11, "::", host.example]
                  apn-maps: [{ apn: "ims!", farm: ggsn, priority: 2000, colour: red }, { farm: ggsn }]
                  colour: blue
                """)).containsExactlyInAnyOrder(
                "virtual-servers.gtp-c.gtp.colour: unknown key (known: versions, reassign, resource-causes,"
                        + " carrier-codes, v0-tid-order, recovery, recovery-file, unstick-on-delete, session-idle,"
                        + " director-addresses, apn-maps)",
                "virtual-servers.gtp-c.gtp.apn-maps[0].colour: unknown key (known: apn, farm, priority)",
                "virtual-servers.gtp-c.gtp.apn-maps[0].apn: 'ims!' is no APN pattern (dot-separated labels of"
                        + " letters, digits, '-', with * and ?)",
                "virtual-servers.gtp-c.gtp.apn-maps[0].priority: must be 0..1000",
                "virtual-servers.gtp-c.gtp.apn-maps[1].apn: required",
                "virtual-servers.gtp-c.gtp.session-idle: must be greater than zero",
                "virtual-servers.gtp-c.gtp.director-addresses[1]: a second IPv4 address: give at most one of each family",
                "virtual-servers.gtp-c.gtp.director-addresses[2]: '::': peers cannot send to a wildcard address",
                "virtual-servers.gtp-c.gtp.director-addresses[3]: 'host.example' is not an IPv4 or IPv6 address"
                        + " (host names are not resolved)",
                "virtual-servers.gtp-c.gtp.unstick-on-delete: must be true or false, not a string",
                "virtual-servers.gtp-c.gtp.versions: GTPv0 (port 3386) and GTPv1/v2 (port 2123) need separate"
                        + " virtual servers: give [0] or a subset of [1, 2]",
                "virtual-servers.gtp-c.gtp.reassign: must be 0..16",
                "virtual-servers.gtp-c.gtp.resource-causes.v3: unknown key (known: v1, v2)",
                "virtual-servers.gtp-c.gtp.resource-causes.v1[1]: must be 0..255",
                "virtual-servers.gtp-c.gtp.carrier-codes[0]: must be MCC+MNC, 5 or 6 digits (quote it: \"26242\"),"
                        + " not '2624'",
                "virtual-servers.gtp-c.gtp.carrier-codes[1]: must be MCC+MNC, 5 or 6 digits (quote it: \"26242\"),"
                        + " not 'x'",
                "virtual-servers.gtp-c.gtp.v0-tid-order: must be gsm-09-60 or libgtp, not 'reversed'",
                "virtual-servers.gtp-c.gtp.recovery: must be 0..255");
    }

    @Test
    void apnMapFarmsMustExistAndSuitTheService() {
        String yaml = """
                farms:
                  ggsn:
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                  hashed:
                    predictor: hash
                    reals: [{ address: 127.0.0.3, port: 2123 }]
                virtual-servers:
                  gtp-c:
                    listen: 127.0.0.10:2123
                    service: gtp-inspect
                    farm: ggsn
                    sticky: { key: imsi, idle: 1h }
                    gtp:
                      apn-maps: [{ apn: ims, farm: nowhere }, { apn: "corp*", farm: hashed }]
                """;
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> LOADER.parse(yaml));
        assertThat(e.errors()).map(ConfigError::toString).containsExactlyInAnyOrder(
                "virtual-servers.gtp-c.gtp.apn-maps[0].farm: no farm named 'nowhere'",
                "farms.hashed.predictor: 'hash' is not allowed for virtual server 'gtp-c' through its options"
                        + " (service gtp-inspect allows: roundrobin, leastconns)");
    }

    @Test
    void theKeyBelongsToGtpServicesOnly() {
        String yaml = """
                farms:
                  ggsn:
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                virtual-servers:
                  dns:
                    listen: 127.0.0.10:53
                    service: udp
                    farm: ggsn
                    gtp: { versions: [1] }
                """;
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> LOADER.parse(yaml));
        assertThat(e.errors()).map(ConfigError::toString)
                .containsExactly("virtual-servers.dns.gtp: only for service gtp or gtp-inspect, not udp");
    }
}
