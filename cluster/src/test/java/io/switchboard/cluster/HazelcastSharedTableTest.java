package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Shared tables on two or three members in one JVM (the process test covers separate JVMs and SIGKILL). */
class HazelcastSharedTableTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private final TestMembers members = new TestMembers();
    private final List<SharedTable<String, String>> tables = new ArrayList<>();

    @AfterEach
    void stop() {
        tables.forEach(SharedTable::close);
        members.close();
    }

    private SharedTable<String, String> table(ClusterMember member) {
        SharedTable<String, String> t = member.sharedTables().open("sessions", Codec.UTF8, Codec.UTF8);
        tables.add(t);
        return t;
    }

    @Test
    void putsUpdatesAndRemovalsOnAnyNodeReachEveryNode() {
        SharedTable<String, String> a = table(members.start());
        SharedTable<String, String> b = table(members.start());
        SharedTable<String, String> c = table(members.start());
        for (int i = 0; i < 100; i++) {
            a.put("s" + i, "created-" + i);
        }
        assertThat(a.get("s7")).as("read locally at once").isEqualTo("created-7");
        await().atMost(WAIT).until(() -> b.size() == 100 && c.size() == 100);
        assertThat(c.get("s42")).isEqualTo("created-42");

        b.put("s42", "updated");
        assertThat(c.remove("s7")).isTrue();
        await().atMost(WAIT).until(() -> "updated".equals(a.get("s42")) && "updated".equals(c.get("s42"))
                && a.get("s7") == null && b.get("s7") == null);
        assertThat(a.size()).isEqualTo(99);
        assertThat(a.remove("never-there")).isFalse();
    }

    @Test
    void aNodeNeverSeesItsOwnOlderWriteComeBack() throws Exception {
        SharedTable<String, String> a = table(members.start());
        SharedTable<String, String> b = table(members.start());
        int writes = 3_000;
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<String> regression = new AtomicReference<>();
        AtomicReference<Integer> lastWritten = new AtomicReference<>(-1);
        // A reader on A: after A wrote n, A never reads less than n (echoes of n-1, n-2 arrive later).
        Thread reader = new Thread(() -> {
            while (writing.get()) {
                int floor = lastWritten.get();
                String seen = a.get("k");
                if (seen != null && Integer.parseInt(seen) < floor) {
                    regression.compareAndSet(null, "read " + seen + " after writing " + floor);
                }
            }
        });
        reader.start();
        for (int i = 0; i < writes; i++) {
            a.put("k", Integer.toString(i));
            lastWritten.set(i);
        }
        writing.set(false);
        reader.join();
        assertThat(regression.get()).isNull();
        // One node's writes of a key are applied in its order, even when Hazelcast retries some of them.
        await().atMost(WAIT).untilAsserted(() -> assertThat(b.get("k")).isEqualTo("" + (writes - 1)));
        assertThat(a.get("k")).isEqualTo("" + (writes - 1));
    }

    @Test
    void aRemovedEntryStaysRemovedWhileEarlierEchoesArrive() {
        SharedTable<String, String> a = table(members.start());
        SharedTable<String, String> b = table(members.start());
        for (int i = 0; i < 500; i++) {
            a.put("s" + i, "v");
            a.put("s" + i, "w");
            a.remove("s" + i);
            assertThat(a.get("s" + i)).isNull();
        }
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> a.size() == 0 && a.get("s499") == null);
        await().atMost(WAIT).until(() -> b.size() == 0);
    }

    @Test
    void twoNodesWritingOneKeyAtOnceEndOnOneValueEverywhere() throws Exception {
        ClusterMember first = members.start();
        SharedTable<String, String> a = table(first);
        SharedTable<String, String> b = table(members.start());
        Thread onB = new Thread(() -> {
            for (int i = 0; i < 1_000; i++) {
                b.put("k", "b" + i);
            }
        });
        onB.start();
        for (int i = 0; i < 1_000; i++) {
            a.put("k", "a" + i);
        }
        onB.join();
        // Whichever write the owner applied last is the cluster's value, and every node's copy ends on it.
        com.hazelcast.map.IMap<byte[], SharedEntry> map = first.hazelcast()
                .getMap(HazelcastSharedTable.MAP_PREFIX + "sessions");
        byte[] k = Codec.UTF8.encode("k");
        await().atMost(WAIT).until(() -> {
            String held = Codec.UTF8.decode(map.get(k).value());
            return held.equals(a.get("k")) && held.equals(b.get("k"));
        });
        String agreed = a.get("k");
        assertThat(agreed).matches("[ab]\\d+");
        ClusterMember third = members.start();
        assertThat(table(third).get("k")).as("a node that joins has the cluster's value").isEqualTo(agreed);
    }

    @Test
    void aTerminatedMemberLosesNothingAndAJoiningOneHasEverything() {
        ClusterMember first = members.start();
        SharedTable<String, String> a = table(first);
        ClusterMember second = members.start();
        SharedTable<String, String> b = table(second);
        table(members.start());
        for (int i = 0; i < 1_000; i++) {
            a.put("s" + i, "v" + i);
        }
        await().atMost(WAIT).until(() -> b.size() == 1_000);
        // Hazelcast keeps every entry through one member's crash once its backups are in place: not
        // while the third member's join is still migrating partitions (then a crash can take the only
        // copy of what is moving: the limit of backup-count 1).
        await().atMost(Duration.ofSeconds(30)).until(() -> first.hazelcast().getPartitionService().isClusterSafe());
        first.hazelcast().getLifecycleService().terminate();
        await().atMost(Duration.ofSeconds(30)).until(() -> second.members().size() == 2);
        SharedTable<String, String> joined = table(members.start());
        assertThat(joined.size()).isEqualTo(1_000);
        assertThat(joined.get("s999")).isEqualTo("v999");
        assertThat(b.get("s0")).isEqualTo("v0");
    }

    /**
     * A member loss makes the survivors copy the map again while they take over the dead node's
     * entries and remove them: the copy's snapshot may predate a removal and must not bring it back.
     */
    @Test
    void removalsRightAfterAMemberLossStayRemovedWhileTheSurvivorCopiesTheMapAgain() {
        ClusterMember first = members.start();
        SharedTable<String, String> a = table(first);
        ClusterMember second = members.start();
        HazelcastSharedTable<String, String> b = (HazelcastSharedTable<String, String>) table(second);
        int entries = 20_000;
        for (int i = 0; i < entries; i++) {
            a.put("s" + i, "created on A " + i);
        }
        await().atMost(WAIT).until(() -> b.size() == entries);
        await().atMost(WAIT).until(() -> first.hazelcast().getPartitionService().isClusterSafe());
        long catchUps = b.catchUps();
        first.hazelcast().getLifecycleService().terminate();
        await().atMost(Duration.ofSeconds(30)).until(() -> second.members().size() == 1);
        for (int i = 0; i < entries; i++) {
            assertThat(b.remove("s" + i)).as("s%d held by the survivor", i).isTrue();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> b.catchUps() > catchUps);
        await().atMost(WAIT).until(() -> b.size() == 0);
        com.hazelcast.map.IMap<byte[], SharedEntry> map = second.hazelcast()
                .getMap(HazelcastSharedTable.MAP_PREFIX + "sessions");
        // Removals reach the map asynchronously (one entry processor each; 20,000 of them take a
        // while on a loaded machine): wait for the last to land, then nothing may have come back.
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(map.values()).as("the cluster holds tombstones only").allMatch(SharedEntry::removed));
        assertThat(b.size()).as("no removal brought back by the survivor's copy").isZero();
    }
}
