package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A split brain and its merge, with the network cut for real: three {@link StickyNode} processes in
 * network namespaces of their own on one bridge; nftables rules in c's namespace cut it off from a and
 * b (both directions), bindings and real-state changes are made on both sides while the cluster is
 * split, then the rules go and Hazelcast merges c's side into the larger one.
 *
 * <p>What must hold (docs/cluster.md, "Network partition"): no binding made before or during the split
 * is lost; a key bound on one side only keeps that binding; a key bound differently on both sides (two
 * answers) ends with the larger side's; the merge policy's outcome is counted
 * ({@link CountedPutIfAbsent}); real-state changes made on either side are seen everywhere afterwards.
 * What c's traffic saw during the split (the bindings it could still read) is printed with the rest.
 * Skipped, with the reason, without root, ip or nft.
 */
class PartitionMergeNetnsIT {

    private static final Path SCRIPT = Path.of("src", "test", "resources", "partition", "net.sh");
    private static final String R1 = "10.0.0.1:2123";
    private static final String R2 = "10.0.0.2:2123";
    private static final String R3 = "10.0.0.3:2123";
    /** Split detection and merge within seconds instead of Hazelcast's minutes (60 s heartbeat, 300 s merge). */
    private static final List<String> FAST_SPLIT_BRAIN = List.of("-Xmx256m",
            "-Dhazelcast.max.no.heartbeat.seconds=6", "-Dhazelcast.merge.first.run.delay.seconds=5",
            "-Dhazelcast.merge.next.run.delay.seconds=5");

    private final String suffix = Integer.toString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff), 16);
    private final List<StickyNodeProcess> nodes = new ArrayList<>();
    private boolean up;

    @BeforeEach
    void network() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root (ip netns, nft)");
        for (String tool : List.of("ip", "nft")) {
            Assumptions.assumeTrue(run("sh", "-c", "command -v " + tool).startsWith("ok"),
                    tool + " is not installed (.ci/run installs iproute2 and nftables)");
        }
        up = true;
        assertThat(run("bash", SCRIPT.toString(), "up", suffix)).startsWith("ok");
    }

    @AfterEach
    void tearDown() throws Exception {
        nodes.forEach(StickyNodeProcess::kill);
        if (up) {
            run("bash", SCRIPT.toString(), "down", suffix);
        }
    }

    @Test
    void aHealedSplitBrainLosesNoBindingAndTheLargerSideWinsWhereBothAnswered() throws Exception {
        String cluster = "partition-" + UUID.randomUUID();
        StickyNodeProcess a = node("a", cluster, List.of());
        String seed = "10.98.0.1:" + a.awaitReady();
        StickyNodeProcess b = node("b", cluster, List.of(seed));
        StickyNodeProcess c = node("c", cluster, List.of(seed));
        b.awaitReady();
        c.awaitReady();
        for (StickyNodeProcess n : nodes) {
            await().atMost(Duration.ofSeconds(30)).until(() -> n.ask("members").equals("3"));
        }
        // Before the split: 0..999 bound to r1 through a, seen by c.
        assertThat(a.ask("fill 0 1000 " + R1)).isEqualTo("ok");
        await().atMost(Duration.ofSeconds(10)).until(() -> c.ask("held 0 1000 " + R1).equals("1000"));
        await().atMost(Duration.ofSeconds(10)).until(() -> a.ask("safe").equals("true"));

        assertThat(run("bash", SCRIPT.toString(), "split", suffix)).startsWith("ok");
        await().atMost(Duration.ofSeconds(60)).until(() -> c.ask("members").equals("1")
                && a.ask("members").equals("2") && b.ask("members").equals("2"));
        // c alone owns every partition once it has promoted the backups it held: until then its map
        // is smaller than what it will bring to the merge (a full run read 685 entries, then merged 1085).
        await().atMost(Duration.ofSeconds(60)).until(() -> c.ask("safe").equals("true"));
        // What c's side still reads of the bindings made before the split: its own partitions and
        // backups; the rest of its subscribers are bound anew on c's side if they send.
        int seenByC = Integer.parseInt(c.ask("held 0 1000 " + R1));
        int seenByA = Integer.parseInt(a.ask("held 0 1000 " + R1));

        // During the split: new subscribers on each side, and 100 bound on both sides differently.
        assertThat(a.ask("fill 1000 1500 " + R2)).isEqualTo("ok");
        assertThat(c.ask("fill 1500 1800 " + R3)).isEqualTo("ok");
        assertThat(a.ask("fill 2000 2100 " + R2)).isEqualTo("ok");
        assertThat(c.ask("fill 2000 2100 " + R3)).isEqualTo("ok");
        // And a real-state change on each side (LatestUpdate merges them per real).
        assertThat(c.ask("out " + R3)).isEqualTo("ok");
        assertThat(a.ask("weight " + R2 + " 3")).isEqualTo("ok");
        // What c's side will bring to the merge: its map's entries (those of the 1000 its members held a
        // copy of, and the 400 bound there during the split).
        await().atMost(Duration.ofSeconds(60)).until(() -> c.ask("safe").equals("true"));
        long cSide = Long.parseLong(c.ask("cluster-size"));
        List<String> before = nodes.stream().map(n -> n.ask("merged")).toList();

        assertThat(run("bash", SCRIPT.toString(), "heal", suffix)).startsWith("ok");
        for (StickyNodeProcess n : nodes) {
            await().atMost(Duration.ofSeconds(90)).until(() -> n.ask("members").equals("3"));
        }
        // The merge's entries arrive after the members have: wait until every node reads them all.
        for (StickyNodeProcess n : nodes) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(n.ask("held 0 1000 " + R1)).as("%s: bound before the split", n.name()).isEqualTo("1000");
                assertThat(n.ask("held 1000 1500 " + R2)).as("%s: bound on the larger side", n.name()).isEqualTo("500");
                assertThat(n.ask("held 1500 1800 " + R3)).as("%s: bound on the smaller side", n.name()).isEqualTo("300");
                assertThat(n.ask("held 2000 2100 " + R2)).as("%s: two answers, the larger side's", n.name())
                        .isEqualTo("100");
                assertThat(n.ask("real " + R3)).as("%s: taken out on the smaller side", n.name())
                        .startsWith("OUTOFSERVICE");
                assertThat(n.ask("real " + R2)).as("%s: weighted on the larger side", n.name()).endsWith(" 3");
            });
        }
        assertThat(a.ask("cluster-size")).isEqualTo("1900");

        // The merge policy counted it on the partition owners of the merged cluster (c among them once
        // it has rejoined): every entry of c's side once, 300 added, 100 with two answers, and the rest
        // c's copies of bindings made before the split, alike on both sides.
        long[] outcome = new long[3];
        for (int k = 0; k < nodes.size(); k++) {
            String[] now = nodes.get(k).ask("merged").split(" ");
            String[] then = before.get(k).split(" ");
            for (int i = 0; i < 3; i++) {
                outcome[i] += Long.parseLong(now[i]) - Long.parseLong(then[i]);
            }
        }
        System.out.printf("partition: c read %d of 1000 bindings during the split (a %d), c's side held %d; merge: %d"
                + " added, %d same, %d with two answers (larger side kept)%n", seenByC, seenByA, cSide, outcome[0],
                outcome[1], outcome[2]);
        assertThat(seenByA).as("the larger side holds every binding").isEqualTo(1000);
        assertThat(outcome[0]).as("keys only the smaller side held").isEqualTo(300);
        assertThat(outcome[2]).as("keys with two answers").isEqualTo(100);
        assertThat(outcome[1]).as("c's copies of bindings both sides held alike").isEqualTo(cSide - 400);
    }

    private StickyNodeProcess node(String n, String cluster, List<String> seeds) throws IOException {
        List<String> jvm = new ArrayList<>(FAST_SPLIT_BRAIN);
        jvm.add("-Dsticky.node.bind=10.98.0." + (n.charAt(0) - 'a' + 1));
        StickyNodeProcess p = StickyNodeProcess.start("partition-" + n, cluster, jvm,
                List.of("ip", "netns", "exec", "sbp-" + suffix + "-" + n), seeds);
        nodes.add(p);
        return p;
    }

    /** "ok" or "failed N" and the command's output. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        return (exit == 0 ? "ok " : "failed " + exit + " ") + out;
    }
}
