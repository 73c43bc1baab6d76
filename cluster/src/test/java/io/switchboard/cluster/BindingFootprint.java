package io.switchboard.cluster;

import static org.awaitility.Awaitility.await;

import com.hazelcast.map.IMap;
import io.switchboard.director.Ticker;
import io.switchboard.director.sticky.StickyBinding;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;

/**
 * Heap bytes per binding on one member: fills a sticky table with IMSI bindings (to 16 reals) and
 * prints the used-heap delta after GC divided by the count, and Hazelcast's own cost estimate of
 * the map's entries. Not a test (it wants a quiet JVM of its own):
 *
 * <pre>java -Xmx2g -XX:+UseSerialGC -cp &lt;test classpath&gt; io.switchboard.cluster.BindingFootprint [count]</pre>
 */
public final class BindingFootprint {

    private BindingFootprint() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        StickyBinding[] reals = new StickyBinding[16];
        for (int i = 0; i < reals.length; i++) {
            reals[i] = new StickyBinding("ggsn", "10.0.0." + (i + 1) + ":2123");
        }
        try (TestMembers members = new TestMembers()) {
            ClusterMember member = members.start();
            HazelcastStickyTable table = member.stickyTable("gtp/imsi", Duration.ofMinutes(30), 10_000_000);
            IMap<Object, Long> map = member.hazelcast().getMap(ClusterMember.STICKY_MAP_PREFIX + "gtp/imsi");
            // Keys are made before the baseline: their objects belong to the replica's cost, but
            // the test's own array of them must not be counted, so they are made again below.
            long before = usedAfterGc();
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                table.bindIfAbsent(HazelcastStickyTableTest.imsi(i), reals[i % reals.length], Ticker.SYSTEM.nanos());
            }
            System.out.printf("bindIfAbsent calls took %d ms%n", (System.nanoTime() - start) / 1_000_000);
            await().atMost(Duration.ofMinutes(2)).until(() -> map.size() == count && table.size() == count);
            double seconds = (System.nanoTime() - start) / 1e9;
            long after = usedAfterGc();
            System.out.printf("%d bindings on one member in %.1f s (%.0f/s)%n", count, seconds, count / seconds);
            System.out.printf("heap per binding (used heap delta after GC / count): %d bytes%n",
                    (after - before) / count);
            // Destroying the map leaves the replica alone (it is ours): what remains is its cost. (Hazelcast's
            // own estimate of its entries' cost is 0 for a map that stores values as objects, as this one does.)
            map.destroy();
            long replica = usedAfterGc() - before;
            System.out.printf("  the IMap entries (what destroying the map freed): %d bytes%n", (after - before - replica) / count);
            System.out.printf("  the local replica alone (heap delta after the map is destroyed): %d bytes%n",
                    replica / count);
            System.out.println("replica still holds " + table.size());
        }
    }

    private static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
