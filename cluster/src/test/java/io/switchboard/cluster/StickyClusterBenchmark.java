package io.switchboard.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The cluster benchmark (issues 7 and 23), for 1, 2 and 3 members in one run, each member a JVM of
 * its own ({@link StickyNode}) on 127.0.0.1. For each member count, on the same members, in this
 * order (interleaved, because the machine is shared and its load drifts): raw Hazelcast's
 * entry-processor claim ({@link RawHazelcast}, after a warm-up), the sticky table's {@code
 * bindIfAbsent} of {@code count} IMSIs (every member binding its share at once, until the map holds
 * them all), raw {@code setAsync}, {@code putIfAbsentAsync}, the claim with an entry listener on
 * every member, the claim again (and with an asynchronous backup), and synchronous {@code set} (of
 * {@code count / 20} keys); each with its rate and every member's used heap per entry after full
 * GCs. Then the ratios of the table to each, and the lag as traffic sees it — from a bind on the
 * first member to the first lookup on the last that gives the same real (both ends stamped with the
 * host's monotonic clock) — on the idle cluster, during the full-rate fill, and during a fill at
 * half the table's measured rate. Not a test ({@code benchmarks/cluster/run.sh} runs it):
 *
 * <pre>java -cp &lt;test classpath&gt; io.switchboard.cluster.StickyClusterBenchmark \
 *     [count [member -Xmx [member counts, default 1,2,3 [short]]]]</pre>
 */
public final class StickyClusterBenchmark {

    private static final int SAMPLES = 200;

    private StickyClusterBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        String heap = args.length > 1 ? args[1] : "1536m";
        System.out.printf("%d bindings (IMSI keys, 16 reals), members in separate JVMs (-Xmx%s, %s),"
                + " %d lag samples; raw Hazelcast on the same members, map configuration, keys and values%n",
                count, heap, StickyNodeProcess.collector(), SAMPLES);
        String counts = args.length > 2 ? args[2] : "1,2,3";
        // "short": only the claim before and after and the table (quick A/B comparisons of table versions).
        boolean full = args.length <= 3 || !args[3].equals("short");
        for (String members : counts.split(",")) {
            run(Integer.parseInt(members), count, heap, full);
        }
    }

    /** One member count: the project's bindings between raw Hazelcast runs (interleaved: the machine is shared). */
    private static void run(int memberCount, int count, String heap, boolean full) throws Exception {
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
            System.out.printf("%n== %d member%s (%s), load average %s%n", memberCount, memberCount == 1 ? "" : "s",
                    java.time.Instant.now(), loadAverage());
            System.out.printf("%-34s %11s  %s%n", "", "per second", "heap B/entry, each member");
            // Fresh JVMs: the first run of anything is the JIT's. Warm Hazelcast's paths up first.
            raw(nodes, "claim.warm-up", count / 5, 512);
            Raw claimBefore = raw(nodes, "claim", count, 512);

            StickyNodeProcess last = nodes.get(memberCount - 1);
            long[] heapBefore = heaps(nodes);
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
            double rate = Long.parseLong(applied[1]) >= total ? count / seconds : Double.NaN;
            // Replicas: entry events are not flow-controlled, so a replica may trail or miss some.
            StringBuilder replicas = new StringBuilder();
            for (int m = 0; m < memberCount; m++) {
                StickyNodeProcess n = nodes.get(m);
                n.send("await-replica " + total + " 60");
                String[] replica = n.answer(120).split(" ");
                long missing = total - Long.parseLong(replica[1]);
                replicas.append(m == 0 ? "" : ", ").append(n.name()).append(missing == 0
                        ? String.format(" complete %.1f s after the start", (Long.parseLong(replica[0]) - start) / 1e9)
                        : " missing " + missing);
            }
            String tableHeap = perEntry(heapBefore, heaps(nodes), total);
            System.out.printf("%-34s %11.0f  %s%n", "sticky table bindIfAbsent (512)", rate, tableHeap);
            System.out.printf("        map holds %s of %d; replicas: %s%n", applied[1], total, replicas);

            if (!full) {
                Raw after = raw(nodes, "claim.after", count, 512);
                System.out.printf("  ratio table / raw claim (mean of before and after) %.2f%n",
                        rate / ((claimBefore.rate + after.rate) / 2));
                if (memberCount > 1) {
                    System.out.printf("  lag, bound on %s, seen (same real) by a lookup on %s: p50 / p99 / max%n",
                            first.name(), last.name());
                    System.out.printf("    idle                         %s%n", percentiles(idleLag));
                    System.out.printf("    full load                    %s%n", percentiles(loadLag));
                }
                return;
            }
            Raw setAsync = raw(nodes, "setAsync", count, 1000);
            Raw putIfAbsent = raw(nodes, "putIfAbsent", count, 512);
            Raw listened = memberCount == 1 ? null : rawListened(nodes, count);
            Raw claimAfter = raw(nodes, "claim.after", count, 512);
            if (memberCount > 1) {
                raw(nodes, "claim.async-backup", count, 512); // what an asynchronous backup would give
            }
            Raw set = raw(nodes, "set", count / 20, 1);

            // Lag at half the table's full rate, on keys of their own.
            long[] halfLag = null;
            if (memberCount > 1) {
                int from = count + 1_000;
                long perMember = Math.max(1, (long) (rate / 2 / memberCount));
                for (int m = 0; m < memberCount; m++) {
                    nodes.get(m).ask("fill-async " + (from + m) + " " + memberCount + " " + (from + count / 5)
                            + " " + perMember);
                }
                halfLag = sampleLag(first, last, count + 2 * SAMPLES);
                for (StickyNodeProcess n : nodes) {
                    n.send("fill-wait");
                    n.answer(1_800);
                }
            }
            double claims = (claimBefore.rate + claimAfter.rate) / 2;
            System.out.printf("  ratio table / raw claim (mean of before and after) %.2f, / setAsync %.2f,"
                    + " / putIfAbsent %.2f, / set %.2f%n", rate / claims, rate / setAsync.rate,
                    rate / putIfAbsent.rate, rate / set.rate);
            if (listened != null) {
                System.out.printf("  ratio table / raw claim with a listener with values on every member %.2f%n",
                        rate / listened.rate);
                System.out.printf("  lag, bound on %s, seen (same real) by a lookup on %s:"
                        + " p50 / p99 / max%n", first.name(), last.name());
                System.out.printf("    idle                         %s%n", percentiles(idleLag));
                System.out.printf("    full load                    %s%n", percentiles(loadLag));
                System.out.printf("    half the full rate           %s%n", percentiles(halfLag));
            }
        } finally {
            nodes.forEach(StickyNodeProcess::kill);
        }
    }

    /** A raw Hazelcast run: its rate and its heap per entry. */
    private record Raw(double rate, String heap) {
    }

    private static Raw raw(List<StickyNodeProcess> nodes, String op, int count, int window) {
        long[] before = heaps(nodes);
        long start = System.nanoTime();
        for (int m = 0; m < nodes.size(); m++) {
            nodes.get(m).ask("raw-fill " + op + " " + m + " " + nodes.size() + " " + count + " " + window);
        }
        for (StickyNodeProcess n : nodes) {
            n.send("raw-wait");
            String took = n.answer(1_800);
            if (took.startsWith("failed")) {
                throw new IllegalStateException(n.name() + ": " + took);
            }
        }
        double rate = count / ((System.nanoTime() - start) / 1e9);
        long size = Long.parseLong(nodes.get(0).ask("raw-size " + op));
        String heap = perEntry(before, heaps(nodes), size);
        System.out.printf("%-34s %11.0f  %s%n", "raw " + op + (window > 1 ? " (" + window + ")" : ""), rate, heap);
        nodes.get(0).ask("raw-destroy " + op);
        return new Raw(rate, heap);
    }

    /** The claim with what the table adds on the owner's side: an entry listener with values on every member. */
    private static Raw rawListened(List<StickyNodeProcess> nodes, int count) {
        for (StickyNodeProcess n : nodes) {
            n.ask("raw-listen claim.listened");
        }
        return raw(nodes, "claim.listened", count, 512);
    }

    private static long[] heaps(List<StickyNodeProcess> nodes) {
        // Five full GCs of a 1.5 GB heap: minutes on a machine loaded by other builds (a 60 s wait failed once).
        return nodes.stream().mapToLong(n -> {
            n.send("heap");
            return Long.parseLong(n.answer(900));
        }).toArray();
    }

    private static String perEntry(long[] before, long[] after, long entries) {
        StringBuilder s = new StringBuilder();
        for (int m = 0; m < before.length; m++) {
            s.append(m == 0 ? "" : " / ").append((after[m] - before[m]) / Math.max(1, entries));
        }
        return s.toString();
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
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
            to.send("stamp-seen " + (offset + s) + " 10.0.0.1:2123");
            long bound = Long.parseLong(from.ask("stamp-bind " + (offset + s) + " 10.0.0.1:2123"));
            lagMicros[s] = Math.max(0, Long.parseLong(to.answer()) - bound) / 1_000;
        }
        return lagMicros;
    }
}
