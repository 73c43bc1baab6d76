package io.switchboard.cluster;

import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The packet path's read of a clustered sticky table: a lookup hit in the node's replica of a million
 * IMSI bindings, in a scattered order (each a likely cache miss, as among a million subscribers).
 * {@code flatReplica} is the table's {@link Replica} (the key packed to TBCD in place, one probe of a
 * flat array, the binding by id); {@code objectReplica} is the replica it replaced, a
 * {@code ConcurrentHashMap<StickyKey, ...>} of an object holding the binding and its time (what
 * {@code LocalBinding} was), measured in the same run as the baseline. In the benchmarks module but
 * in the cluster's package, for the package-private {@code Replica}.
 *
 * <pre>java -jar benchmarks/target/benchmarks.jar ReplicaLookupBenchmark -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
public class ReplicaLookupBenchmark {

    private static final int SUBSCRIBERS = 1_000_000;
    /** A stride coprime with the count: consecutive lookups land far apart. */
    private static final int STRIDE = 7_919;
    private static final StickyKind IMSI = StickyKind.of("imsi", StickyKind.Format.TEXT);

    /** The object replica's entry, as {@code LocalBinding} was: the binding and its written time. */
    static final class Held {
        final StickyBinding binding;
        volatile long writtenNanos;

        Held(StickyBinding binding, long writtenNanos) {
            this.binding = binding;
            this.writtenNanos = writtenNanos;
        }
    }

    /** The lookups' keys: equal to the stored ones but other objects, as a key parsed from a packet is. */
    private StickyKey[] keys;
    private Replica replica;
    private ConcurrentHashMap<StickyKey, Held> objects;
    private int next;

    @Setup
    public void fill() {
        StickyBinding[] reals = new StickyBinding[16];
        for (int i = 0; i < reals.length; i++) {
            reals[i] = new StickyBinding("pgw", "10.0.0." + (i + 1) + ":2123");
        }
        keys = new StickyKey[SUBSCRIBERS];
        replica = new Replica(0);
        objects = new ConcurrentHashMap<>();
        for (int i = 0; i < SUBSCRIBERS; i++) {
            byte[] digits = ("26242" + (1_000_000_000L + i)).getBytes(StandardCharsets.US_ASCII);
            StickyKey stored = StickyKey.of(IMSI, digits.clone());
            keys[i] = StickyKey.of(IMSI, digits);
            long entry = replica.entry(reals[i % reals.length], 1_000_000L * i);
            replica.update(Replica.mapKey(stored), current -> entry);
            objects.put(stored, new Held(reals[i % reals.length], 1_000_000L * i));
        }
    }

    private StickyKey nextKey() {
        next = (next + STRIDE) % SUBSCRIBERS;
        return keys[next];
    }

    @Benchmark
    public StickyBinding flatReplica() {
        long entry = replica.get(nextKey());
        return entry == 0 ? null : replica.binding(entry);
    }

    @Benchmark
    public StickyBinding objectReplica() {
        Held held = objects.get(nextKey());
        return held == null ? null : held.binding;
    }
}
