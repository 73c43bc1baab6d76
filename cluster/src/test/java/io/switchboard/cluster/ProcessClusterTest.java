package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Director nodes as separate JVM processes on 127.0.0.1: what issue 7 asks of a real cluster,
 * including a node killed with SIGKILL and restarted.
 */
class ProcessClusterTest {

    private static final int N = 1_000;
    private final String clusterName = "proc-" + UUID.randomUUID();
    private final List<StickyNodeProcess> nodes = new ArrayList<>();

    @AfterEach
    void killAll() {
        nodes.forEach(StickyNodeProcess::kill);
    }

    @Test
    void bindingsSurviveASigkilledNodeAndARestartedNodeCatchesUp() throws Exception {
        List<StickyNodeProcess> abc = startThree();
        StickyNodeProcess a = abc.get(0);
        StickyNodeProcess b = abc.get(1);
        StickyNodeProcess c = abc.get(2);

        // A subscriber bound through A is served by B and C with the same real.
        assertThat(a.ask("fill 0 " + N + " 10.0.0.1:2123")).isEqualTo("ok");
        await().atMost(Duration.ofSeconds(10)).until(() -> b.ask("held 0 " + N + " 10.0.0.1:2123").equals("" + N)
                && c.ask("held 0 " + N + " 10.0.0.1:2123").equals("" + N));

        // Replication lag between processes: B spins on a key until A's bind of it shows up.
        int samples = 200;
        long[] lagMicros = new long[samples];
        for (int s = 0; s < samples; s++) {
            int key = 10 * N + s;
            b.send("stamp-seen " + key);
            long bound = Long.parseLong(a.ask("stamp-bind " + key + " 10.0.0.1:2123"));
            lagMicros[s] = (Long.parseLong(b.answer()) - bound) / 1_000;
        }
        Arrays.sort(lagMicros);
        System.out.printf("sticky visibility lag between processes A->B over %d bindings: p50 %d us, p99 %d us,"
                + " max %d us%n", samples, lagMicros[samples / 2], lagMicros[samples * 99 / 100], lagMicros[samples - 1]);
        int total = N + samples + 1;

        // First requests of one IMSI on two nodes at once: every node ends on one real.
        b.send("bind " + N + " 10.0.0.2:2123");
        c.send("bind " + N + " 10.0.0.3:2123");
        b.answer();
        c.answer();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            String onA = a.ask("lookup " + N);
            return !onA.equals("none") && onA.equals(b.ask("lookup " + N)) && onA.equals(c.ask("lookup " + N));
        });
        String raced = b.ask("lookup " + N);

        // One backup per entry loses nothing to one member's death once every backup is in place:
        // the kill comes after the migrations of C's join and the backups of the writes are done.
        awaitSafe(a);
        a.kill();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(List.of(b.ask("members"),
                b.ask("cluster-size"), c.ask("cluster-size"))).as("members, then map size on B and C")
                .containsExactly("2", "" + total, "" + total));
        assertThat(b.ask("held 0 " + N + " 10.0.0.1:2123")).isEqualTo("" + N);
        assertThat(c.ask("held 0 " + N + " 10.0.0.1:2123")).isEqualTo("" + N);
        assertThat(c.ask("lookup " + N)).isEqualTo(raced);

        StickyNodeProcess restarted = start("a-restarted", b);
        restarted.awaitReady();
        // Caught up before it answers its first command.
        assertThat(restarted.ask("held 0 " + N + " 10.0.0.1:2123")).isEqualTo("" + N);
        assertThat(restarted.ask("lookup " + N)).isEqualTo(raced);
        assertThat(restarted.ask("members")).isEqualTo("3");
    }

    /** Real state, cluster slots and shared sessions, on one cluster of processes (JVM starts are what cost). */
    @Test
    void realStateSlotsAndSessionsReachEveryNodeAndOutliveASigkilledOne() throws Exception {
        List<StickyNodeProcess> abc = startThree();
        StickyNodeProcess a = abc.get(0);
        StickyNodeProcess b = abc.get(1);
        StickyNodeProcess c = abc.get(2);
        String one = "10.0.0.1:2123";
        String two = "10.0.0.2:2123";
        String three = "10.0.0.3:2123";

        // Taken out of service through A's API: out of service on B and C.
        assertThat(a.ask("out " + one)).isEqualTo("ok");
        awaitOn(List.of(b, c), one, "OUTOFSERVICE 8");
        // A weight set on B (API or DFP), 0 throttles: on A and C too.
        assertThat(b.ask("weight " + two + " 0")).isEqualTo("ok");
        awaitOn(List.of(a, c), two, "DFP_THROTTLED 0");
        // C's failure detector fails a real: FAILED on A and B, whose own traffic never saw it fail.
        assertThat(c.ask("unanswered " + three)).isEqualTo("FAILED");
        awaitOn(List.of(a, b), three, "FAILED 8");
        assertThat(a.ask("real " + one)).isEqualTo("OUTOFSERVICE 8"); // nothing else moved

        // A node that joins now takes the current state before it answers.
        StickyNodeProcess d = start("d", b);
        d.awaitReady();
        assertThat(d.ask("real " + one)).isEqualTo("OUTOFSERVICE 8");
        assertThat(d.ask("real " + two)).isEqualTo("DFP_THROTTLED 0");
        assertThat(d.ask("real " + three)).isEqualTo("FAILED 8");

        // Back in service through B's API (which also forces a FAILED real back): everywhere.
        assertThat(b.ask("in " + one)).isEqualTo("ok");
        assertThat(d.ask("in " + three)).isEqualTo("ok");
        awaitOn(List.of(a, b, c, d), one, "OPERATIONAL 8");
        awaitOn(List.of(a, b, c, d), three, "OPERATIONAL 8");

        // Shared sessions: created on A (the node that handled the Creates), updated on B, one deleted on D.
        int sessions = 1_000;
        assertThat(a.ask("session-fill 0 " + sessions + " created")).isEqualTo("ok");
        await().atMost(Duration.ofSeconds(10)).until(() -> b.ask("session-held 0 " + sessions + " created")
                .equals("" + sessions) && d.ask("session-held 0 " + sessions + " created").equals("" + sessions));
        assertThat(b.ask("session-fill 0 100 updated")).isEqualTo("ok");
        assertThat(d.ask("session-remove 999")).isEqualTo("ok");
        await().atMost(Duration.ofSeconds(10)).until(() -> a.ask("session-held 0 100 updated").equals("100")
                && c.ask("session-held 0 100 updated").equals("100") && a.ask("session-get 999").equals("none")
                && c.ask("session-size").equals("" + (sessions - 1)));

        // Cluster slots: distinct among live members; a dead member's slot is given to a newcomer.
        List<String> slots = List.of(a.ask("slot"), b.ask("slot"), c.ask("slot"), d.ask("slot"));
        assertThat(slots).doesNotHaveDuplicates().allSatisfy(x -> assertThat(Integer.parseInt(x)).isBetween(0, 63));
        String slotOfB = slots.get(1);
        awaitSafe(a);
        b.kill();
        await().atMost(Duration.ofSeconds(30)).until(() -> a.ask("members").equals("3"));
        StickyNodeProcess e = start("e", a);
        e.awaitReady();
        assertThat(e.ask("slot")).isEqualTo(slotOfB).isNotIn(a.ask("slot"), c.ask("slot"), d.ask("slot"));
        assertThat(e.ask("real " + two)).isEqualTo("DFP_THROTTLED 0"); // the state outlived B, which set it

        // Every session, B's updates too, outlived B; the survivors go on updating; E has them all.
        assertThat(c.ask("session-held 0 100 updated")).isEqualTo("100");
        assertThat(a.ask("session-held 100 999 created")).isEqualTo("899");
        assertThat(c.ask("session-size")).isEqualTo("" + (sessions - 1));
        assertThat(e.ask("session-size")).isEqualTo("" + (sessions - 1));
        assertThat(c.ask("session-fill 100 200 after-kill")).isEqualTo("ok");
        await().atMost(Duration.ofSeconds(10)).until(() -> a.ask("session-held 100 200 after-kill").equals("100")
                && e.ask("session-held 100 200 after-kill").equals("100"));
        assertThat(e.ask("session-held 0 100 updated")).isEqualTo("100");
    }

    private static void awaitSafe(StickyNodeProcess node) {
        await().atMost(Duration.ofSeconds(30)).until(() -> node.ask("safe").equals("true"));
    }

    private static void awaitOn(List<StickyNodeProcess> nodes, String real, String expected) {
        for (StickyNodeProcess n : nodes) {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(n.ask("real " + real)).as("node %s", n.name()).isEqualTo(expected));
        }
    }

    /** Nodes a, b and c, once each sees all three. */
    private List<StickyNodeProcess> startThree() throws IOException {
        StickyNodeProcess a = start("a");
        List<StickyNodeProcess> abc = List.of(a, start("b", a), start("c", a));
        abc.forEach(StickyNodeProcess::awaitReady);
        await().atMost(Duration.ofSeconds(30)).until(() -> abc.stream().allMatch(n -> n.ask("members").equals("3")));
        return abc;
    }

    private StickyNodeProcess start(String name, StickyNodeProcess... seeds) throws IOException {
        StickyNodeProcess node = StickyNodeProcess.start(name, clusterName, List.of("-Xmx256m"), seeds);
        nodes.add(node);
        return node;
    }
}
