package io.switchboard.director.radius;

import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Correlated VSA values by subscriber, with a deadline each. The virtual servers of one sticky group
 * share one store (found through their shared table), so what the auth virtual server saw is
 * injected by the acct virtual server.
 */
final class VsaStore {

    private static final Map<StickyTable, VsaStore> BY_TABLE = Collections.synchronizedMap(new WeakHashMap<>());
    private static final int SWEEP_EVERY = 4096;

    private record Entry(byte[] value, long deadline) {
    }

    private final ConcurrentHashMap<StickyKey, Entry> values = new ConcurrentHashMap<>();
    private final AtomicInteger inserts = new AtomicInteger();

    /** The store of the virtual servers sharing {@code table}; a store of its own without a table. */
    static VsaStore of(StickyTable table) {
        return table == null ? new VsaStore() : BY_TABLE.computeIfAbsent(table, t -> new VsaStore());
    }

    void put(StickyKey subscriber, byte[] value, long deadline, long now) {
        values.put(subscriber, new Entry(value, deadline));
        if (inserts.incrementAndGet() % SWEEP_EVERY == 0) {
            values.values().removeIf(e -> e.deadline - now <= 0);
        }
    }

    /** The live value for {@code subscriber}, or null. */
    byte[] get(StickyKey subscriber, long now) {
        Entry e = values.get(subscriber);
        return e == null || e.deadline - now <= 0 ? null : e.value;
    }

    int size() {
        return values.size();
    }
}
