package io.switchboard.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Issue 7's benchmark, for 1, 2 and 3 members in one run, each member a JVM of its own
 * ({@link StickyNode}) on 127.0.0.1: bindings created per second, the members binding their share
 * of {@code count} IMSIs at once, until every member's replica and the map hold them all;
 * replication lag from a bind on the first member to a lookup hit on the last, on an idle cluster
 * and while the load runs (both ends stamped with the host's monotonic clock); and each member's
 * used heap per binding, after full GCs, at {@code count} bindings. Not a test
 * ({@code benchmarks/cluster/run.sh} runs it):
 *
 * <pre>java -cp &lt;test classpath&gt; io.switchboard.cluster.StickyClusterBenchmark [count [member -Xmx]]</pre>
 */
public final class StickyClusterBenchmark {

    private static final int SAMPLES = 200;

    private StickyClusterBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        String heap = args.length > 1 ? args[1] : "1536m";
        System.out.printf("%d bindings (IMSI keys, 16 reals), members in separate JVMs (-Xmx%s, SerialGC),"
                + " %d lag samples%n", count, heap, SAMPLES);
        System.out.printf("%-7s %11s  %-26s  %-26s  %s%n", "", "", "lag, idle cluster", "lag, during the load",
                "heap B/binding per member");
        System.out.printf("%-7s %11s  %7s %8s %9s  %7s %8s %9s  %s%n", "members", "bindings/s", "p50", "p99",
                "max", "p50", "p99", "max", "(each member)");
        for (int members = 1; members <= 3; members++) {
            run(members, count, heap);
        }
    }

    private static void run(int memberCount, int count, String heap) throws Exception {
        String cluster = "bench-" + UUID.randomUUID();
        List<StickyNodeProcess> nodes = new ArrayList<>();
        try {
            StickyNodeProcess first = StickyNodeProcess.start("bench-" + memberCount + "-0", cluster,
                    List.of("-Xmx" + heap, "-Xms" + heap));
            nodes.add(first);
            for (int m = 1; m < memberCount; m++) {
                nodes.add(StickyNodeProcess.start("bench-" + memberCount + "-" + m, cluster,
                        List.of("-Xmx" + heap, "-Xms" + heap), first));
            }
            for (StickyNodeProcess n : nodes) {
                n.awaitReady();
                while (!n.ask("members").equals("" + memberCount)) {
                    Thread.onSpinWait();
                }
            }
            StickyNodeProcess last = nodes.get(memberCount - 1);
            long[] heapBefore = nodes.stream().mapToLong(n -> Long.parseLong(n.ask("heap"))).toArray();
            long[] idleLag = memberCount == 1 ? null : sampleLag(first, last, count);

            long start = System.nanoTime();
            for (int m = 0; m < memberCount; m++) {
                nodes.get(m).ask("fill-async " + m + " " + memberCount + " " + count);
            }
            long[] loadLag = memberCount == 1 ? null : sampleLag(first, last, count + SAMPLES);
            for (StickyNodeProcess n : nodes) {
                n.send("fill-wait");
                n.answer(1_800);
            }
            long total = count + (memberCount == 1 ? 0 : 2L * SAMPLES);
            // Created: every claim applied by its owner (the map, cluster-wide, holds them all).
            first.send("await-map " + total + " 600");
            String[] applied = first.answer(660).split(" ");
            double seconds = (Long.parseLong(applied[0]) - start) / 1e9;
            // Replicas: entry events are not flow-controlled, so a replica may trail or miss some.
            StringBuilder replicas = new StringBuilder();
            StringBuilder perMember = new StringBuilder();
            for (int m = 0; m < memberCount; m++) {
                StickyNodeProcess n = nodes.get(m);
                n.send("await-replica " + total + " 60");
                String[] replica = n.answer(120).split(" ");
                long missing = total - Long.parseLong(replica[1]);
                replicas.append(m == 0 ? "" : ", ").append(n.name()).append(missing == 0
                        ? String.format(" complete %.1f s after the start", (Long.parseLong(replica[0]) - start) / 1e9)
                        : " missing " + missing);
                long after = Long.parseLong(n.ask("heap"));
                perMember.append(m == 0 ? "" : " / ").append((after - heapBefore[m]) / total);
            }
            System.out.printf("%-7d %11.0f  %s  %s  %s%n", memberCount,
                    Long.parseLong(applied[1]) >= total ? count / seconds : Double.NaN,
                    idleLag == null ? String.format("%-26s", "(local)") : percentiles(idleLag),
                    loadLag == null ? String.format("%-26s", "(local)") : percentiles(loadLag), perMember);
            System.out.printf("        map holds %s of %d; replicas: %s%n", applied[1], total, replicas);
        } finally {
            nodes.forEach(StickyNodeProcess::kill);
        }
    }

    private static String percentiles(long[] micros) {
        Arrays.sort(micros);
        return String.format("%4d us %5d us %6d us", micros[micros.length / 2], micros[micros.length * 99 / 100],
                micros[micros.length - 1]);
    }

    /** Binds sample keys on {@code from} one at a time; {@code to} stamps when its lookup first hits. */
    private static long[] sampleLag(StickyNodeProcess from, StickyNodeProcess to, int offset) {
        long[] lagMicros = new long[SAMPLES];
        for (int s = 0; s < SAMPLES; s++) {
            to.send("stamp-seen " + (offset + s));
            long bound = Long.parseLong(from.ask("stamp-bind " + (offset + s) + " 10.0.0.1:2123"));
            lagMicros[s] = Math.max(0, Long.parseLong(to.answer()) - bound) / 1_000;
        }
        return lagMicros;
    }
}
