package io.switchboard.app.config;

import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.radius.RadiusModule;
import io.switchboard.director.asn.AsnModule;
import io.switchboard.director.gtp.GtpModule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.entry;

import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Exposure;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.radius.RadiusOptions;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    private static final ConfigLoader ALL_SERVICES = ConfigLoader.forInstalledPlugins();

    /** A valid farm, for documents whose mistake is elsewhere. */
    private static final String GGSN_FARM = """
            farms:
              ggsn:
                reals: [{ address: 127.0.0.2, port: 2123 }]
            """;

    /** A valid virtual server on farm ggsn, for documents whose mistake is elsewhere. */
    private static final String GTP_SERVER = """
            virtual-servers:
              gtp-c: { listen: 127.0.0.1:2123, service: gtp, farm: ggsn }
            """;

    private static Path resource(String name) {
        try {
            return Path.of(ConfigLoaderTest.class.getResource("/config/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Address literals in tests; a literal is never looked up. */
    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Endpoint endpoint(String address, int port) {
        return new Endpoint(ip(address), port);
    }

    /** The errors of a document that must be rejected, as {@code path: message} lines. */
    private static List<String> errors(ConfigLoader loader, String yaml) {
        return Rejections.errors(loader, yaml);
    }

    private static List<String> errors(String yaml) {
        return errors(ALL_SERVICES, yaml);
    }

    // ---- valid documents ------------------------------------------------------------------------

    @Test
    void fullDocumentBindsToExactRecords() {
        SwitchboardConfig config = ALL_SERVICES.load(resource("full.yaml"));

        assertThat(config.cluster()).isEqualTo(new ClusterConfig(true, "core-east",
                List.of("10.0.0.2:5701", "[2001:db8::2]:5701", "10.0.0.3"), 5702, Optional.of(ip("10.0.0.1")),
                Optional.empty(), Exposure.PUBLIC_ACKNOWLEDGED, ClusterConfig.UnlistedMember.LEAVE));
        assertThat(config.admin()).isEqualTo(new AdminConfig(false, endpoint("0.0.0.0", 9090), Optional.of("s3cret"),
                Exposure.PUBLIC_ACKNOWLEDGED));

        assertThat(config.farms()).containsExactly(
                entry("ggsn", new FarmConfig("ggsn", PredictorKind.ROUNDROBIN,
                        new FailureDetection(4, 2, Duration.ofSeconds(30)),
                        List.of(new RealConfig(ip("127.0.0.2"), 2123, 3, OptionalInt.empty(), true),
                                new RealConfig(ip("127.0.0.3"), 2123, 1, OptionalInt.of(500), false)),
                        Optional.of("ggsn-spare"))),
                entry("ggsn-spare", new FarmConfig("ggsn-spare", PredictorKind.ROUNDROBIN,
                        FailureDetection.DEFAULT,
                        List.of(new RealConfig(ip("2001:db8::10"), 2123, RealConfig.DEFAULT_WEIGHT,
                                OptionalInt.empty(), true)),
                        Optional.empty())),
                entry("aaa", new FarmConfig("aaa", PredictorKind.HASH,
                        new FailureDetection(8, 2, Duration.ofMinutes(2)),
                        List.of(new RealConfig(ip("10.1.0.1"), 1812, 8, OptionalInt.empty(), true),
                                new RealConfig(ip("10.1.0.2"), 1812, 255, OptionalInt.empty(), true)),
                        Optional.empty())),
                entry("web", new FarmConfig("web", PredictorKind.LEASTCONNS, FailureDetection.DEFAULT,
                        List.of(new RealConfig(ip("10.2.0.1"), 8080, 8, OptionalInt.empty(), true)),
                        Optional.empty())));

        assertThat(config.virtualServers()).containsExactly(
                entry("gtp-c", new VirtualServerConfig("gtp-c", endpoint("127.0.0.1", 2123), "gtp",
                        "ggsn",
                        Optional.of(new StickyConfig(List.of(GtpModule.IMSI), Duration.ofHours(1),
                                OptionalInt.empty(), StickyConfig.DEFAULT_MAX_ENTRIES)),
                        Duration.ofMillis(500), Duration.ofMinutes(5), 1500, true)),
                entry("radius-auth", new VirtualServerConfig("radius-auth", endpoint("::1", 1812),
                        "radius", "aaa",
                        Optional.of(new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID, RadiusModule.USERNAME),
                                Duration.ofDays(1), OptionalInt.empty(), 50000, Optional.of("subscribers"))),
                        VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT, VirtualServerConfig.DEFAULT_IDLE,
                        VirtualServerConfig.DEFAULT_MAX_DATAGRAM, true,
                        new RadiusOptions(List.of(new RadiusOptions.Client(ip("10.3.0.0"), 16, "nas-secret"),
                                new RadiusOptions.Client(ip("2001:db8::7"), 128, "other")),
                                new RadiusOptions.FramedIp(true, true, false), Duration.ofSeconds(30)))),
                entry("web-udp", new VirtualServerConfig("web-udp", endpoint("0.0.0.0", 0), "udp",
                        "web",
                        Optional.of(new StickyConfig(List.of(StickyKind.CLIENT_ADDRESS), Duration.ofMinutes(10),
                                OptionalInt.of(24), StickyConfig.DEFAULT_MAX_ENTRIES)),
                        VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT, VirtualServerConfig.DEFAULT_IDLE,
                        VirtualServerConfig.DEFAULT_MAX_DATAGRAM, false)),
                entry("web-tcp", new VirtualServerConfig("web-tcp", endpoint("127.0.0.1", 2123), "tcp",
                        "web", Optional.empty(),
                        VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT, VirtualServerConfig.DEFAULT_IDLE,
                        VirtualServerConfig.DEFAULT_MAX_DATAGRAM, true, io.switchboard.l4.tcp.TcpOptions.DEFAULT)));
    }

    @Test
    void minimalDocumentGetsEveryDefault() {
        SwitchboardConfig config = ALL_SERVICES.load(resource("minimal.yaml"));

        assertThat(config.cluster()).isEqualTo(ClusterConfig.SINGLE_NODE);
        assertThat(config.admin()).isEqualTo(AdminConfig.DEFAULT);
        assertThat(config.farms()).containsExactly(entry("ggsn", new FarmConfig("ggsn", PredictorKind.ROUNDROBIN,
                FailureDetection.DEFAULT,
                List.of(new RealConfig(ip("127.0.0.2"), 2123, RealConfig.DEFAULT_WEIGHT, OptionalInt.empty(), true)),
                Optional.empty())));
        assertThat(config.virtualServers()).containsExactly(entry("gtp-c", new VirtualServerConfig("gtp-c",
                endpoint("127.0.0.1", 2123), "gtp", "ggsn", Optional.empty(),
                VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT, VirtualServerConfig.DEFAULT_IDLE,
                VirtualServerConfig.DEFAULT_MAX_DATAGRAM, true)));
    }

    @Test
    void partialSectionsKeepTheOtherDefaults() {
        SwitchboardConfig config = ALL_SERVICES.parse("""
                cluster: { enabled: true, name: core, bind: any }
                admin: { token: t0k3n }
                farms:
                  ggsn:
                    failure: { numconns: 1 }
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                """ + GTP_SERVER);

        assertThat(config.cluster()).isEqualTo(new ClusterConfig(true, "core", List.of(), 5701));
        assertThat(config.admin()).isEqualTo(new AdminConfig(true, AdminConfig.DEFAULT.listen(), Optional.of("t0k3n")));
        // numclients defaults to 2, but never above numconns.
        assertThat(config.farms().get("ggsn").failure())
                .isEqualTo(new FailureDetection(1, 1, FailureDetection.DEFAULT.retry()));
    }

    @Test
    void clusterMembersMayComeFromKubernetesInsteadOfAList() {
        SwitchboardConfig api = ALL_SERVICES.parse("""
                cluster: { enabled: true, name: core, bind: any, kubernetes: { namespace: core, service-name: switchboard } }
                """ + GGSN_FARM + GTP_SERVER);
        assertThat(api.cluster().kubernetes())
                .contains(new ClusterConfig.KubernetesDiscovery("core", "switchboard", "", 0));
        SwitchboardConfig dns = ALL_SERVICES.parse("""
                cluster: { enabled: true, name: core, bind: any, kubernetes: { service-dns: sb.core.svc.cluster.local, service-port: 5701 } }
                """ + GGSN_FARM + GTP_SERVER);
        assertThat(dns.cluster().kubernetes())
                .contains(new ClusterConfig.KubernetesDiscovery("", "", "sb.core.svc.cluster.local", 5701));
        assertThat(ALL_SERVICES.parse(GGSN_FARM + GTP_SERVER).cluster().kubernetes()).isEmpty();

        assertThat(errors("""
                cluster:
                  enabled: true
                  name: core
                  bind: 10.0.0.1
                  members: [10.0.0.2]
                  kubernetes: { service-dns: sb, namespace: core, service-port: 0, label: x }
                """ + GGSN_FARM + GTP_SERVER)).containsExactlyInAnyOrder(
                "cluster.kubernetes.label: unknown key (known: namespace, service-name, service-dns, service-port)",
                "cluster.kubernetes.service-dns: service-dns (DNS lookup) excludes namespace and service-name (API lookup)",
                "cluster.kubernetes.service-port: must be 1..65535",
                "cluster.kubernetes: members are found either by 'members' or by 'kubernetes', not both");
    }

    @Test
    void aRealsRemovalPolicyIsDrainOrReassignWithAnOptionalDrainDeadline() {
        SwitchboardConfig config = ALL_SERVICES.parse("""
                farms:
                  ggsn:
                    reals:
                      - { address: 127.0.0.2, port: 2123 }
                      - { address: 127.0.0.3, port: 2123, on-remove: drain, drain-deadline: 10m }
                      - { address: 127.0.0.4, port: 2123, on-remove: reassign }
                """ + GTP_SERVER);
        List<io.switchboard.director.config.RealConfig> reals = config.farms().get("ggsn").reals();
        assertThat(reals.get(0).removal()).isEqualTo(io.switchboard.director.config.RemovalPolicy.DEFAULT);
        assertThat(reals.get(1).removal()).isEqualTo(new io.switchboard.director.config.RemovalPolicy(
                io.switchboard.director.config.RemovalPolicy.Mode.DRAIN, java.util.Optional.of(java.time.Duration.ofMinutes(10))));
        assertThat(reals.get(2).removal().mode()).isEqualTo(io.switchboard.director.config.RemovalPolicy.Mode.REASSIGN);

        assertThat(errors("""
                farms:
                  ggsn:
                    reals:
                      - { address: 127.0.0.2, port: 2123, on-remove: forget }
                      - { address: 127.0.0.3, port: 2123, on-remove: reassign, drain-deadline: 10m }
                      - { address: 127.0.0.4, port: 2123, drain-deadline: 10 }
                """ + GTP_SERVER)).containsExactly(
                "farms.ggsn.reals[0].on-remove: unknown value 'forget' (known: drain, reassign)",
                "farms.ggsn.reals[1].drain-deadline: only with on-remove: drain",
                "farms.ggsn.reals[2].drain-deadline: must be a duration with a unit, e.g. 30s");
    }

    @Test
    void aFarmsSlowStartIsADuration() {
        SwitchboardConfig config = ALL_SERVICES.parse("""
                farms:
                  ggsn:
                    slow-start: 30s
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                """ + GTP_SERVER);
        assertThat(config.farms().get("ggsn").slowStart()).contains(java.time.Duration.ofSeconds(30));
        assertThat(errors(GGSN_FARM.replace("reals:", "slow-start: 30\n    reals:") + GTP_SERVER))
                .containsExactly("farms.ggsn.slow-start: must be a duration with a unit, e.g. 30s");
    }

    @Test
    void numbersInStringFieldsAreTakenAsWritten() {
        SwitchboardConfig config = ALL_SERVICES.parse("""
                admin: { token: 0123 }
                farms:
                  "42":
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                virtual-servers:
                  gtp-c: { listen: 127.0.0.1:2123, service: gtp, farm: 42 }
                """);

        assertThat(config.admin().token()).contains("0123");
        assertThat(config.virtualServers().get("gtp-c").farm()).isEqualTo("42");
    }

    @Test
    void debugCaptureIsOffByDefaultAndBindsItsKeys() {
        SwitchboardConfig defaults = ALL_SERVICES.parse(GGSN_FARM + GTP_SERVER);
        assertThat(defaults.debugCapture()).isEqualTo(io.switchboard.director.config.DebugCaptureConfig.DEFAULT);
        assertThat(defaults.debugCapture().start()).isEmpty();
        SwitchboardConfig set = ALL_SERVICES.parse("""
                debug-capture: { directory: /var/tmp/cap, file-megabytes: 16, files: 3, queue: 4096, start: [gtp-c] }
                """ + GGSN_FARM + GTP_SERVER);
        assertThat(set.debugCapture()).isEqualTo(new io.switchboard.director.config.DebugCaptureConfig(
                Path.of("/var/tmp/cap"), 16L << 20, 3, 4096, java.util.Set.of("gtp-c")));
        assertThat(errors("""
                debug-capture: { file-megabytes: 0, files: 0, queue: 10, start: [nowhere], size: 1 }
                """ + GGSN_FARM + GTP_SERVER)).containsExactlyInAnyOrder(
                "debug-capture.size: unknown key (known: directory, file-megabytes, files, queue, start)",
                "debug-capture.file-megabytes: must be 1..4096",
                "debug-capture.files: must be 1..1000",
                "debug-capture.queue: must be 1024..1048576",
                "debug-capture.start[0]: no virtual server named 'nowhere'");
    }

    @Test
    void loadsFromPathAndReportsUnreadableFiles(@TempDir Path dir) {
        assertThatThrownBy(() -> ALL_SERVICES.load(dir.resolve("absent.yaml")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("(document): cannot read " + dir.resolve("absent.yaml") + ": no such file");
    }

    // ---- several errors at once -----------------------------------------------------------------

    @Test
    void reportsEveryErrorOfADocumentAtOnce() {
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ALL_SERVICES.load(resource("many-errors.yaml")));

        List<String> expected = List.of(
                "clustr: unknown key (known: transport, cluster, admin, persistence, route-health, debug-capture, probes, farms, virtual-servers, firewall-farms, vpn-farms, dfp, static-nat)",
                "admin.listen: 'localhost' is not an IPv4 or IPv6 address (host names are not resolved)",
                "farms.ggsn.realz: unknown key (known: predictor, failure, reals, backup, probes, slow-start, route-map)",
                "farms.ggsn.failure.numclients: must not exceed numconns (2)",
                "farms.ggsn.failure.retry: must be a duration with a unit, e.g. 30s",
                "farms.ggsn.reals: required: a farm needs at least one real",
                "farms.aaa.reals[0].weight: must be 1..255",
                "farms.aaa.reals[1]: duplicate of reals[0] (10.1.0.1:1812)",
                "virtual-servers.gtp-c2.farm: no farm named 'ggsn2'",
                "farms.aaa.backup: must not be the farm itself",
                "farms.ggsn.predictor: 'leastconns' is not allowed for virtual server 'gtp-c'"
                        + " (service gtp allows: roundrobin)",
                "virtual-servers.gtp-c2.listen: 127.0.0.1:2123/udp is already used by virtual server 'gtp-c'");
        assertThat(e.errors()).extracting(ConfigError::toString).containsExactlyElementsOf(expected);
        assertThat(e.getMessage()).isEqualTo(String.join("\n", expected));
        assertThat(e.errors().get(6)).isEqualTo(new ConfigError("farms.aaa.reals[0].weight", "must be 1..255"));
    }

    // ---- the document as a whole ----------------------------------------------------------------

    @Nested
    class Document {

        @Test
        void emptyOrCommentOnly() {
            String message = "(document): the document is empty; it needs at least farms and virtual-servers";
            assertThat(errors("")).containsExactly(message);
            assertThat(errors("# nothing yet\n\n")).containsExactly(message);
        }

        @Test
        void notAMapping() {
            assertThat(errors("- farms\n- virtual-servers\n")).containsExactly("(document): must be a mapping, not a list");
            assertThat(errors("~\n")).containsExactly("(document): must be a mapping, not null");
        }

        @Test
        void noVirtualServers() {
            assertThat(errors(GGSN_FARM)).containsExactly("virtual-servers: at least one virtual server is required");
            assertThat(errors(GGSN_FARM + "virtual-servers: {}\n"))
                    .containsExactly("virtual-servers: at least one virtual server is required");
        }

        @Test
        void noFarms() {
            assertThat(errors(GTP_SERVER)).containsExactly(
                    "farms: at least one farm is required",
                    "virtual-servers.gtp-c.farm: no farm named 'ggsn'");
        }

        @Test
        void syntaxErrorNamesLineAndColumn() {
            assertThat(errors("farms: { ggsn: [\n")).singleElement().asString()
                    .startsWith("(document): not valid YAML at line 2, column 1: ");
            assertThat(errors("farms:\n  ggsn: reals: x\n"))
                    .containsExactly("(document): not valid YAML at line 2, column 14: mapping values are not allowed here");
        }

        @Test
        void duplicateKeysAreErrorsNotLastOneWins() {
            assertThat(errors(GGSN_FARM + GTP_SERVER + """
                    farms:
                      other:
                        reals: [{ address: 127.0.0.9, port: 1 }]
                    """)).containsExactly("farms: duplicate key");
            assertThat(errors("""
                    farms:
                      ggsn:
                        reals: [{ address: 127.0.0.2, port: 2123, weight: 3, weight: 4 }]
                    """ + GTP_SERVER)).containsExactly("farms.ggsn.reals[0].weight: duplicate key");
        }

        @Test
        void aliasesAreRefused() {
            assertThat(errors("""
                    farms:
                      ggsn:
                        reals: &r [{ address: 127.0.0.2, port: 2123 }]
                      spare:
                        reals: *r
                    """ + GTP_SERVER))
                    .containsExactly("farms.spare.reals: YAML aliases (*r) are not supported; write the value out");
        }

        @Test
        void secondDocumentIsRefused() {
            assertThat(errors(GGSN_FARM + GTP_SERVER + "---\n" + GGSN_FARM)).containsExactly(
                    "(document): more than one YAML document (---); the configuration is exactly one document");
        }
    }

    // ---- unknown keys and types -----------------------------------------------------------------

    @Nested
    class UnknownKeysAndTypes {

        @Test
        void unknownKeysAtEveryLevel() {
            assertThat(errors("""
                    clustr: {}
                    cluster: { enable: true }
                    admin: { listne: 127.0.0.1:1 }
                    farms:
                      ggsn:
                        failure: { numcons: 3 }
                        reals: [{ address: 127.0.0.2, port: 2123, wieght: 3 }]
                    virtual-servers:
                      gtp-c:
                        listen: 127.0.0.1:2123
                        service: gtp
                        farm: ggsn
                        sticky: { key: imsi, idle: 1h, ttl: 5m }
                        stiky: {}
                    """)).containsExactly(
                    "clustr: unknown key (known: transport, cluster, admin, persistence, route-health, debug-capture, probes, farms, virtual-servers, firewall-farms, vpn-farms, dfp, static-nat)",
                    "cluster.enable: unknown key (known: enabled, name, members, port, bind, kubernetes, exposure,"
                            + " unlisted-member)",
                    "admin.listne: unknown key (known: listen, token, enabled, exposure, tls)",
                    "farms.ggsn.failure.numcons: unknown key (known: numconns, numclients, retry, inband, purge)",
                    "farms.ggsn.reals[0].wieght: unknown key (known: address, port, weight, maxconns, inservice, on-remove,"
                            + " drain-deadline, rate, maxclients, bind-id, secret, require-message-authenticator, transport)",
                    // The list grows with each plug-in's own keys (its services' OptionsBinders).
                    "virtual-servers.gtp-c.stiky: unknown key (known: "
                            + String.join(", ", CoreSchema.VIRTUAL_SERVER.names()) + ")",
                    "virtual-servers.gtp-c.sticky.ttl: unknown key (known: key, keys, idle, netmask, max-entries, group)");
        }

        @Test
        void wrongTypes() {
            assertThat(errors("""
                    cluster: [a]
                    admin: { enabled: maybe, token: on }
                    farms:
                      ggsn:
                        failure: 3
                        reals: [{ address: 127.0.0.2, port: "2123", weight: 3.5, inservice: 1 }]
                      aaa:
                        reals: { address: 10.0.0.1, port: 1812 }
                      radius: ~
                    virtual-servers:
                      gtp-c: { listen: 127.0.0.1:2123, service: [gtp], farm: ggsn, idle: true }
                    """)).containsExactly(
                    "cluster: must be a mapping, not a list",
                    "admin.enabled: must be true or false, not a string",
                    "admin.token: must be a string, not a boolean (quote it: \"on\")",
                    "farms.ggsn.failure: must be a mapping, not an integer",
                    "farms.ggsn.reals[0].port: must be an integer, not a string",
                    "farms.ggsn.reals[0].weight: must be an integer, not a decimal number",
                    "farms.ggsn.reals[0].inservice: must be true or false, not an integer",
                    "farms.aaa.reals: must be a list, not a mapping",
                    "farms.radius: must be a mapping, not null",
                    "virtual-servers.gtp-c.service: must be a string, not a list",
                    "virtual-servers.gtp-c.idle: must be a duration with a unit, e.g. 30s, not a boolean");
        }

        @Test
        void integersMustBePlainDecimal() {
            assertThat(errors("""
                    farms:
                      ggsn:
                        reals:
                          - { address: 127.0.0.2, port: 0x853, weight: 010 }
                    """ + GTP_SERVER)).containsExactly(
                    "farms.ggsn.reals[0].port: must be a decimal integer without leading zeros, not '0x853'",
                    "farms.ggsn.reals[0].weight: must be a decimal integer without leading zeros, not '010'");
        }

        @Test
        void emptyStringsAndBadNames() {
            assertThat(errors("""
                    farms:
                      ggsn:
                        reals: [{ address: 127.0.0.2, port: 2123 }]
                        backup: ""
                      "bad name":
                        reals: [{ address: 127.0.0.3, port: 2123 }]
                    """ + GTP_SERVER)).containsExactly(
                    "farms.ggsn.backup: must not be empty",
                    "farms.bad name: name must be 1..64 letters, digits, '-' or '_', starting with a letter or digit");
        }
    }

    // ---- required keys and ranges ---------------------------------------------------------------

    @Nested
    class RequiredKeysAndRanges {

        @Test
        void farmNeedsReals() {
            assertThat(errors("farms:\n  ggsn: { predictor: roundrobin }\n" + GTP_SERVER))
                    .containsExactly("farms.ggsn.reals: required: a farm needs at least one real");
            assertThat(errors("farms:\n  ggsn: { reals: [] }\n" + GTP_SERVER))
                    .containsExactly("farms.ggsn.reals: must list at least one real");
        }

        @Test
        void realNeedsAddressAndPort() {
            assertThat(errors("farms:\n  ggsn: { reals: [{ weight: 3 }] }\n" + GTP_SERVER)).containsExactly(
                    "farms.ggsn.reals[0].address: required",
                    "farms.ggsn.reals[0].port: required");
        }

        @Test
        void virtualServerNeedsListenServiceAndFarm() {
            assertThat(errors(GGSN_FARM + "virtual-servers:\n  gtp-c: { idle: 1m }\n")).containsExactly(
                    "virtual-servers.gtp-c.listen: required",
                    "virtual-servers.gtp-c.service: required",
                    "virtual-servers.gtp-c.farm: required");
        }

        @Test
        void realRanges() {
            assertThat(errors("""
                    farms:
                      ggsn:
                        reals:
                          - { address: 127.0.0.2, port: 0, weight: 0 }
                          - { address: 127.0.0.3, port: 65536, weight: 256, maxconns: 0 }
                          - { address: 127.0.0.4, port: 1, weight: 1, maxconns: 1 }
                          - { address: 127.0.0.5, port: 65535, weight: 255, maxconns: 99999999999 }
                    """ + GTP_SERVER)).containsExactly(
                    "farms.ggsn.reals[0].port: must be 1..65535",
                    "farms.ggsn.reals[0].weight: must be 1..255",
                    "farms.ggsn.reals[1].port: must be 1..65535",
                    "farms.ggsn.reals[1].weight: must be 1..255",
                    "farms.ggsn.reals[1].maxconns: must be at least 1",
                    "farms.ggsn.reals[3].maxconns: must be at most 2147483647");
        }

    @Test
    void rateMaxclientsInbandAndPurgeBindAndAreRangeChecked() {
        SwitchboardConfig config = ALL_SERVICES.parse("""
                farms:
                  ggsn:
                    failure: { inband: false, purge: true }
                    reals:
                      - { address: 127.0.0.2, port: 2123, rate: 100, maxclients: 5000 }
                      - { address: 127.0.0.3, port: 2123 }
                virtual-servers:
                  gtp-c: { listen: "127.0.0.1:2123", service: gtp, farm: ggsn }
                """);
        FarmConfig farm = config.farms().get("ggsn");
        assertThat(farm.failure()).isEqualTo(new FailureDetection(8, 2, Duration.ofSeconds(60), false, true));
        assertThat(farm.reals().get(0).limits()).isEqualTo(new io.switchboard.director.config.RealLimits(
                OptionalInt.of(100), OptionalInt.of(5000)));
        assertThat(farm.reals().get(1).limits()).isEqualTo(io.switchboard.director.config.RealLimits.NONE);
        assertThat(errors("""
                farms:
                  ggsn:
                    failure: { inband: maybe }
                    reals:
                      - { address: 127.0.0.2, port: 2123, rate: 0, maxclients: -1 }
                virtual-servers:
                  gtp-c: { listen: "127.0.0.1:2123", service: gtp, farm: ggsn }
                """)).anySatisfy(e -> assertThat(e).startsWith("farms.ggsn.failure.inband"))
                .anySatisfy(e -> assertThat(e).startsWith("farms.ggsn.reals[0].rate: must be at least 1"))
                .anySatisfy(e -> assertThat(e).startsWith("farms.ggsn.reals[0].maxclients: must be at least 1"));
    }

        @Test
        void failureDetectionRanges() {
            assertThat(errors("""
                    farms:
                      a: { failure: { numconns: 0, numclients: 0, retry: 0s }, reals: [{ address: 10.0.0.1, port: 1 }] }
                      b: { failure: { numconns: 3, numclients: 4 }, reals: [{ address: 10.0.0.1, port: 1 }] }
                      c: { failure: { numclients: 9 }, reals: [{ address: 10.0.0.1, port: 1 }] }
                      d: { failure: { numconns: 3, numclients: 3, retry: PT-1S }, reals: [{ address: 10.0.0.1, port: 1 }] }
                    virtual-servers:
                      v: { listen: 127.0.0.1:1, service: udp, farm: a }
                    """)).containsExactly(
                    "farms.a.failure.numconns: must be at least 1",
                    "farms.a.failure.numclients: must be at least 1",
                    "farms.a.failure.retry: must be greater than zero",
                    "farms.b.failure.numclients: must not exceed numconns (3)",
                    "farms.d.failure.retry: must be greater than zero");
        }

        @Test
        void virtualServerRanges() {
            assertThat(errors(GGSN_FARM + """
                    virtual-servers:
                      a: { listen: 127.0.0.1:65536, service: gtp, farm: ggsn, max-datagram: 0 }
                      b: { listen: 127.0.0.1:1, service: gtp, farm: ggsn, max-datagram: 65508, response-timeout: 0ms }
                      c: { listen: 127.0.0.1:2, service: gtp, farm: ggsn, max-datagram: 65507, idle: 60 }
                    """)).containsExactly(
                    "virtual-servers.a.listen: '127.0.0.1:65536': port must be 0..65535",
                    "virtual-servers.a.max-datagram: must be 1..65507",
                    "virtual-servers.b.response-timeout: must be greater than zero",
                    "virtual-servers.b.max-datagram: must be 1..65507",
                    "virtual-servers.c.idle: must be a duration with a unit, e.g. 30s");
        }

        @Test
        void clusterAndAdminRanges() {
            assertThat(errors("""
                    cluster: { name: "", port: 0, members: [10.0.0.1:70000, node2, "::1", "[::1]:5701"] }
                    admin: { token: "", listen: 127.0.0.1 }
                    """ + GGSN_FARM + GTP_SERVER)).containsExactly(
                    "cluster.name: must not be empty",
                    "cluster.members[0]: '10.0.0.1:70000': port must be 0..65535",
                    "cluster.members[1]: 'node2' is not an IPv4 or IPv6 address (host names are not resolved)",
                    "cluster.port: must be 1..65535",
                    "admin.listen: '127.0.0.1': missing port, e.g. 127.0.0.1:2123",
                    "admin.token: must not be empty");
        }
    }

    // ---- addresses ------------------------------------------------------------------------------

    @Test
    void addressesAreLiteralsOnly() {
        assertThat(errors("""
                farms:
                  ggsn:
                    reals:
                      - { address: ggsn1.example.net, port: 2123 }
                      - { address: 10.1, port: 2123 }
                      - { address: 0.0.0.0, port: 2123 }
                      - { address: 224.0.0.1, port: 2123 }
                      - { address: "[2001:db8::1]", port: 2123 }
                virtual-servers:
                  gtp-c: { listen: "::1:2123", service: gtp, farm: ggsn }
                """)).containsExactly(
                "farms.ggsn.reals[0].address: 'ggsn1.example.net' is not an IPv4 or IPv6 address"
                        + " (host names are not resolved)",
                "farms.ggsn.reals[1].address: '10.1' is not an IPv4 or IPv6 address (host names are not resolved)",
                "farms.ggsn.reals[2].address: '0.0.0.0' is not a unicast address",
                "farms.ggsn.reals[3].address: '224.0.0.1' is not a unicast address",
                "virtual-servers.gtp-c.listen: '::1:2123': write an IPv6 address in brackets, e.g. [::1]:2123");
    }

    @Test
    void duplicateRealsWithinAFarmButNotAcrossFarms() {
        assertThat(errors("""
                farms:
                  ggsn:
                    reals:
                      - { address: "2001:db8::1", port: 2123 }
                      - { address: 127.0.0.2, port: 2123 }
                      - { address: 127.0.0.2, port: 2124 }
                      - { address: "2001:db8:0:0::1", port: 2123 }
                  other:
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                """ + GTP_SERVER))
                .containsExactly("farms.ggsn.reals[3]: duplicate of reals[0] ([2001:db8:0:0:0:0:0:1]:2123)");
    }

    // ---- references -----------------------------------------------------------------------------

    @Nested
    class References {

        @Test
        void farmOfAVirtualServerMustExist() {
            assertThat(errors(GGSN_FARM + """
                    virtual-servers:
                      gtp-c: { listen: 127.0.0.1:2123, service: gtp, farm: ggsn2 }
                    """)).containsExactly("virtual-servers.gtp-c.farm: no farm named 'ggsn2'");
        }

        @Test
        void aBrokenFarmIsStillAFarmToReferTo() {
            assertThat(errors("farms:\n  ggsn: { reals: [] }\n" + GTP_SERVER))
                    .containsExactly("farms.ggsn.reals: must list at least one real");
        }

        @Test
        void backupMustExistAndNotBeTheFarmItself() {
            assertThat(errors("""
                    farms:
                      ggsn: { backup: nowhere, reals: [{ address: 10.0.0.1, port: 1 }] }
                      self: { backup: self, reals: [{ address: 10.0.0.2, port: 1 }] }
                    """ + GTP_SERVER)).containsExactly(
                    "farms.ggsn.backup: no farm named 'nowhere'",
                    "farms.self.backup: must not be the farm itself");
        }

        @Test
        void backupCyclesAreReportedOnceEach() {
            assertThat(errors("""
                    farms:
                      ggsn: { backup: a, reals: [{ address: 10.0.0.1, port: 1 }] }
                      a: { backup: b, reals: [{ address: 10.0.0.1, port: 1 }] }
                      b: { backup: c, reals: [{ address: 10.0.0.1, port: 1 }] }
                      c: { backup: a, reals: [{ address: 10.0.0.1, port: 1 }] }
                      x: { backup: y, reals: [{ address: 10.0.0.1, port: 1 }] }
                      y: { backup: x, reals: [{ address: 10.0.0.1, port: 1 }] }
                    """ + GTP_SERVER)).containsExactly(
                    "farms.a.backup: backup cycle: a -> b -> c -> a",
                    "farms.x.backup: backup cycle: x -> y -> x");
        }

        @Test
        void backupChainWithoutCycleIsFine() {
            SwitchboardConfig config = ALL_SERVICES.parse("""
                    farms:
                      ggsn: { backup: a, reals: [{ address: 10.0.0.1, port: 1 }] }
                      a: { backup: b, reals: [{ address: 10.0.0.2, port: 1 }] }
                      b: { reals: [{ address: 10.0.0.3, port: 1 }] }
                    """ + GTP_SERVER);
            assertThat(config.farms().get("a").backup()).contains("b");
        }
    }

    // ---- services, predictors, sticky keys ------------------------------------------------------

    @Nested
    class Services {

        @Test
        void unknownService() {
            assertThat(errors(GGSN_FARM + """
                    virtual-servers:
                      gtp-c: { listen: 127.0.0.1:2123, service: gtpv2, farm: ggsn }
                    """)).containsExactly("virtual-servers.gtp-c.service: unknown service 'gtpv2'"
                    + " (known: udp, tcp, gtp, gtp-inspect, radius, radius-dae, ipmobile, asn)");
        }

        @Test
        void serviceNotInThisBuild() {
            ConfigLoader udpOnly = new ConfigLoader(Set.of("udp"));
            assertThat(errors(udpOnly, GGSN_FARM + GTP_SERVER)).containsExactly(
                    "virtual-servers.gtp-c.service: service 'gtp' is not available in this build (available: udp)");
            assertThat(udpOnly.parse(GGSN_FARM + """
                    virtual-servers:
                      v: { listen: 127.0.0.1:2123, service: udp, farm: ggsn }
                    """).virtualServers()).containsOnlyKeys("v");
            assertThat(errors(new ConfigLoader(Set.of()), GGSN_FARM + GTP_SERVER)).containsExactly(
                    "virtual-servers.gtp-c.service: service 'gtp' is not available in this build (available: none)");
        }

        @Test
        void predictorMustSuitEveryServiceUsingTheFarm() {
            assertThat(errors("""
                    farms:
                      ggsn: { predictor: leastconns, reals: [{ address: 10.0.0.1, port: 2123 }] }
                    virtual-servers:
                      inspect: { listen: 127.0.0.1:2123, service: gtp-inspect, farm: ggsn }
                      gtp-c: { listen: 127.0.0.1:2124, service: gtp, farm: ggsn }
                      ha: { listen: 127.0.0.1:434, service: ipmobile, farm: ggsn }
                    """)).containsExactly(
                    "farms.ggsn.predictor: 'leastconns' is not allowed for virtual server 'gtp-c'"
                            + " (service gtp allows: roundrobin)",
                    "farms.ggsn.predictor: 'leastconns' is not allowed for virtual server 'ha'"
                            + " (service ipmobile allows: roundrobin)");
        }

        @Test
        void predictorOfABackupFarmCountsToo() {
            assertThat(errors("""
                    farms:
                      ggsn: { backup: spare, reals: [{ address: 10.0.0.1, port: 2123 }] }
                      spare: { predictor: hash, reals: [{ address: 10.0.0.2, port: 2123 }] }
                    """ + GTP_SERVER)).containsExactly(
                    "farms.spare.predictor: 'hash' is not allowed for virtual server 'gtp-c' through the backup"
                            + " chain of farm 'ggsn' (service gtp allows: roundrobin)");
        }

        @Test
        void routeMapNeedsTheRadiusService() {
            ConfigLoader udpOnly = new ConfigLoader(Set.of("udp"));
            assertThat(errors(udpOnly, "farms:\n  spare: { predictor: route-map, reals: [{ address: 10.0.0.1, port: 1 }],"
                    + " route-map: [{ prefix: 10.1.0.0/16, real: 10.0.0.1:1 }] }\n"
                    + "  web: { reals: [{ address: 10.0.0.2, port: 1 }] }\n"
                    + "virtual-servers:\n  w: { listen: 127.0.0.1:0, service: udp, farm: web }\n")).containsExactly(
                    "farms.spare.predictor: 'route-map' needs the radius or radius-dae service, which is not available in this build");
        }

        @Test
        void unknownPredictor() {
            assertThat(errors("farms:\n  ggsn: { predictor: rr, reals: [{ address: 10.0.0.1, port: 1 }] }\n"
                    + GTP_SERVER)).containsExactly(
                    "farms.ggsn.predictor: unknown predictor 'rr' (known: roundrobin, leastconns, hash, route-map)");
        }

        @Test
        void sameListenEndpointAndTransportIsAConflictUnlessPortZero() {
            assertThat(errors(GGSN_FARM + """
                    virtual-servers:
                      a: { listen: 127.0.0.1:1812, service: udp, farm: ggsn }
                      b: { listen: 127.0.0.1:1812, service: radius, farm: ggsn, clients: [{ address: 127.0.0.1, secret: s }] }
                      c: { listen: 127.0.0.1:1812, service: tcp, farm: ggsn }
                      d: { listen: 127.0.0.1:1812, service: tcp, farm: ggsn }
                      e: { listen: 127.0.0.2:1812, service: udp, farm: ggsn }
                      f: { listen: 127.0.0.1:0, service: udp, farm: ggsn }
                      g: { listen: 127.0.0.1:0, service: udp, farm: ggsn }
                      h: { listen: "[::1]:1812", service: udp, farm: ggsn }
                      i: { listen: "[0:0::1]:1812", service: asn, farm: ggsn }
                    """)).containsExactly(
                    "virtual-servers.b.listen: 127.0.0.1:1812/udp is already used by virtual server 'a'",
                    "virtual-servers.d.listen: 127.0.0.1:1812/tcp is already used by virtual server 'c'",
                    "virtual-servers.i.listen: [0:0:0:0:0:0:0:1]:1812/udp is already used by virtual server 'h'");
        }
    }

    /** {@code farms.<name>.route-map}: the route-map predictor's prefixes, each refusal at its path. */
    @Nested
    class RouteMap {

        private static final String AAA = """
                farms:
                  aaa:
                    predictor: route-map
                    reals:
                      - { address: 127.0.0.2, port: 1813 }
                      - { address: 127.0.0.3, port: 1813 }
                """;

        private static final String RADIUS_SERVER = """
                virtual-servers:
                  acct: { listen: 127.0.0.10:1813, service: radius, farm: aaa, clients: [{ subnet: 127.0.0.0/8, secret: s }] }
                """;

        @Test
        void theRouteMapBindsInTheOrderGivenWithoutNeedingSticky() throws Exception {
            SwitchboardConfig config = ALL_SERVICES.parse(AAA + """
                        route-map:
                          - { prefix: 10.1.0.0/16, real: 127.0.0.2:1813 }
                          - { prefix: 10.1.2.0/24, real: 127.0.0.3:1813 }
                          - { prefix: 0.0.0.0/0, real: 127.0.0.3:1813 }
                          - { prefix: "2001:db8:8::/48", real: 127.0.0.3:1813 }
                    """ + RADIUS_SERVER);
            FarmConfig aaa = config.farms().get("aaa");
            assertThat(aaa.predictor()).isEqualTo(PredictorKind.ROUTE_MAP);
            assertThat(aaa.routeMap()).containsExactly(
                    entry(new io.switchboard.director.config.Subnet(ip("10.1.0.0"), 16), new Endpoint(ip("127.0.0.2"), 1813)),
                    entry(new io.switchboard.director.config.Subnet(ip("10.1.2.0"), 24), new Endpoint(ip("127.0.0.3"), 1813)),
                    entry(new io.switchboard.director.config.Subnet(ip("0.0.0.0"), 0), new Endpoint(ip("127.0.0.3"), 1813)),
                    // IPv6: matched against the Framed-IPv6-Prefix.
                    entry(new io.switchboard.director.config.Subnet(ip("2001:db8:8::"), 48),
                            new Endpoint(ip("127.0.0.3"), 1813)));
        }

        @Test
        void everyBadEntryIsReportedAtItsPath() {
            assertThat(errors(AAA + """
                        route-map:
                          - { prefix: "2001:db8::1/32", real: 127.0.0.2:1813 }
                          - { prefix: 10.1.2.3/16, real: 127.0.0.2:1813 }
                          - { prefix: 10.1.0.0/33, real: 127.0.0.2:1813 }
                          - { prefix: 10.1.0.0, real: 127.0.0.2:1813 }
                          - { prefix: 10.2.0.0/16, real: 127.0.0.9:1813 }
                          - { prefix: 10.3.0.0/16, real: nowhere }
                          - { prefix: 10.4.0.0/16 }
                          - { real: 127.0.0.2:1813 }
                          - { prefix: 10.5.0.0/16, real: 127.0.0.2:1813, weight: 2 }
                          - { prefix: 10.5.0.0/16, real: 127.0.0.3:1813 }
                          - 10.6.0.0/16
                    """ + RADIUS_SERVER)).containsExactly(
                    "farms.aaa.route-map[0].prefix: '2001:db8::1/32' has bits set below the prefix (the network is"
                            + " 2001:db8:0:0:0:0:0:0/32)",
                    "farms.aaa.route-map[1].prefix: '10.1.2.3/16' has bits set below the prefix (the network is"
                            + " 10.1.0.0/16)",
                    "farms.aaa.route-map[2].prefix: '10.1.0.0/33': prefix longer than the address",
                    "farms.aaa.route-map[3].prefix: '10.1.0.0' must be ADDRESS/PREFIX, e.g. 10.0.0.0/8",
                    "farms.aaa.route-map[4].real: '127.0.0.9:1813' is not a real of this farm (reals: 127.0.0.2:1813,"
                            + " 127.0.0.3:1813)",
                    "farms.aaa.route-map[5].real: 'nowhere': missing port, e.g. 127.0.0.1:2123",
                    "farms.aaa.route-map[6].real: required: ADDRESS:PORT of a real of this farm",
                    "farms.aaa.route-map[7].prefix: required",
                    "farms.aaa.route-map[8].weight: unknown key (known: prefix, real)",
                    "farms.aaa.route-map[9].prefix: duplicate of route-map[8] (10.5.0.0/16)",
                    "farms.aaa.route-map[10]: must be a mapping, not a string");
        }

        @Test
        void theRouteMapAndItsPredictorComeTogether() {
            assertThat(errors("""
                    farms:
                      aaa:
                        predictor: route-map
                        reals: [{ address: 127.0.0.2, port: 1813 }]
                      bbb:
                        reals: [{ address: 127.0.0.2, port: 1813 }]
                        route-map: [{ prefix: 10.1.0.0/16, real: 127.0.0.2:1813 }]
                      ccc:
                        predictor: hash
                        reals: [{ address: 127.0.0.2, port: 1813 }]
                        route-map: [{ prefix: 10.1.0.0/16, real: 127.0.0.2:1813 }]
                      ddd:
                        predictor: route-map
                        reals: [{ address: 127.0.0.2, port: 1813 }]
                        route-map: []
                    """ + RADIUS_SERVER)).containsExactly(
                    "farms.aaa.route-map: required with predictor: route-map (a list of { prefix, real })",
                    "farms.bbb.route-map: only with predictor: route-map (this farm's predictor is roundrobin)",
                    "farms.ccc.route-map: only with predictor: route-map (this farm's predictor is hash)",
                    "farms.ddd.route-map: must list at least one { prefix, real }");
        }

        @Test
        void aRouteMapFarmServesRadiusOnly() {
            assertThat(errors(AAA + """
                        route-map: [{ prefix: 10.1.0.0/16, real: 127.0.0.2:1813 }]
                    virtual-servers:
                      l4: { listen: 127.0.0.1:0, service: udp, farm: aaa }
                    """)).containsExactly("farms.aaa.predictor: 'route-map' is not allowed for virtual server 'l4'"
                    + " (service udp allows: roundrobin, leastconns, hash)");
        }
    }

    @Nested
    class Sticky {

        private List<String> stickyErrors(String service, String sticky) {
            return errors(GGSN_FARM + "virtual-servers:\n  v: { listen: 127.0.0.1:1, service: " + service
                    + ", farm: ggsn, sticky: " + sticky + clients(service) + " }\n");
        }

        private Optional<StickyConfig> sticky(String service, String sticky) {
            return ALL_SERVICES.parse(GGSN_FARM + "virtual-servers:\n  v: { listen: 127.0.0.1:1, service: "
                    + service + ", farm: ggsn, sticky: " + sticky + clients(service) + " }\n").virtualServers()
                    .get("v").sticky();
        }

        /** RADIUS virtual servers must name their clients. */
        private String clients(String service) {
            return service.equals("radius") ? ", clients: [{ subnet: 127.0.0.0/8, secret: s }]" : "";
        }

        @Test
        void clientAddressIsTheDefaultKeyForUdpAndTcp() {
            StickyConfig expected = new StickyConfig(List.of(StickyKind.CLIENT_ADDRESS), Duration.ofMinutes(5),
                    OptionalInt.empty(), StickyConfig.DEFAULT_MAX_ENTRIES);
            assertThat(sticky("udp", "{ idle: 5m }")).contains(expected);
            assertThat(sticky("tcp", "{ idle: 5m }")).contains(expected);
        }

        @Test
        void otherServicesMustNameTheirKey() {
            assertThat(stickyErrors("radius", "{ idle: 5m }")).containsExactly("virtual-servers.v.sticky.key:"
                    + " required for service 'radius' (allowed: framed-ip, framed-ipv6-prefix, delegated-ipv6-prefix,"
                    + " calling-station-id, username)");
            assertThat(stickyErrors("gtp", "{ idle: 5m }"))
                    .containsExactly("virtual-servers.v.sticky.key: required for service 'gtp' (allowed: imsi)");
        }

        @Test
        void keyMustBeAllowedByTheService() {
            assertThat(stickyErrors("udp", "{ key: imsi, idle: 5m }")).containsExactly(
                    "virtual-servers.v.sticky.key: sticky key 'imsi' is not allowed for service 'udp'"
                            + " (allowed: client-address)");
            assertThat(stickyErrors("radius", "{ keys: [username, msid], idle: 5m }")).containsExactly(
                    "virtual-servers.v.sticky.keys[1]: sticky key 'msid' is not allowed for service 'radius'"
                            + " (allowed: framed-ip, framed-ipv6-prefix, delegated-ipv6-prefix, calling-station-id,"
                            + " username)");
            assertThat(stickyErrors("ipmobile", "{ idle: 5m }"))
                    .containsExactly("virtual-servers.v.sticky: service 'ipmobile' does not support sticky");
            assertThat(sticky("asn", "{ key: msid, idle: 5m }").orElseThrow().keys()).containsExactly(AsnModule.MSID);
        }

        @Test
        void keyOrKeysButNotBoth() {
            assertThat(stickyErrors("radius", "{ key: username, keys: [username], idle: 5m }"))
                    .containsExactly("virtual-servers.v.sticky: give either key or keys, not both");
            assertThat(stickyErrors("radius", "{ keys: [], idle: 5m }"))
                    .containsExactly("virtual-servers.v.sticky.keys: must list at least one key");
            assertThat(stickyErrors("radius", "{ keys: [username, username], idle: 5m }"))
                    .containsExactly("virtual-servers.v.sticky.keys[1]: duplicate key 'username'");
        }

        @Test
        void unknownKeyName() {
            assertThat(stickyErrors("gtp", "{ key: imis, idle: 5m }")).containsExactly(
                    "virtual-servers.v.sticky.key: unknown sticky key 'imis' (known: client-address, imsi,"
                            + " framed-ip, framed-ipv6-prefix, delegated-ipv6-prefix, calling-station-id, username, msid)");
        }

        @Test
        void idleIsRequiredAndPositive() {
            assertThat(stickyErrors("gtp", "{ key: imsi }")).containsExactly("virtual-servers.v.sticky.idle: required");
            assertThat(stickyErrors("gtp", "{ key: imsi, idle: 0s }"))
                    .containsExactly("virtual-servers.v.sticky.idle: must be greater than zero");
        }

        @Test
        void netmaskOnlyWithClientAddressAndContiguous() {
            assertThat(sticky("udp", "{ idle: 1m, netmask: 255.255.0.0, max-entries: 10 }")).contains(new StickyConfig(
                    List.of(StickyKind.CLIENT_ADDRESS), Duration.ofMinutes(1), OptionalInt.of(16), 10));
            assertThat(stickyErrors("gtp", "{ key: imsi, idle: 1m, netmask: 255.255.255.0 }"))
                    .containsExactly("virtual-servers.v.sticky.netmask: applies only to the client-address key");
            assertThat(stickyErrors("udp", "{ idle: 1m, netmask: 255.0.255.0 }"))
                    .containsExactly("virtual-servers.v.sticky.netmask: '255.0.255.0' is not a contiguous netmask");
            assertThat(stickyErrors("udp", "{ idle: 1m, max-entries: 0 }"))
                    .containsExactly("virtual-servers.v.sticky.max-entries: must be at least 1");
        }
    }
}
