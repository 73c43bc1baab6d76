package io.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.proxy.MapProxyImpl;
import com.hazelcast.map.listener.EntryAddedListener;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The benchmark's baseline (issue 23): raw Hazelcast operations on the very members, JVM flags and
 * map configuration ({@code sticky.*}: one synchronous backup, binary) that the sticky table uses,
 * with the same keys, values and TTL, so that the table's cost reads as a ratio to what Hazelcast
 * itself does in the same run. Commands of {@link StickyNode}:
 *
 * <pre>
 *   raw-fill OP FROM STRIDE TO WINDOW   OP on keys FROM, FROM+STRIDE, ... below TO, at most WINDOW in
 *                                       flight, on a thread of its own          → "started"
 *   raw-wait                            until it is done                        → its duration in ns
 *   raw-listen OP                       an entry listener with values (doing nothing) on OP's map
 *   raw-size OP / raw-destroy OP        OP's map: size / destroy it
 * </pre>
 * OP: {@code set} (synchronous {@code IMap.set}: one at a time, WINDOW ignored), {@code setAsync},
 * {@code putIfAbsent} ({@code putIfAbsentAsync}, which the proxy has though the interface does not
 * name it) and {@code claim} ({@link TtlClaim}: the claim entry processor the table used before
 * its values became a real index and a time — a small Compact value with Hazelcast's TTL, the issue's
 * baseline — by {@code submitToKey}). Each OP writes a map of its own, {@code sticky.raw-OP}; {@code OP.SUFFIX} is OP
 * on a map of its own again (the same operation measured twice, or with listeners).
 */
final class RawHazelcast {

    private final HazelcastInstance hazelcast;
    private final long ttlMillis;
    private final StickyBinding[] reals = new StickyBinding[16];
    private FutureTask<Long> filler;

    RawHazelcast(HazelcastInstance hazelcast, long ttlMillis) {
        this.hazelcast = hazelcast;
        this.ttlMillis = ttlMillis;
        for (int i = 0; i < reals.length; i++) {
            reals[i] = new StickyBinding("ggsn", "10.0.0." + (i + 1) + ":2123");
        }
    }

    private IMap<StickyKey, StickyBinding> map(String op) {
        return hazelcast.getMap(ClusterMember.STICKY_MAP_PREFIX + "raw-" + op);
    }

    String command(String[] c) {
        switch (c[0]) {
            case "raw-fill":
                String op = c[1].split("\\.")[0];
                int from = Integer.parseInt(c[2]);
                int stride = Integer.parseInt(c[3]);
                int to = Integer.parseInt(c[4]);
                int window = Integer.parseInt(c[5]);
                IMap<StickyKey, StickyBinding> map = map(c[1]);
                filler = new FutureTask<>(() -> fill(map, op, from, stride, to, window));
                new Thread(filler, "raw-filler").start();
                return "started";
            case "raw-wait":
                try {
                    return Long.toString(filler.get());
                } catch (InterruptedException | ExecutionException e) {
                    return "failed " + e;
                }
            case "raw-listen":
                map(c[1]).addEntryListener((EntryAddedListener<StickyKey, StickyBinding>) event -> { }, true);
                return "ok";
            case "raw-size":
                return Integer.toString(map(c[1]).size());
            case "raw-destroy":
                map(c[1]).destroy();
                return "ok";
            default:
                return "unknown command " + c[0];
        }
    }

    private long fill(IMap<StickyKey, StickyBinding> map, String op, int from, int stride, int to, int window) {
        long start = System.nanoTime();
        // The same flow control as StickyNode's fill of the table: poll the count in flight, park 20 us.
        AtomicInteger inFlight = new AtomicInteger();
        for (int i = from; i < to; i += stride) {
            StickyKey key = HazelcastStickyTableTest.imsi(i);
            StickyBinding value = reals[i % reals.length];
            if (op.equals("set")) {
                map.set(key, value, ttlMillis, TimeUnit.MILLISECONDS);
                continue;
            }
            while (inFlight.get() >= window) {
                LockSupport.parkNanos(20_000);
            }
            inFlight.incrementAndGet();
            CompletionStage<?> sent = switch (op) {
                case "setAsync" -> map.setAsync(key, value, ttlMillis, TimeUnit.MILLISECONDS);
                case "putIfAbsent" -> ((MapProxyImpl<StickyKey, StickyBinding>) map)
                        .putIfAbsentAsync(key, value, ttlMillis, TimeUnit.MILLISECONDS);
                case "claim" -> map.submitToKey(key, new TtlClaim(value, ttlMillis));
                default -> throw new IllegalArgumentException(op);
            };
            // Counted down on the completing thread, as the table handles its answers.
            sent.whenCompleteAsync((r, failure) -> inFlight.decrementAndGet(), Runnable::run);
        }
        while (inFlight.get() > 0) {
            LockSupport.parkNanos(20_000);
        }
        return System.nanoTime() - start;
    }
}
