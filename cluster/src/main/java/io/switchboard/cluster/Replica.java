package io.switchboard.cluster;

import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;

/**
 * A {@link HazelcastStickyTable}'s local copy of every binding, as one {@code long} per key: the
 * binding's id in this replica's dictionary of (farm, real) pairs and the time the binding was last
 * written, on this node's monotonic clock. Every IMSI key lives in a {@link FlatLongMap} under its
 * TBCD form (about 25 bytes a binding instead of ~130 in a map of objects); any other key in a
 * {@code ConcurrentHashMap} of boxed values. A lookup hit allocates nothing.
 *
 * <p>Keys are given as the map's keys ({@link #mapKey}): a {@code Long} TBCD IMSI or a
 * {@link StickyKey}; the packet path's two calls take the {@code StickyKey} itself, so that it boxes
 * nothing. Values compare by value where the replica of objects compared entries by identity: two
 * local writes of one key with the same real in the same millisecond are the same entry, which is
 * what every conditional change here means anyway (the binding it holds).
 *
 * <p>An entry: bits 44–63 the binding's id (1 to 2^20 − 1; 0 would be no entry), bits 0–43 the
 * written time in milliseconds since {@code base} (557 years).
 */
final class Replica {

    private static final int TIME_BITS = 44;
    private static final long TIME_MASK = (1L << TIME_BITS) - 1;
    private static final int MAX_ID = (1 << (Long.SIZE - TIME_BITS)) - 1;
    private static final long NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private final FlatLongMap imsis = new FlatLongMap();
    private final ConcurrentHashMap<StickyKey, Long> others = new ConcurrentHashMap<>();
    /** Times are kept from here: well before any time the table will see (catch-ups date entries back by idle / 2). */
    private final long baseNanos;

    /** The (farm, real) pairs bindings point to: a handful, each shared by many keys; never removed. */
    private final ConcurrentHashMap<StickyBinding, Integer> ids = new ConcurrentHashMap<>();
    private volatile StickyBinding[] byId = new StickyBinding[16];
    private int nextId = 1;
    private volatile StickyKind imsiKind;

    Replica(long nowNanos) {
        this.baseNanos = nowNanos - TimeUnit.DAYS.toNanos(800);
    }

    /** The map's form of a key: an IMSI as its TBCD {@code Long} (16 bytes serialized), any other key as itself. */
    static Object mapKey(StickyKey key) {
        long tbcd = Tbcd.imsi(key);
        return tbcd != 0 ? (Object) tbcd : key;
    }

    /** The engine's form of a map key. */
    StickyKey stickyKey(Object mapKey) {
        if (mapKey instanceof Long tbcd) {
            StickyKind kind = imsiKind;
            if (kind == null) {
                imsiKind = kind = StickyKind.named(Tbcd.IMSI_KIND);
            }
            return StickyKey.of(kind, Tbcd.digits(tbcd));
        }
        return (StickyKey) mapKey;
    }

    // ---- entries

    /** The entry for {@code binding} written at {@code writtenNanos}; 0 if this node already knows 2^20 − 1 reals. */
    long entry(StickyBinding binding, long writtenNanos) {
        int id = idOf(binding);
        if (id == 0) {
            return 0;
        }
        return ((long) id << TIME_BITS) | timeBits(writtenNanos);
    }

    /** The same binding, written at another time. */
    long rewritten(long entry, long writtenNanos) {
        return (entry & ~TIME_MASK) | timeBits(writtenNanos);
    }

    /** An entry's time field: milliseconds since {@code base}, held within its 44 bits. */
    private long timeBits(long writtenNanos) {
        return Math.max(0, Math.min(TIME_MASK, (writtenNanos - baseNanos) / NANOS_PER_MILLI));
    }

    StickyBinding binding(long entry) {
        return byId[(int) (entry >>> TIME_BITS)];
    }

    long writtenNanos(long entry) {
        return baseNanos + (entry & TIME_MASK) * NANOS_PER_MILLI;
    }

    /** A test of entries: whether one points to {@code binding} (none does if this node never saw it). */
    LongPredicate holding(StickyBinding binding) {
        Integer id = binding != null ? ids.get(binding) : null;
        if (id == null) {
            return entry -> false;
        }
        long bits = (long) id << TIME_BITS;
        return entry -> (entry & ~TIME_MASK) == bits;
    }

    static boolean sameBinding(long entry, long other) {
        return (entry & ~TIME_MASK) == (other & ~TIME_MASK);
    }

    /**
     * Whether {@code entry} was certainly written before {@code nanos}: times are kept to the
     * millisecond, so an entry of the same millisecond counts as not before.
     */
    boolean writtenBefore(long entry, long nanos) {
        return writtenNanos(entry) + NANOS_PER_MILLI <= nanos;
    }

    private int idOf(StickyBinding binding) {
        Integer id = ids.get(binding);
        return id != null ? id : register(binding);
    }

    private synchronized int register(StickyBinding binding) {
        Integer known = ids.get(binding);
        if (known != null) {
            return known;
        }
        if (nextId > MAX_ID) {
            return 0;
        }
        int id = nextId++;
        StickyBinding[] table = byId;
        if (id >= table.length) {
            table = Arrays.copyOf(table, Math.min(MAX_ID + 1, table.length * 2));
        } else {
            table = table.clone();
        }
        table[id] = binding;
        byId = table; // published before the id: a reader that has an entry with this id finds it
        ids.put(binding, id);
        return id;
    }

    // ---- the packet path: keys as the engine has them, nothing boxed

    /** {@code key}'s entry, 0 if none. */
    long get(StickyKey key) {
        long tbcd = Tbcd.imsi(key);
        if (tbcd != 0) {
            return imsis.get(tbcd);
        }
        Long entry = others.get(key);
        return entry != null ? entry : 0;
    }

    boolean compareAndSet(StickyKey key, long expected, long update) {
        long tbcd = Tbcd.imsi(key);
        return tbcd != 0 ? imsis.compareAndSet(tbcd, expected, update) : others.replace(key, expected, update);
    }

    // ---- everything else: keys in the map's form

    /**
     * Sets the key's entry to {@code change} of its current one (0: none), atomically for the key; 0
     * removes it. {@code change} must not call the replica. Returns the new entry.
     */
    long update(Object mapKey, LongUnaryOperator change) {
        if (mapKey instanceof Long tbcd) {
            return imsis.update(tbcd, change);
        }
        Long result = others.compute((StickyKey) mapKey, (k, current) -> {
            long now = current != null ? current : 0;
            long next = change.applyAsLong(now);
            return next == 0 ? null : next == now ? current : Long.valueOf(next);
        });
        return result != null ? result : 0;
    }

    /** Removes the key's entry if it is {@code expected}. */
    boolean remove(Object mapKey, long expected) {
        if (mapKey instanceof Long tbcd) {
            return imsis.compareAndSet(tbcd, expected, 0);
        }
        return others.remove(mapKey, expected);
    }

    /** Removes the key's entry; returns it (0: there was none). */
    long remove(Object mapKey) {
        long[] old = {0};
        update(mapKey, current -> {
            old[0] = current;
            return 0;
        });
        return old[0];
    }

    /** Removes the entries {@code remove} accepts; returns how many. */
    int removeIf(LongPredicate remove) {
        int removed = imsis.removeIf(remove);
        for (var e : others.entrySet()) {
            if (remove.test(e.getValue()) && others.remove(e.getKey(), e.getValue())) {
                removed++;
            }
        }
        return removed;
    }

    interface EntryAction {
        void accept(Object mapKey, long entry);
    }

    /** Every entry, with its key in the map's form (an IMSI's boxed: for admin reads and bulk removals). */
    void forEach(EntryAction action) {
        imsis.forEach((tbcd, entry) -> action.accept(tbcd, entry));
        others.forEach((key, entry) -> action.accept(key, entry));
    }

    /** How many entries {@code count} accepts; boxes nothing. */
    long count(LongPredicate count) {
        long[] n = {0};
        imsis.forEach((tbcd, entry) -> {
            if (count.test(entry)) {
                n[0]++;
            }
        });
        for (Long entry : others.values()) {
            if (count.test(entry)) {
                n[0]++;
            }
        }
        return n[0];
    }

    long size() {
        return imsis.size() + others.mappingCount();
    }

    void clear() {
        imsis.clear();
        others.clear();
    }
}
