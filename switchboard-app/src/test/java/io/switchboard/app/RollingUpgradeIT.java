package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.pcap.Replay;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19's rolling upgrade, as docs/operations.md's procedure has an operator do it: three director node
 * processes, clustered, under constant GTP and RADIUS load through all three ({@link LoadUnderChange});
 * each node in turn gets SIGTERM, exits within its shutdown deadline, is started again, rejoins, and
 * the next one waits until the cluster is safe. The clients retransmit a request unanswered after
 * their timeout to the next node, as GGSNs, MMEs and NASes do with several director addresses; what
 * they saw is counted: no request lost, none answered by a real other than the subscriber's binding,
 * and the bindings read through the admin API after the last restart are those read before the first.
 *
 * <p>The "newer build" is the same build started again: a node of a different version was not
 * available here. The test shows that stopping and starting each node in turn loses nothing; what a
 * different version must keep (its wire format in the cluster's maps, its configuration keys) is not
 * tested by it.
 */
class RollingUpgradeIT {

    /** Kept when the test fails: the nodes' configurations and logs. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void threeNodesRestartedInTurnUnderLoadLoseNoRequestAndNoBinding() throws Exception {
        try (LoadUnderChange cluster = new LoadUnderChange(dir).start(3)) {
            LoadUnderChange.Load load = cluster.startLoad();
            // Every subscriber has a binding, visible through the first node, before anything stops.
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    cluster.servedKeys(LoadUnderChange.GTP).size() == LoadUnderChange.IMSIS
                            && cluster.servedKeys(LoadUnderChange.RADIUS).size() == LoadUnderChange.STATIONS);
            LoadUnderChange.NodeProcess first = cluster.nodes().get(0);
            List<String> imsis = cluster.servedKeys(LoadUnderChange.GTP);
            List<String> stations = cluster.servedKeys(LoadUnderChange.RADIUS);
            await().atMost(Duration.ofSeconds(20)).until(() ->
                    cluster.bindings(first, LoadUnderChange.GTP, imsis).size() == imsis.size()
                            && cluster.bindings(first, LoadUnderChange.RADIUS, stations).size() == stations.size());
            Map<String, String> gtpBefore = cluster.bindings(first, LoadUnderChange.GTP, imsis);
            Map<String, String> radiusBefore = cluster.bindings(first, LoadUnderChange.RADIUS, stations);
            cluster.resetCounts(); // which real serves whom is counted from the bindings read

            for (LoadUnderChange.NodeProcess node : cluster.nodes()) {
                System.out.printf("rolling upgrade: %s before SIGTERM: %s%n", node.name, node.stickyCounters());
                Duration stopped = cluster.stop(node);
                Duration back = cluster.restart(node);
                System.out.printf("rolling upgrade: %s exited %.1f s after SIGTERM, rejoined and safe %.1f s after"
                        + " its start%n", node.name, stopped.toMillis() / 1e3, back.toMillis() / 1e3);
            }
            Map<String, Replay.Report> seen = load.stop();

            LoadUnderChange.NodeProcess last = cluster.nodes().get(cluster.nodes().size() - 1);
            Map<String, String> gtpAfter = cluster.bindings(last, LoadUnderChange.GTP, imsis);
            Map<String, String> radiusAfter = cluster.bindings(last, LoadUnderChange.RADIUS, stations);
            System.out.println("rolling upgrade: what the clients saw: " + seen.entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue().toMap()).toList());
            cluster.nodes().forEach(n -> System.out.printf("rolling upgrade: %s at the end: %s%n", n.name,
                    n.stickyCounters()));
            System.out.printf("rolling upgrade: bindings lost or moved: %s %s; served by two reals: %s %s (logs in %s)%n",
                    changed(gtpBefore, gtpAfter), changed(radiusBefore, radiusAfter),
                    cluster.servedByMoreThanOne(LoadUnderChange.GTP),
                    cluster.servedByMoreThanOne(LoadUnderChange.RADIUS), dir);

            for (Map.Entry<String, Replay.Report> e : seen.entrySet()) {
                Replay.Report r = e.getValue();
                assertThat(r.lost()).as("%s requests lost: %s", e.getKey(), r.toMap()).isZero();
                assertThat(r.answered() + r.late()).as(e.getKey()).isEqualTo(r.sent());
                // The restarts happened under load: requests sent to a stopped node were answered by another.
                assertThat(r.answeredAfterRetransmit()).as("%s: %s", e.getKey(), r.toMap()).isPositive();
            }
            assertThat(gtpBefore).hasSize(LoadUnderChange.IMSIS);
            assertThat(radiusBefore).hasSize(LoadUnderChange.STATIONS);
            // No binding moved, and no request was placed afresh at another real (a joining node copies
            // the tables once its partitions have arrived; gtp-inspect never ends a binding with a
            // session a create replaced).
            assertThat(changed(gtpBefore, gtpAfter)).as("IMSI bindings moved").isEmpty();
            assertThat(changed(radiusBefore, radiusAfter)).as("station bindings moved").isEmpty();
            assertThat(cluster.servedByMoreThanOne(LoadUnderChange.GTP)).as("IMSIs at two PGWs").isEmpty();
            assertThat(cluster.servedByMoreThanOne(LoadUnderChange.RADIUS)).as("stations at two AAAs").isEmpty();
            assertThat(gtpAfter).as("IMSI bindings through %s after the last restart", last.name)
                    .isEqualTo(gtpBefore);
            assertThat(radiusAfter).as("Calling-Station-Id bindings through %s", last.name).isEqualTo(radiusBefore);
            assertThat(cluster.bindings(first, LoadUnderChange.GTP, imsis)).as("through %s", first.name)
                    .isEqualTo(gtpBefore);
            assertThat(cluster.wrongReal(LoadUnderChange.GTP, gtpBefore)).as("GTP requests at the wrong real").isZero();
            assertThat(cluster.wrongReal(LoadUnderChange.RADIUS, radiusBefore)).as("RADIUS requests at the wrong real")
                    .isZero();
        }
    }

    /** The keys whose binding is not the same in {@code after}, with both (null: none). */
    private static Map<String, String> changed(Map<String, String> before, Map<String, String> after) {
        Map<String, String> changed = new java.util.TreeMap<>();
        before.forEach((key, real) -> {
            if (!real.equals(after.get(key))) {
                changed.put(key, real + " -> " + after.get(key));
            }
        });
        return changed;
    }
}
