package io.switchboard.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.MapConfig;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import java.net.InetAddress;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * A director node reduced to one member, its IMSI sticky table and one farm whose real state is
 * shared ({@link SharedRealState}), in a process of its own, driven
 * by {@link ProcessClusterTest} through one command per line on stdin; every answer is one line on
 * stdout starting with {@code "= "} (logs go to stderr).
 *
 * <pre>
 *   java -cp &lt;test classpath&gt; io.switchboard.cluster.StickyNode &lt;cluster name&gt; [seed host:port ...]
 *   bind &lt;i&gt; &lt;real&gt;         bindIfAbsent(IMSI i, ggsn/real)  → the binding that holds (its real)
 *   lookup &lt;i&gt;              lookup(IMSI i)                   → real, or "none"
 *   fill &lt;from&gt; &lt;to&gt; &lt;real&gt;  bindIfAbsent for from..to-1     → "ok"
 *   held &lt;from&gt; &lt;to&gt; &lt;real&gt;  lookups of from..to-1 that find real → count
 *   cluster-size             the map's size, cluster-wide         → count
 *   members                  cluster members this node sees       → count
 *   safe                     every partition has its backup in place (Hazelcast's condition for
 *                            losing no entry when one member dies) → "true" or "false"
 *   stamp-bind &lt;i&gt; &lt;real&gt;   bindIfAbsent, then                   → System.nanoTime() after it
 *   stamp-seen &lt;i&gt; [real]   spins until lookup(IMSI i) hits (that real, if given) → System.nanoTime() then
 *   real &lt;real&gt;             a real of farm ggsn                  → "STATE weight"
 *   out|in &lt;real&gt;           admin (no) inservice, as the API does  → "ok"
 *   weight &lt;real&gt; &lt;w&gt;      set the dynamic weight, as the API or DFP does → "ok"
 *   unanswered &lt;real&gt;       3 requests sent and left unanswered (the farm's numconns): the
 *                            failure detector fails it               → the real's state
 *   slot                     this node's cluster slot              → index
 *   fill-async &lt;from&gt; &lt;stride&gt; &lt;to&gt; [rate]  bindIfAbsent for from, from+stride, ... below to,
 *                            on a thread of its own (other commands go on), at most 512
 *                            claims in flight, at most rate per second if given → "started"
 *   fill-wait                until that thread is done            → its duration in ns
 *   await-map &lt;n&gt; &lt;s&gt;       until the map holds n, at most s seconds → "System.nanoTime() size"
 *   await-replica &lt;n&gt; &lt;s&gt;   the same for this node's replica       → "System.nanoTime() size"
 *   heap                     used heap after full GCs             → bytes
 *   session-fill &lt;from&gt; &lt;to&gt; &lt;v&gt;  put session i → "v-i" in the shared table "sessions" → "ok"
 *   session-get &lt;i&gt;         the session's value                  → value, or "none"
 *   session-held &lt;from&gt; &lt;to&gt; &lt;v&gt;  sessions of from..to-1 whose value is "v-i" → count
 *   session-remove &lt;i&gt;      remove session i                     → "ok"
 *   session-size             entries of this node's copy          → count
 *   merged                   what split-brain merges decided on this node for the sticky maps
 *                            ({@link CountedPutIfAbsent})          → "added same conflicts"
 * </pre>
 * Farm {@code ggsn} has reals 10.0.0.1:2123, 10.0.0.2:2123 and 10.0.0.3:2123 (weight 8, failure
 * detection numconns 3, numclients 1, retry 60 s); nothing is sent to them.
 * The two stamps come from one host's monotonic clock, which all processes share on Linux: their
 * difference is the replication lag between two processes.
 */
public final class StickyNode {

    private StickyNode() {
    }

    public static void main(String[] args) throws Exception {
        List<String> seeds = Arrays.asList(args).subList(1, args.length);
        // The partition test runs nodes in network namespaces of their own, each on its own address.
        Config config = ClusterMember.hazelcastConfig(new ClusterConfig(true, args[0], seeds, 0),
                System.getProperty("sticky.node.bind", "127.0.0.1"));
        TestMembers.tune(config);
        // The benchmark's baseline with an asynchronous backup instead of the synchronous one.
        config.addMapConfig(new MapConfig(config.getMapConfig(ClusterMember.STICKY_MAP_PREFIX + "raw-claim"))
                .setName(ClusterMember.STICKY_MAP_PREFIX + "raw-claim.async-backup").setBackupCount(0)
                .setAsyncBackupCount(1));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Farms farms = new Farms(Map.of("ggsn", new FarmConfig("ggsn", PredictorKind.ROUNDROBIN,
                new FailureDetection(3, 1, Duration.ofSeconds(60)),
                List.of(real(1), real(2), real(3)), Optional.empty())));
        try (ClusterMember member = ClusterMember.start(config);
             HazelcastStickyTable table = member.stickyTable("gtp/imsi", Duration.ofMinutes(30), 10_000_000);
             SharedRealState shared = member.shareRealState(farms);
             SharedTable<Integer, String> sessions = member.sharedTables().open("sessions", INT, Codec.UTF8)) {
            RawHazelcast raw = new RawHazelcast(member.hazelcast(), Duration.ofMinutes(45).toMillis());
            out.println("= ready " + member.address().getPort());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String[] command = line.trim().split(" ");
                out.println("= " + (REAL_COMMANDS.contains(command[0]) ? realCommand(member, farms, command)
                        : command[0].startsWith("session-") ? sessionCommand(sessions, command)
                        : command[0].startsWith("raw-") ? raw.command(command)
                        : answer(member, table, command)));
            }
        }
    }

    private static RealConfig real(int i) {
        try {
            return new RealConfig(InetAddress.getByName("10.0.0." + i), 2123, 8, OptionalInt.empty(), true);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Session ids as 4 bytes, big-endian. */
    private static final Codec<Integer> INT = new Codec<>() {
        @Override
        public byte[] encode(Integer value) {
            return java.nio.ByteBuffer.allocate(4).putInt(value).array();
        }

        @Override
        public Integer decode(byte[] bytes) {
            if (bytes.length != 4) {
                throw new IllegalArgumentException("a session id is 4 bytes, not " + bytes.length);
            }
            return java.nio.ByteBuffer.wrap(bytes).getInt();
        }
    };

    private static String sessionCommand(SharedTable<Integer, String> sessions, String[] c) {
        switch (c[0]) {
            case "session-fill":
                for (int i = Integer.parseInt(c[1]); i < Integer.parseInt(c[2]); i++) {
                    sessions.put(i, c[3] + "-" + i);
                }
                return "ok";
            case "session-get":
                String v = sessions.get(Integer.parseInt(c[1]));
                return v == null ? "none" : v;
            case "session-held":
                int held = 0;
                for (int i = Integer.parseInt(c[1]); i < Integer.parseInt(c[2]); i++) {
                    if ((c[3] + "-" + i).equals(sessions.get(i))) {
                        held++;
                    }
                }
                return Integer.toString(held);
            case "session-remove":
                sessions.remove(Integer.parseInt(c[1]));
                return "ok";
            case "session-size":
                return Long.toString(sessions.size());
            default:
                throw new IllegalArgumentException(c[0]);
        }
    }

    private static final java.util.Set<String> REAL_COMMANDS = java.util.Set.of("real", "out", "in", "weight",
            "unanswered", "slot");

    /** The real-state commands. */
    private static String realCommand(ClusterMember member, Farms farms, String[] c) {
        if (c[0].equals("slot")) {
            return Integer.toString(member.slot().index());
        }
        RealServer real = farms.real("ggsn", c.length > 1 ? c[1] : "");
        switch (c[0]) {
            case "real":
                return real.state() + " " + real.weight();
            case "out":
                real.takeOutOfService();
                return "ok";
            case "in":
                real.putInService();
                return "ok";
            case "weight":
                real.setWeight(Integer.parseInt(c[2]));
                return "ok";
            case "unanswered":
                for (int i = 0; i < 3; i++) {
                    real.requestForwarded();
                    real.requestUnanswered("client", Ticker.SYSTEM.nanos());
                }
                return real.state().toString();
            default:
                throw new IllegalArgumentException(c[0]);
        }
    }

    private static String answer(ClusterMember member, HazelcastStickyTable table, String[] c) {
        long now = Ticker.SYSTEM.nanos();
        switch (c[0]) {
            case "bind":
                return table.bindIfAbsent(HazelcastStickyTableTest.imsi(Integer.parseInt(c[1])), real(c[2]), now).real();
            case "merged":
                CountedPutIfAbsent.Outcomes o = CountedPutIfAbsent.BINDINGS;
                return o.added() + " " + o.same() + " " + o.conflicts();
            case "lookup":
                StickyBinding found = table.lookup(HazelcastStickyTableTest.imsi(Integer.parseInt(c[1])), now);
                return found == null ? "none" : found.real();
            case "fill":
                for (int i = Integer.parseInt(c[1]); i < Integer.parseInt(c[2]); i++) {
                    table.bindIfAbsent(HazelcastStickyTableTest.imsi(i), real(c[3]), now);
                }
                return "ok";
            case "held":
                int held = 0;
                for (int i = Integer.parseInt(c[1]); i < Integer.parseInt(c[2]); i++) {
                    if (real(c[3]).equals(table.lookup(HazelcastStickyTableTest.imsi(i), now))) {
                        held++;
                    }
                }
                return Integer.toString(held);
            case "cluster-size":
                return Integer.toString(member.hazelcast().getMap(ClusterMember.STICKY_MAP_PREFIX + "gtp/imsi").size());
            case "stamp-bind":
                table.bindIfAbsent(HazelcastStickyTableTest.imsi(Integer.parseInt(c[1])), real(c[2]), now);
                return Long.toString(System.nanoTime());
            case "stamp-seen":
                StickyKey key = HazelcastStickyTableTest.imsi(Integer.parseInt(c[1]));
                StickyBinding expected = c.length > 2 ? real(c[2]) : null;
                long deadline = System.nanoTime() + 10_000_000_000L;
                // As traffic sees it: the lookup must give the real the other node bound.
                while (!seen(table.lookup(key, Ticker.SYSTEM.nanos()), expected) && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                return Long.toString(System.nanoTime());
            case "fill-async":
                int from = Integer.parseInt(c[1]);
                int stride = Integer.parseInt(c[2]);
                int to = Integer.parseInt(c[3]);
                long intervalNanos = c.length > 4 ? 1_000_000_000L / Long.parseLong(c[4]) : 0;
                filler = new FutureTask<>(() -> {
                    long start = System.nanoTime();
                    long next = start;
                    StickyBinding[] reals = new StickyBinding[16];
                    for (int i = 0; i < reals.length; i++) {
                        reals[i] = real("10.0.0." + (i + 1) + ":2123");
                    }
                    for (int i = from; i < to; i += stride) {
                        // A window of claims in flight: faster than the cluster applies them, they
                        // queue until they time out (the packet path has no such wait; real new
                        // subscriber rates are far below this).
                        while (table.inFlight() >= FILL_WINDOW) {
                            java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                        }
                        if (intervalNanos > 0) {
                            next += intervalNanos;
                            while (System.nanoTime() < next) {
                                java.util.concurrent.locks.LockSupport.parkNanos(next - System.nanoTime());
                            }
                        }
                        table.bindIfAbsent(HazelcastStickyTableTest.imsi(i), reals[i % reals.length],
                                Ticker.SYSTEM.nanos());
                    }
                    return System.nanoTime() - start;
                });
                new Thread(filler, "filler").start();
                return "started";
            case "fill-wait":
                try {
                    return Long.toString(filler.get());
                } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
                    return "failed " + e;
                }
            case "await-map":
            case "await-replica":
                long n = Long.parseLong(c[1]);
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(c[2]));
                var map = member.hazelcast().getMap(ClusterMember.STICKY_MAP_PREFIX + "gtp/imsi");
                java.util.function.LongSupplier size = c[0].equals("await-map") ? map::size : table::size;
                long has;
                while ((has = size.getAsLong()) < n && System.nanoTime() < until) {
                    java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
                }
                return System.nanoTime() + " " + has;
            case "heap":
                long used = Long.MAX_VALUE;
                for (int i = 0; i < 5; i++) {
                    System.gc();
                    used = Math.min(used, java.lang.management.ManagementFactory.getMemoryMXBean()
                            .getHeapMemoryUsage().getUsed());
                }
                return Long.toString(used);
            case "members":
                return Integer.toString(member.hazelcast().getCluster().getMembers().size());
            case "safe":
                return Boolean.toString(member.hazelcast().getPartitionService().isClusterSafe());
            default:
                return "unknown command " + c[0];
        }
    }

    private static boolean seen(StickyBinding found, StickyBinding expected) {
        return found != null && (expected == null || found.equals(expected));
    }

    /** Claims fill-async keeps in flight at most. */
    private static final int FILL_WINDOW = 512;

    /** The running fill-async, touched only by the command thread. */
    private static java.util.concurrent.FutureTask<Long> filler;

    private static StickyBinding real(String real) {
        return new StickyBinding("ggsn", real);
    }
}
