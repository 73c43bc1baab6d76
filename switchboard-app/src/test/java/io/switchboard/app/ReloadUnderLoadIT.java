package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.pcap.Replay;
import io.switchboard.pcap.SignalingProtocol;
import io.switchboard.pcap.Template;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19's "done means" for reload: a node process under constant GTP (gtp-inspect, IMSI
 * stickiness) and RADIUS (Calling-Station-Id stickiness) load in closed loop ({@link LoadUnderChange},
 * SIMULATED PGWs and AAA servers) takes, through {@code POST /api/v1/config}, in turn: an invalid
 * configuration (refused with every error, nothing changed); weights changed, a real added to each
 * farm and a drain deadline given to the reals about to go; a farm and a virtual server added (which
 * serves at once); the two reals removed (drained, then reassigned at their deadline). The clients
 * lose no request; every subscriber not bound to a removed real keeps its binding and its real
 * throughout; a subscriber of a removed real is served by it until its deadline and by its new real
 * after, by no third one.
 */
class ReloadUnderLoadIT {

    private static final Duration DRAIN_DEADLINE = Duration.ofSeconds(3);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void reloadsUnderLoadLoseNoRequestAndMoveOnlyTheRemovedRealsSubscribers() throws Exception {
        try (LoadUnderChange cluster = new LoadUnderChange(dir).start(1)) {
            LoadUnderChange.NodeProcess node = cluster.nodes().get(0);
            String running = Files.readString(node.config);
            SimulatedSignalingBackend pgw2 = cluster.backends(LoadUnderChange.GTP).get(1);
            SimulatedSignalingBackend aaa2 = cluster.backends(LoadUnderChange.RADIUS).get(1);
            LoadUnderChange.Load load = cluster.startLoad();
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    cluster.servedKeys(LoadUnderChange.GTP).size() == LoadUnderChange.IMSIS
                            && cluster.servedKeys(LoadUnderChange.RADIUS).size() == LoadUnderChange.STATIONS);
            List<String> imsis = cluster.servedKeys(LoadUnderChange.GTP);
            List<String> stations = cluster.servedKeys(LoadUnderChange.RADIUS);
            Map<String, String> gtpBefore = cluster.bindings(node, LoadUnderChange.GTP, imsis);
            Map<String, String> radiusBefore = cluster.bindings(node, LoadUnderChange.RADIUS, stations);
            assertThat(gtpBefore).hasSize(LoadUnderChange.IMSIS);
            assertThat(radiusBefore).hasSize(LoadUnderChange.STATIONS);
            cluster.resetCounts();
            String digest = node.get("/api/v1/config").getString("digest");

            // 1. Invalid: every error listed by path, nothing changed.
            String invalid = running.replace("weight: 1 }", "weight: 999 }").replace("farm: aaa", "farm: nowhere");
            HttpResponse<String> refused = node.reload(invalid);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
            JsonArray errors = new JsonObject(refused.body()).getJsonArray("errors");
            Set<String> paths = new HashSet<>();
            errors.forEach(e -> paths.add(((JsonObject) e).getString("path")));
            assertThat(paths).contains("farms.pgw.reals[0].weight", "farms.pgw.reals[1].weight",
                    "virtual-servers.radius.farm");
            assertThat(node.get("/api/v1/config").getString("digest")).as("nothing changed").isEqualTo(digest);

            // 2. Weights, a real added to each farm, the reals about to go told how (on-remove counts
            //    as the running configuration says it when the real is removed).
            SimulatedSignalingBackend pgw3 = cluster.addBackend(LoadUnderChange.GTP, "127.0.2.5");
            SimulatedSignalingBackend aaa3 = cluster.addBackend(LoadUnderChange.RADIUS, "127.0.2.6");
            String drain = ", on-remove: drain, drain-deadline: " + DRAIN_DEADLINE.toSeconds() + "s }";
            String second = running
                    .replace(real(cluster, 0, LoadUnderChange.GTP) + ", weight: 1 }",
                            real(cluster, 0, LoadUnderChange.GTP) + ", weight: 3 }")
                    .replace(real(cluster, 1, LoadUnderChange.GTP) + ", weight: 1 }",
                            real(cluster, 1, LoadUnderChange.GTP) + ", weight: 1" + drain
                                    + "\n      - { address: 127.0.2.5, port: " + pgw3.port() + ", weight: 1 }")
                    .replace(real(cluster, 1, LoadUnderChange.RADIUS) + ", weight: 1, secret: "
                                    + LoadUnderChange.SECRET + " }",
                            real(cluster, 1, LoadUnderChange.RADIUS) + ", weight: 1, secret: "
                                    + LoadUnderChange.SECRET + drain + "\n      - { address: 127.0.2.6, port: "
                                    + aaa3.port() + ", weight: 1, secret: " + LoadUnderChange.SECRET + " }");
            assertApplied(node.reload(second), "farms.pgw.reals[127.0.2.5:" + pgw3.port() + "]",
                    "farms.aaa.reals[127.0.2.6:" + aaa3.port() + "]");

            // 3. A farm and a virtual server added: it serves at once. Its PGW is not one the load's
            //    subscribers are counted at.
            try (SimulatedSignalingBackend spare = new SimulatedSignalingBackend(SimulatedSignalingBackend.Kind.PGW,
                    new InetSocketAddress("127.0.2.7", 0), LoadUnderChange.SECRET)) {
                int newPort;
                try (java.net.DatagramSocket free = new java.net.DatagramSocket(new InetSocketAddress("127.0.1.1", 0))) {
                    newPort = free.getLocalPort();
                }
                String third = second.replace("farms:\n", "farms:\n  spare:\n    reals:\n      - { address: 127.0.2.7, port: "
                        + spare.port() + " }\n") + """
                          gtp-new:
                            listen: 127.0.1.1:%d
                            service: gtp-inspect
                            farm: spare
                            sticky: { key: imsi, idle: 1h }
                            gtp: { versions: [2] }
                        """.formatted(newPort);
                assertApplied(node.reload(third), "farms.spare", "virtual-servers.gtp-new");
                Replay probe = new Replay(List.of(new InetSocketAddress("127.0.1.1", newPort)), 0,
                        Replay.Pacing.fixedRate(20), Duration.ofSeconds(2), null, new Replay.Lanes(1, 4));
                Replay.Report served = probe.run(SignalingProtocol.GTPV2, 10, new Template(
                        Replay.read(Path.of("..", "benchmarks", "gtp", "create-session.pcap"), 0),
                        List.of(Template.Variation.parse("imsi:5")), null));
                assertThat(served.answered()).as("the added virtual server: %s", served.toMap()).isEqualTo(10);

                // 4. The two reals removed: drained, reassigned at their deadline, gone from their farms.
                String fourth = dropLine(dropLine(third, real(cluster, 1, LoadUnderChange.GTP)),
                        real(cluster, 1, LoadUnderChange.RADIUS));
                assertApplied(node.reload(fourth));
                await().atMost(DRAIN_DEADLINE.plusSeconds(20)).until(() -> node.metrics("switchboard_real_removals_total")
                        .contains("switchboard_real_removals_total{how=\"deadline\"} 2.0"));
                // Every subscriber of the removed reals sends again, to its new real.
                await().atMost(Duration.ofSeconds(30)).until(() -> moved(cluster, node, LoadUnderChange.GTP, gtpBefore, pgw2.real())
                        && moved(cluster, node, LoadUnderChange.RADIUS, radiusBefore, aaa2.real()));
            }
            Map<String, Replay.Report> seen = load.stop();

            for (Map.Entry<String, Replay.Report> e : seen.entrySet()) {
                Replay.Report r = e.getValue();
                assertThat(r.lost()).as("%s requests lost: %s", e.getKey(), r.toMap()).isZero();
                assertThat(r.answered() + r.late()).as(e.getKey()).isEqualTo(r.sent());
            }
            Map<String, String> gtpAfter = cluster.bindings(node, LoadUnderChange.GTP, imsis);
            Map<String, String> radiusAfter = cluster.bindings(node, LoadUnderChange.RADIUS, stations);
            assertFollowed(cluster, LoadUnderChange.GTP, gtpBefore, gtpAfter, pgw2.real());
            assertFollowed(cluster, LoadUnderChange.RADIUS, radiusBefore, radiusAfter, aaa2.real());
            assertThat(gtpAfter).as("a moved subscriber may land on the added real").containsValue(pgw3.real());
        }
    }

    /** {@code address: 127.0.2.N, port: P} of the {@code index}th backend of {@code vserver}'s farm. */
    private static String real(LoadUnderChange cluster, int index, String vserver) {
        SimulatedSignalingBackend b = cluster.backends(vserver).get(index);
        return "address: " + b.real().replace(":", ", port: ");
    }

    private static String dropLine(String yaml, String containing) {
        List<String> kept = new ArrayList<>();
        yaml.lines().filter(l -> !l.contains(containing + ",")).forEach(kept::add);
        return String.join("\n", kept) + "\n";
    }

    private static void assertApplied(HttpResponse<String> answer, String... added) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonObject diff = new JsonObject(answer.body());
        assertThat(diff.getString("result")).isEqualTo("applied");
        List<String> paths = new ArrayList<>();
        diff.getJsonArray("added").forEach(c -> paths.add(((JsonObject) c).getString("path")));
        assertThat(paths).contains(added);
    }

    /** Whether every subscriber bound to {@code removed} before has another binding now. */
    private static boolean moved(LoadUnderChange cluster, LoadUnderChange.NodeProcess node, String vserver,
            Map<String, String> before, String removed) {
        List<String> keys = before.entrySet().stream().filter(e -> e.getValue().equals(removed)).map(Map.Entry::getKey)
                .toList();
        Map<String, String> now = cluster.bindings(node, vserver, keys);
        return now.size() == keys.size() && !now.containsValue(removed);
    }

    /**
     * A subscriber not bound to {@code removed} kept its binding and was served by its real alone; one
     * bound to it was served by it and by its new real, no third.
     */
    private static void assertFollowed(LoadUnderChange cluster, String vserver, Map<String, String> before,
            Map<String, String> after, String removed) {
        Map<String, Set<String>> servedBy = new TreeMap<>();
        for (SimulatedSignalingBackend b : cluster.backends(vserver)) {
            b.requestsByKey().keySet().forEach(key -> servedBy.computeIfAbsent(key, k -> new HashSet<>()).add(b.real()));
        }
        Map<String, String> wrong = new TreeMap<>();
        before.forEach((key, real) -> {
            Set<String> allowed = real.equals(removed) ? Set.of(real, String.valueOf(after.get(key))) : Set.of(real);
            if (!real.equals(removed) && !real.equals(after.get(key))) {
                wrong.put(key, "binding " + real + " -> " + after.get(key));
            } else if (!allowed.containsAll(servedBy.getOrDefault(key, Set.of()))) {
                wrong.put(key, "bound " + real + " then " + after.get(key) + ", served by " + servedBy.get(key));
            }
        });
        assertThat(wrong).as("%s subscribers at a real their bindings did not name", vserver).isEmpty();
        assertThat(after).as(vserver).hasSameSizeAs(before);
        assertThat(after).as("%s: the removed real serves no one", vserver).doesNotContainValue(removed);
    }
}
