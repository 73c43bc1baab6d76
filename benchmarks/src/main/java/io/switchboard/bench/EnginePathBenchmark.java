package io.switchboard.bench;

import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.pending.PendingTable;
import io.switchboard.director.real.Farms;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-packet engine path — sticky lookup, predictor, pending insert (and the matching remove an
 * answer does) — against a plain {@link HashMap} lookup of the same keys as the baseline. Keys are
 * IMSIs, 100,000 subscribers, read in a fixed pseudo-random order.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EnginePathBenchmark {

    private static final StickyKind IMSI = StickyKind.of("imsi", StickyKind.Format.TEXT);
    private static final int SUBSCRIBERS = 100_000;

    @Param({"roundrobin", "hash"})
    String predictor;

    private StickyKey[] keys;
    private Map<StickyKey, StickyBinding> baseline;
    private RealSelector stickySelector;
    private RealSelector predictorOnly;
    private PendingTable<Object> pending;
    private int next;
    private long transactionId;

    @Setup
    public void setUp() throws Exception {
        FarmConfig farm = new FarmConfig("ggsn", PredictorKind.fromConfigName(predictor).orElseThrow(),
                new FailureDetection(8, 2, Duration.ofSeconds(60)),
                List.of(real("127.0.0.2", 3), real("127.0.0.3", 1), real("127.0.0.4", 2)), Optional.empty());
        Farms farms = new Farms(Map.of("ggsn", farm));
        InMemoryStickyTable table = new InMemoryStickyTable("imsi", Duration.ofHours(1), 2 * SUBSCRIBERS);
        stickySelector = new RealSelector(farms, farms.farm("ggsn"), table);
        predictorOnly = new RealSelector(farms, farms.farm("ggsn"), null);
        baseline = new HashMap<>();
        keys = new StickyKey[SUBSCRIBERS];
        for (int i = 0; i < SUBSCRIBERS; i++) {
            keys[i] = StickyKey.of(IMSI, ("26242" + (1_000_000_000L + i)).getBytes(StandardCharsets.US_ASCII));
            Selection s = stickySelector.select(keys[i], 0);
            baseline.put(keys[i], new StickyBinding(s.real().farm(), s.real().id()));
        }
        pending = new PendingTable<>(1 << 20, Duration.ofSeconds(2).toNanos(), v -> { });
    }

    private static RealConfig real(String address, int weight) throws Exception {
        return new RealConfig(InetAddress.getByName(address), 2123, weight, OptionalInt.empty(), true);
    }

    private StickyKey nextKey() {
        next = (next + 7919) % SUBSCRIBERS; // a prime stride: no cache-friendly sequential walk
        return keys[next];
    }

    @Benchmark
    public Object baselineHashMapLookup() {
        return baseline.get(nextKey());
    }

    @Benchmark
    public Object stickyHitPath() {
        Selection s = stickySelector.select(nextKey(), 1);
        long tx = transactionId++;
        pending.put(s.real().slot(), tx, s, 1);
        return pending.remove(s.real().slot(), tx);
    }

    @Benchmark
    public Object predictorPath() {
        Selection s = predictorOnly.select(nextKey(), 1);
        long tx = transactionId++;
        pending.put(s.real().slot(), tx, s, 1);
        return pending.remove(s.real().slot(), tx);
    }
}
