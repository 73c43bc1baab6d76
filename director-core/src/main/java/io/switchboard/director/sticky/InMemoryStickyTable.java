package io.switchboard.director.sticky;

import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The single-node sticky table: a concurrent map with an idle timestamp per entry and a bound on
 * its size. When full, new keys are not bound (counted as {@code refusedFull}); they still reach a
 * real through the predictor, and a consistent-hash farm still sends them to the same one.
 */
public final class InMemoryStickyTable implements StickyTable {

    private final String name;
    private final long idleNanos;
    private final int maxEntries;
    private final ConcurrentHashMap<StickyKey, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bound = new LongAdder();
    private final LongAdder expired = new LongAdder();
    private final LongAdder refusedFull = new LongAdder();

    private static final class Entry {
        final StickyBinding binding;
        volatile long lastUsedNanos;

        Entry(StickyBinding binding, long now) {
            this.binding = binding;
            this.lastUsedNanos = now;
        }
    }

    public InMemoryStickyTable(String name, Duration idle, int maxEntries) {
        if (idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("idle must be positive");
        }
        this.name = name;
        this.idleNanos = idle.toNanos();
        this.maxEntries = maxEntries;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public StickyBinding lookup(StickyKey key, long nowNanos) {
        Entry e = entries.get(key);
        if (e == null || isIdle(e, nowNanos)) {
            misses.increment();
            return null;
        }
        e.lastUsedNanos = nowNanos;
        hits.increment();
        return e.binding;
    }

    @Override
    public StickyBinding bindIfAbsent(StickyKey key, StickyBinding binding, long nowNanos) {
        // A key never bound (the usual new binding) is put without the compute below, whose lambda
        // and result array cost a new binding about 60 bytes more than its entry. The size is counted
        // after the put, as racy across keys as the compute's check is.
        if (size.get() < maxEntries && !entries.containsKey(key)
                && entries.putIfAbsent(key, new Entry(binding, nowNanos)) == null) {
            size.incrementAndGet();
            bound.increment();
            return binding;
        }
        Entry[] created = new Entry[1];
        Entry holding = entries.compute(key, (k, existing) -> {
            if (existing != null && !isIdle(existing, nowNanos)) {
                return existing;
            }
            if (existing == null && size.get() >= maxEntries) {
                return null;
            }
            if (existing == null) {
                size.incrementAndGet();
            }
            created[0] = new Entry(binding, nowNanos);
            return created[0];
        });
        if (holding == null) {
            refusedFull.increment();
            return binding;
        }
        if (created[0] != null) {
            bound.increment();
        }
        return holding.binding;
    }

    @Override
    public StickyBinding rebind(StickyKey key, StickyBinding expected, StickyBinding replacement, long nowNanos) {
        boolean[] replaced = new boolean[1];
        Entry holding = entries.computeIfPresent(key, (k, existing) -> {
            if (!existing.binding.equals(replacement)
                    && (existing.binding.equals(expected) || isIdle(existing, nowNanos))) {
                replaced[0] = true;
                return new Entry(replacement, nowNanos);
            }
            return existing;
        });
        if (holding == null) {
            return bindIfAbsent(key, replacement, nowNanos);
        }
        if (replaced[0]) {
            bound.increment();
        }
        return holding.binding;
    }

    @Override
    public boolean remove(StickyKey key) {
        if (entries.remove(key) != null) {
            size.decrementAndGet();
            return true;
        }
        return false;
    }

    @Override
    public int removeBoundTo(String farm, String real) {
        StickyBinding target = new StickyBinding(farm, real);
        int removed = 0;
        for (Map.Entry<StickyKey, Entry> e : entries.entrySet()) {
            // Conditional removal: a binding changed meanwhile by another loop stays.
            if (e.getValue().binding.equals(target) && entries.remove(e.getKey(), e.getValue())) {
                size.decrementAndGet();
                removed++;
            }
        }
        return removed;
    }

    @Override
    public long countBoundTo(String farm, String real, long nowNanos) {
        StickyBinding target = new StickyBinding(farm, real);
        long count = 0;
        for (Entry e : entries.values()) {
            if (e.binding.equals(target) && !isIdle(e, nowNanos)) {
                count++;
            }
        }
        return count;
    }

    @Override
    public void expire(long nowNanos) {
        for (Iterator<Map.Entry<StickyKey, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<StickyKey, Entry> e = it.next();
            if (isIdle(e.getValue(), nowNanos) && entries.remove(e.getKey(), e.getValue())) {
                size.decrementAndGet();
                expired.increment();
            }
        }
    }

    @Override
    public void forEachLive(long nowNanos, LiveBinding action) {
        entries.forEach((key, e) -> {
            if (!isIdle(e, nowNanos)) {
                action.accept(key, e.binding, Math.max(0, nowNanos - e.lastUsedNanos));
            }
        });
    }

    /**
     * Puts back a binding unused for {@code idleNanos} at {@code nowNanos} (a snapshot read at start),
     * so it expires when it would have; false when it is idle already, the key is bound or the table
     * is full.
     */
    public boolean restore(StickyKey key, StickyBinding binding, long idleNanos, long nowNanos) {
        if (idleNanos > this.idleNanos || size.get() >= maxEntries
                || entries.putIfAbsent(key, new Entry(binding, nowNanos - idleNanos)) != null) {
            return false;
        }
        size.incrementAndGet();
        return true;
    }

    private boolean isIdle(Entry e, long nowNanos) {
        return nowNanos - e.lastUsedNanos > idleNanos;
    }

    @Override
    public long size() {
        return size.get();
    }

    @Override
    public StickyStats stats() {
        return new StickyStats(hits.sum(), misses.sum(), bound.sum(), expired.sum(), refusedFull.sum());
    }
}
