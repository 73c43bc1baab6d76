package io.switchboard.cluster;

import static io.switchboard.cluster.HazelcastStickyTableTest.imsi;

import com.hazelcast.map.IMap;
import io.switchboard.director.Ticker;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 7's benchmark, for 1, 2 and 3 members in one JVM (so: loopback, two cores shared by all
 * members): bindings created per second until every member's replica holds them all, replication
 * lag from a bind on the first member to a lookup hit on the last one (sampled while the load
 * runs), and used heap per binding for the whole JVM. Not a test:
 *
 * <pre>java -Xmx6g -XX:+UseSerialGC -cp &lt;test classpath&gt; io.switchboard.cluster.StickyClusterBenchmark [count]</pre>
 */
public final class StickyClusterBenchmark {

    private static final int SAMPLES = 1_000;

    private StickyClusterBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        StickyBinding[] reals = new StickyBinding[16];
        for (int i = 0; i < reals.length; i++) {
            reals[i] = new StickyBinding("ggsn", "10.0.0." + (i + 1) + ":2123");
        }
        System.out.printf("%-7s %11s  %-27s  %-27s %10s%n", "", "", "lag, idle cluster", "lag, during the load",
                "heap B/");
        System.out.printf("%-7s %11s  %8s %8s %9s  %8s %8s %9s %10s%n", "members", "bindings/s", "p50", "p99",
                "max", "p50", "p99", "max", "binding");
        for (int members = 1; members <= 3; members++) {
            run(members, count, reals);
        }
    }

    private static void run(int memberCount, int count, StickyBinding[] reals) throws Exception {
        try (TestMembers members = new TestMembers()) {
            List<HazelcastStickyTable> tables = new ArrayList<>();
            ClusterMember first = members.start();
            tables.add(first.stickyTable("gtp/imsi", Duration.ofMinutes(30), 10_000_000));
            for (int m = 1; m < memberCount; m++) {
                tables.add(members.start().stickyTable("gtp/imsi", Duration.ofMinutes(30), 10_000_000));
            }
            long[] idleLag = sampleLag(tables.get(0), tables.get(memberCount - 1), count);
            long heapBefore = usedAfterGc();
            long start = System.nanoTime();
            List<Thread> binders = new ArrayList<>();
            for (int m = 0; m < memberCount; m++) {
                HazelcastStickyTable table = tables.get(m);
                int offset = m;
                Thread t = new Thread(() -> {
                    for (int i = offset; i < count; i += memberCount) {
                        table.bindIfAbsent(imsi(i), reals[i % reals.length], Ticker.SYSTEM.nanos());
                    }
                }, "binder-" + m);
                binders.add(t);
                t.start();
            }
            long[] loadLag = sampleLag(tables.get(0), tables.get(memberCount - 1), count + SAMPLES);
            for (Thread t : binders) {
                t.join();
            }
            // Every replica full and every claim applied (a replica fills before its claims land).
            long total = count + 2L * SAMPLES;
            IMap<StickyKey, StickyBinding> map = first.hazelcast().getMap(ClusterMember.STICKY_MAP_PREFIX + "gtp/imsi");
            while (tables.stream().anyMatch(t -> t.size() < total) || map.size() < total) {
                Thread.onSpinWait();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long heapPerBinding = (usedAfterGc() - heapBefore) / total;
            System.out.printf("%-7d %11.0f  %s  %s %10d%n", memberCount, (count + SAMPLES) / seconds,
                    memberCount == 1 ? String.format("%-27s", "(local)") : percentiles(idleLag),
                    memberCount == 1 ? String.format("%-27s", "(local)") : percentiles(loadLag), heapPerBinding);
        }
    }

    private static String percentiles(long[] micros) {
        Arrays.sort(micros);
        return String.format("%5d us %5d us %6d us", micros[micros.length / 2], micros[micros.length * 99 / 100],
                micros[micros.length - 1]);
    }

    /** Binds sample keys on {@code from} one at a time and times each until {@code to} sees it. */
    private static long[] sampleLag(HazelcastStickyTable from, HazelcastStickyTable to, int offset) {
        StickyBinding binding = new StickyBinding("ggsn", "10.0.0.1:2123");
        long[] lagMicros = new long[SAMPLES];
        for (int s = 0; s < SAMPLES; s++) {
            StickyKey key = imsi(offset + s);
            long t0 = System.nanoTime();
            from.bindIfAbsent(key, binding, Ticker.SYSTEM.nanos());
            long deadline = t0 + TimeUnit.SECONDS.toNanos(30);
            while (to.lookup(key, Ticker.SYSTEM.nanos()) == null && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            lagMicros[s] = (System.nanoTime() - t0) / 1_000;
        }
        return lagMicros;
    }

    private static long usedAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
