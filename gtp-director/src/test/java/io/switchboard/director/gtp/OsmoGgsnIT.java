package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.RealServer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code service: gtp} against real peers: two osmo-ggsn instances (127.0.0.2 with weight 2,
 * 127.0.0.3 with weight 1) as the farm, and sgsnemu (127.0.0.20, then 127.0.0.21) creating PDP contexts for several
 * IMSIs through the virtual address 127.0.0.10:2123. What happened is read from the GGSNs' own logs,
 * not the director's counters: creates are spread 2:1, each IMSI is created on one GGSN only (also
 * when sgsnemu creates it again later), and the Delete — which sgsnemu sends to the GGSN address of
 * the Create response, not through the director — reaches the GGSN that holds the context. Then a
 * {@code gtp-inspect} virtual server (127.0.0.11) in front of the same GGSNs: the Create responses
 * name the virtual address, so sgsnemu's Deletes pass the director, which sends each to the GGSN that
 * holds the context; sgsnemu's log (Delete answered with cause 128) and the GGSNs' logs (context
 * deleted) agree.
 *
 * <p>Needs root, {@code /dev/net/tun} and the Debian package {@code osmo-ggsn} (which {@code .ci/run}
 * installs); skipped with a message when they are missing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OsmoGgsnIT {

    private static final String VIP = "127.0.0.10";
    /** A gtp-inspect virtual server in front of the same GGSNs. */
    private static final String INSPECT_VIP = "127.0.0.11";
    /**
     * One address per sgsnemu run: a restarted sgsnemu numbers its messages from the same start, and
     * osmo-ggsn answers a Delete whose (peer, sequence) it saw from the previous run with its cached
     * answer ("Rx duplicate seq") instead of deleting.
     */
    private static final String[] SGSNS = {"127.0.0.20", "127.0.0.21", "127.0.0.22"};
    private static final String[] GGSNS = {"127.0.0.2", "127.0.0.3"};
    private static final int[] WEIGHTS = {2, 1};
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** osmo-ggsn: "PDP(262420000000001:0): Successful PDP Context Creation: ..." (ggsn.c) */
    private static final Pattern CREATED = Pattern.compile("PDP\\((\\d+):\\d+\\): Successful PDP Context Creation");
    /** osmo-ggsn: "PDP(262420000000001:0): Deleting PDP context" (ggsn.c) */
    private static final Pattern DELETED = Pattern.compile("PDP\\((\\d+):\\d+\\): Deleting PDP context");

    @TempDir
    static Path dir;

    private static final List<Process> ggsns = new ArrayList<>();
    private static final Path[] logs = new Path[GGSNS.length];
    private static Vertx vertx;
    private static Director director;
    private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/osmo-ggsn"))
                && Files.isExecutable(Path.of("/usr/bin/sgsnemu")), "osmo-ggsn is not installed (apt-get install osmo-ggsn)");
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/net/tun")), "/dev/net/tun is missing (mknod /dev/net/tun c 10 200)");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "osmo-ggsn needs root for its tun device");

        String suffix = Long.toHexString(ProcessHandle.current().pid() & 0xffff);
        for (int i = 0; i < GGSNS.length; i++) {
            Path home = Files.createDirectories(dir.resolve("ggsn" + i));
            Path config = home.resolve("osmo-ggsn.cfg");
            Files.writeString(config, ggsnConfig(i, GGSNS[i], home, "sbg" + i + suffix));
            logs[i] = home.resolve("log");
            ggsns.add(new ProcessBuilder("/usr/bin/osmo-ggsn", "-c", config.toString())
                    .redirectErrorStream(true).redirectOutput(logs[i].toFile()).start());
        }
        for (int i = 0; i < GGSNS.length; i++) {
            int n = i;
            await().atMost(WAIT).until(() -> log(n).contains("Successfully started")
                    || !ggsns.get(n).isAlive());
            assertThat(ggsns.get(n).isAlive()).as("osmo-ggsn %s running; log:%n%s", GGSNS[n], log(n)).isTrue();
        }

        List<RealConfig> reals = new ArrayList<>();
        for (int i = 0; i < GGSNS.length; i++) {
            reals.add(new RealConfig(InetAddress.getByName(GGSNS[i]), 2123, WEIGHTS[i], OptionalInt.empty(), true));
        }
        FarmConfig farm = new FarmConfig("ggsn", PredictorKind.ROUNDROBIN,
                new FailureDetection(8, 2, Duration.ofMinutes(1)), reals, Optional.empty());
        VirtualServerConfig vs = new VirtualServerConfig("gtp-c", new Endpoint(InetAddress.getByName(VIP), 2123),
                "gtp", "ggsn",
                Optional.of(new StickyConfig(List.of(GtpModule.IMSI), Duration.ofHours(1), OptionalInt.empty(), 10_000)),
                Duration.ofSeconds(3), Duration.ofMinutes(1), 4096, true,
                new GtpOptions(Set.of(1, 2), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1,
                        GtpOptions.DEFAULT_RESOURCE_CAUSES_V2, List.of(), GtpOptions.DEFAULT.v0TidOrder(), 7));
        VirtualServerConfig inspect = new VirtualServerConfig("gtp-inspect", new Endpoint(InetAddress.getByName(INSPECT_VIP),
                2123), "gtp-inspect", "ggsn",
                Optional.of(new StickyConfig(List.of(GtpModule.IMSI), Duration.ofHours(1), OptionalInt.empty(), 10_000)),
                Duration.ofSeconds(3), Duration.ofMinutes(1), 4096, true, GtpOptions.DEFAULT);
        Map<String, VirtualServerConfig> servers = new java.util.LinkedHashMap<>();
        servers.put("gtp-c", vs);
        servers.put("gtp-inspect", inspect);
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of("ggsn", farm), servers), v -> v.service() == "gtp" ? new GtpService()
                        : new GtpInspectService(), registry, Ticker.SYSTEM);
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static String ggsnConfig(int index, String address, Path home, String tun) {
        return String.join("\n",
                "log stderr",
                " logging filter all 1",
                " logging color 0",
                " logging print category 0",
                " logging timestamp 0",
                " logging level ggsn info",
                " logging level lgtp info",
                "line vty",
                " no login",
                " bind " + address,
                "ctrl",
                " bind " + address,
                "ggsn ggsn" + index,
                " gtp state-dir " + home,
                " gtp bind-ip " + address,
                " apn internet",
                "  gtpu-mode tun",
                "  tun-device " + tun,
                "  type-support v4",
                "  ip prefix dynamic 10.4" + index + ".0.0/16",
                "  ip dns 0 192.0.2.1",
                "  no shutdown",
                " default-apn internet",
                " no shutdown ggsn",
                "");
    }

    @AfterAll
    static void stop() throws Exception {
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        for (Process p : ggsns) {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private static String log(int ggsn) throws IOException {
        return Files.exists(logs[ggsn]) ? Files.readString(logs[ggsn]) : "";
    }

    /** IMSI → how many times the GGSN's log says it happened. */
    private static Map<String, Integer> events(int ggsn, Pattern pattern) throws IOException {
        Map<String, Integer> seen = new TreeMap<>();
        Matcher m = pattern.matcher(log(ggsn));
        while (m.find()) {
            seen.merge(m.group(1), 1, Integer::sum);
        }
        return seen;
    }

    private static int total(Pattern pattern) throws IOException {
        int n = 0;
        for (int i = 0; i < GGSNS.length; i++) {
            n += events(i, pattern).values().stream().mapToInt(Integer::intValue).sum();
        }
        return n;
    }

    /**
     * Runs sgsnemu for {@code contexts} IMSIs (first, first + 10, ...) against the virtual address until
     * the GGSNs have logged the expected creates and deletes, then kills it by pid (it ignores SIGTERM
     * and idles after its deletes).
     */
    private static Path sgsnemu(String name, String sgsn, String firstImsi, int contexts, int createsBefore,
            int deletesBefore) throws Exception {
        return sgsnemu(name, sgsn, VIP, firstImsi, contexts, createsBefore, deletesBefore);
    }

    private static Path sgsnemu(String name, String sgsn, String vip, String firstImsi, int contexts, int createsBefore, int deletesBefore)
            throws Exception {
        Path home = Files.createDirectories(dir.resolve(name));
        Process p = new ProcessBuilder("timeout", "-s", "KILL", "90",
                // Line-buffered: sgsnemu is killed at the end, and its report must be in the log by then.
                "stdbuf", "-oL", "/usr/bin/sgsnemu", "-l", sgsn, "-r", vip,
                "--imsi", firstImsi, "--contexts", Integer.toString(contexts), "--apn", "internet",
                "--timelimit", "3", "--statedir", home.toString(), "--pidfile", home.resolve("pid").toString())
                .redirectErrorStream(true).redirectOutput(home.resolve("log").toFile()).start();
        try {
            await().atMost(WAIT).until(() -> total(CREATED) >= createsBefore + contexts);
            await().atMost(WAIT).until(() -> total(DELETED) >= deletesBefore + contexts);
            // The GGSN logs a delete before its answer reaches sgsnemu: sgsnemu is killed only once it
            // has written every answer to its log (on a loaded machine it lagged the GGSNs' logs).
            Path log = home.resolve("log");
            await().atMost(WAIT).until(() -> Pattern.compile("Received delete PDP context response")
                    .matcher(Files.readString(log)).results().count() >= contexts);
        } catch (RuntimeException e) {
            throw new AssertionError("sgsnemu " + name + " did not finish; its log:\n"
                    + Files.readString(home.resolve("log")) + "\nGGSN logs:\n" + log(0) + "\n" + log(1)
                    + "\ndirector: " + registry.getMeters().stream()
                            .filter(m -> m.getId().getName().startsWith("switchboard.dropped")
                                    || m.getId().getName().startsWith("switchboard.requests")
                                    || m.getId().getName().startsWith("switchboard.responses"))
                            .map(m -> m.getId().getName() + m.getId().getTags() + "=" + m.measure().iterator().next().getValue())
                            .toList(), e);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        return home.resolve("log");
    }

    @Test
    @Order(1)
    void createsAreSpreadByWeightEachImsiStaysOnOneGgsnAndDeletesReachIt() throws Exception {
        int contexts = 6; // IMSIs 262420000000001, ...011, ..., ...051
        sgsnemu("sgsn-run1", SGSNS[0], "262420000000001", contexts, 0, 0);

        List<Map<String, Integer>> created = List.of(events(0, CREATED), events(1, CREATED));
        assertThat(created.get(0).size() + created.get(1).size())
                .as("creates logged by the GGSNs: %s", created).isEqualTo(contexts);
        // Weighted round robin 2:1 over 6 new IMSIs.
        assertThat(created.get(0)).as("GGSN %s", GGSNS[0]).hasSize(4);
        assertThat(created.get(1)).as("GGSN %s", GGSNS[1]).hasSize(2);
        assertThat(created.get(0).keySet()).doesNotContainAnyElementsOf(created.get(1).keySet());
        // Each Delete went straight to the GGSN named in the Create response: the one holding the context.
        for (int i = 0; i < GGSNS.length; i++) {
            assertThat(events(i, DELETED).keySet()).as("deletes at %s", GGSNS[i]).isEqualTo(created.get(i).keySet());
        }

        // The same subscribers again, with three new ones: known IMSIs stay where they were.
        sgsnemu("sgsn-run2", SGSNS[1], "262420000000001", contexts + 3, contexts, contexts);
        List<Map<String, Integer>> again = List.of(events(0, CREATED), events(1, CREATED));
        for (String imsi : created.get(0).keySet()) {
            assertThat(again.get(0)).as("IMSI %s recreated on %s", imsi, GGSNS[0]).containsEntry(imsi, 2);
            assertThat(again.get(1)).doesNotContainKey(imsi);
        }
        for (String imsi : created.get(1).keySet()) {
            assertThat(again.get(1)).as("IMSI %s recreated on %s", imsi, GGSNS[1]).containsEntry(imsi, 2);
            assertThat(again.get(0)).doesNotContainKey(imsi);
        }
        assertThat(again.get(0).size() + again.get(1).size()).isEqualTo(contexts + 3);
        for (int i = 0; i < GGSNS.length; i++) {
            assertThat(events(i, DELETED)).as("deletes at %s", GGSNS[i]).isEqualTo(again.get(i));
        }

        VirtualServerMetrics metrics = director.virtualServers().get("gtp-c").metrics();
        assertThat(metrics.forwardedCount()).isEqualTo(2 * contexts + 3);
        assertThat(metrics.relayedCount()).isEqualTo(2 * contexts + 3);
        // sgsnemu's Echo Request to the virtual address, answered by the director (one per run).
        assertThat(metrics.answeredLocallyCount()).isEqualTo(2);
        List<RealServer> reals = director.farms().farm("ggsn").reals();
        assertThat(reals.get(0).answered()).isEqualTo(again.get(0).values().stream().mapToInt(Integer::intValue).sum());
        assertThat(reals.get(1).answered()).isEqualTo(again.get(1).values().stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    @Order(2)
    void inInspectModeDeletesPassTheDirectorAndBothSidesAgreeTheContextsAreGone() throws Exception {
        int createsBefore = total(CREATED);
        int deletesBefore = total(DELETED);
        List<Map<String, Integer>> createdBefore = List.of(events(0, CREATED), events(1, CREATED));
        int contexts = 4; // IMSIs 262420000000502, ...512, ...522, ...532: new to both GGSNs
        Path sgsnLog = sgsnemu("sgsn-inspect", SGSNS[2], INSPECT_VIP, "262420000000502", contexts, createsBefore,
                deletesBefore);

        // osmo-ggsn's view: each IMSI created and deleted on the same GGSN.
        int created = 0;
        for (int i = 0; i < GGSNS.length; i++) {
            Map<String, Integer> now = events(i, CREATED);
            for (var e : now.entrySet()) {
                if (e.getKey().startsWith("2624200000005") && e.getValue() > createdBefore.get(i).getOrDefault(e.getKey(), 0)) {
                    created++;
                    assertThat(events(i, DELETED)).as("delete of %s at %s", e.getKey(), GGSNS[i]).containsKey(e.getKey());
                    assertThat(events(1 - i, CREATED)).doesNotContainKey(e.getKey());
                }
            }
        }
        assertThat(created).isEqualTo(contexts);
        // The Create requests named the director, not sgsnemu, as the SGSN: the GGSNs that took contexts
        // discovered the virtual address as their SGSN peer (sgsn.c: "SGSN(addr): Discovered").
        for (int i = 0; i < GGSNS.length; i++) {
            String log = log(i);
            assertThat(log).as("%s never learnt sgsnemu's own address from the inspect run", GGSNS[i])
                    .doesNotContain("SGSN(" + SGSNS[2] + ")");
            if (events(i, CREATED).keySet().stream().anyMatch(imsi -> imsi.startsWith("2624200000005"))) {
                assertThat(log).as("log of %s", GGSNS[i]).contains("SGSN(" + INSPECT_VIP + "): Discovered");
            }
        }
        // sgsnemu's view: every context created, and every Delete answered with cause 128 (through the VIP).
        String sgsn = Files.readString(sgsnLog);
        assertThat(Pattern.compile("Received create PDP context response").matcher(sgsn).results().count())
                .as("sgsnemu's log:%n%s", sgsn).isEqualTo(contexts);
        assertThat(Pattern.compile("Received delete PDP context response. Cause value: 128").matcher(sgsn).results()
                .count()).isEqualTo(contexts);
        // The director's view: the Deletes came through it (creates + deletes), and no session is left.
        VirtualServerMetrics metrics = director.virtualServers().get("gtp-inspect").metrics();
        assertThat(metrics.forwardedCount()).isEqualTo(2 * contexts);
        assertThat(metrics.relayedCount()).isEqualTo(2 * contexts);
        GtpInspectPlugin plugin = (GtpInspectPlugin) director.virtualServers().get("gtp-inspect").plugin();
        await().atMost(WAIT).until(() -> plugin.sessionTable().isEmpty());
    }
}
