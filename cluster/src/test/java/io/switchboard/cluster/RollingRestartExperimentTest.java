package io.switchboard.cluster;

import static org.awaitility.Awaitility.await;

import com.hazelcast.map.IMap;
import io.switchboard.director.sticky.StickyBinding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RollingRestartExperimentTest {

    private final TestMembers members = new TestMembers();

    @AfterEach
    void stop() {
        members.close();
    }

    @Test
    void experiment() {
        List<ClusterMember> live = new ArrayList<>();
        List<HazelcastStickyTable> tables = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ClusterMember m = members.start();
            live.add(m);
            tables.add(m.stickyTable("gtp/imsi", Duration.ofHours(1), 1_000_000));
        }
        int n = 2000;
        StickyBinding r1 = new StickyBinding("ggsn", "10.0.0.1:2123");
        StickyBinding r2 = new StickyBinding("ggsn", "10.0.0.2:2123");
        for (int i = 0; i < n; i++) {
            tables.get(i % 3).bindIfAbsent(HazelcastStickyTableTest.imsi(i), i % 2 == 0 ? r1 : r2, HazelcastStickyTableTest.now());
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> tables.stream().allMatch(t -> t.size() == n));
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.ConcurrentLinkedQueue<String> wrong = new java.util.concurrent.ConcurrentLinkedQueue<>();
        Thread load = new Thread(() -> {
            java.util.Random random = new java.util.Random(1);
            while (running.get()) {
                int k = random.nextInt(n);
                int t = random.nextInt(3);
                HazelcastStickyTable table = tables.get(t);
                StickyBinding expected = k % 2 == 0 ? r1 : r2;
                try {
                    StickyBinding b = table.lookup(HazelcastStickyTableTest.imsi(k), HazelcastStickyTableTest.now());
                    if (b == null) {
                        b = table.bindIfAbsent(HazelcastStickyTableTest.imsi(k), random.nextBoolean() ? r1 : r2,
                                HazelcastStickyTableTest.now());
                        if (!b.equals(expected)) {
                            wrong.add("miss on table " + t + " key " + k);
                        }
                    } else if (!b.equals(expected)) {
                        wrong.add("hit wrong on table " + t + " key " + k);
                    }
                } catch (RuntimeException e) {
                    // a closed member
                }
                java.util.concurrent.locks.LockSupport.parkNanos(200_000);
            }
        });
        load.start();
        for (int round = 0; round < 6; round++) {
            int i = round % 3;
            tables.get(i).close();
            live.get(i).close();
            ClusterMember m = members.start();
            live.set(i, m);
            HazelcastStickyTable t = m.stickyTable("gtp/imsi", Duration.ofHours(1), 1_000_000);
            tables.set(i, t);
            long copied = t.size();
            await().atMost(Duration.ofSeconds(60)).until(() -> m.hazelcast().getPartitionService().isClusterSafe());
            IMap<Object, Object> map = m.hazelcast().getMap(ClusterMember.STICKY_MAP_PREFIX + "gtp/imsi");
            System.out.println("EXPERIMENT round " + round + ": joiner copied " + copied + ", map " + map.size()
                    + ", replicas " + tables.stream().map(HazelcastStickyTable::size).toList() + ", wrong " + wrong.size() + " " + List.copyOf(wrong).subList(0, Math.min(5, wrong.size())));
        }
        running.set(false);
    }
}
