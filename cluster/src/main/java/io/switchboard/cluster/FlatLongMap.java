package io.switchboard.cluster;

import io.switchboard.director.sticky.KeyHash;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.StampedLock;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;

/**
 * A concurrent map from {@code long} keys to {@code long} values, both never 0, held in flat arrays:
 * 16 bytes a slot and no object per entry, where a {@code ConcurrentHashMap<StickyKey, ...>} spends
 * about 130 bytes (node, key object, its bytes, value object) on every binding of a replica.
 *
 * <p>The keys are spread over {@value #SEGMENTS} segments by the top bits of their hash. Each segment
 * is one array, key and value side by side ({@code slots[2i]}, {@code slots[2i + 1]}; key 0 marks an
 * empty slot), open addressing with linear probing, and removal by backward shift, so no tombstones
 * build up under churn. Writers take the segment's write lock; {@link #get} takes none: it reads
 * under a {@link StampedLock} optimistic stamp and only if a writer intervened reads again under
 * the read lock. A reader can therefore see a half-moved array, but only ever returns what it read
 * while no writer held the segment. The array grows by half when it is {@value #MAX_LOAD_PERCENT} %
 * full (load between 53 and 80 %: 20 to 30 bytes an entry).
 */
final class FlatLongMap {

    /** A power of two: the segment is the hash's top bits. */
    private static final int SEGMENTS = 64;
    private static final int SEGMENT_SHIFT = Long.SIZE - Integer.numberOfTrailingZeros(SEGMENTS);
    private static final int INITIAL_SLOTS = 16;
    private static final int MAX_LOAD_PERCENT = 80;

    private final Segment[] segments = new Segment[SEGMENTS];
    private final AtomicLong size = new AtomicLong();

    FlatLongMap() {
        for (int i = 0; i < SEGMENTS; i++) {
            segments[i] = new Segment();
        }
    }

    /** The value of {@code key}, or 0 if it has none. */
    long get(long key) {
        long hash = hash(key);
        Segment s = segments[(int) (hash >>> SEGMENT_SHIFT)];
        long stamp = s.tryOptimisticRead();
        long value = find(s.slots, hash, key);
        if (s.validate(stamp)) {
            return value;
        }
        stamp = s.readLock();
        try {
            return find(s.slots, hash, key);
        } finally {
            s.unlockRead(stamp);
        }
    }

    /**
     * Sets {@code key}'s value to {@code change} of its current one (0: none), atomically for that
     * key; a result of 0 removes the key. {@code change} runs under the segment's lock and must not
     * call this map. Returns the new value.
     */
    long update(long key, LongUnaryOperator change) {
        long hash = hash(key);
        Segment s = segments[(int) (hash >>> SEGMENT_SHIFT)];
        long stamp = s.writeLock();
        try {
            int slot = slotOf(s.slots, hash, key);
            long current = slot >= 0 ? s.slots[2 * slot + 1] : 0;
            long next = change.applyAsLong(current);
            if (next == current) {
                return next;
            }
            if (next == 0) {
                s.delete(slot);
                size.decrementAndGet();
            } else if (slot >= 0) {
                s.slots[2 * slot + 1] = next;
            } else {
                s.insert(hash, key, next);
                size.incrementAndGet();
            }
            return next;
        } finally {
            s.unlockWrite(stamp);
        }
    }

    /** Replaces {@code key}'s value with {@code update} only if it is {@code expected} (0: absent). */
    boolean compareAndSet(long key, long expected, long update) {
        boolean[] set = {false};
        update(key, current -> {
            set[0] = current == expected;
            return set[0] ? update : current;
        });
        return set[0];
    }

    /** Removes every entry whose value {@code remove} accepts (under each segment's lock in turn); returns how many. */
    int removeIf(LongPredicate remove) {
        int removed = 0;
        for (Segment s : segments) {
            long stamp = s.writeLock();
            try {
                int i = 0;
                while (i < s.slots.length / 2) {
                    if (s.slots[2 * i] != 0 && remove.test(s.slots[2 * i + 1])) {
                        s.delete(i);
                        size.decrementAndGet();
                        removed++;
                        // The backward shift may have moved a later entry into slot i: look at it again.
                        // (One moved from the array's start to its end is looked at twice: harmless.)
                    } else {
                        i++;
                    }
                }
            } finally {
                s.unlockWrite(stamp);
            }
        }
        return removed;
    }

    interface EntryAction {
        void accept(long key, long value);
    }

    /**
     * Calls {@code action} for every entry, a segment at a time from a copy taken under its read
     * lock: the action may change the map (what it changes in later segments it may see or not).
     */
    void forEach(EntryAction action) {
        for (Segment s : segments) {
            long[] copy;
            long stamp = s.readLock();
            try {
                copy = s.slots.clone();
            } finally {
                s.unlockRead(stamp);
            }
            for (int i = 0; i < copy.length; i += 2) {
                if (copy[i] != 0) {
                    action.accept(copy[i], copy[i + 1]);
                }
            }
        }
    }

    long size() {
        return size.get();
    }

    void clear() {
        for (Segment s : segments) {
            long stamp = s.writeLock();
            try {
                size.addAndGet(-s.count);
                s.slots = new long[2 * INITIAL_SLOTS];
                s.count = 0;
            } finally {
                s.unlockWrite(stamp);
            }
        }
    }

    /** The value in {@code slots} for {@code key}, 0 if none. Terminates on any array contents. */
    private static long find(long[] slots, long hash, long key) {
        int capacity = slots.length / 2;
        int i = home(hash, capacity);
        for (int probes = 0; probes < capacity; probes++) {
            long k = slots[2 * i];
            if (k == key) {
                return slots[2 * i + 1];
            }
            if (k == 0) {
                return 0;
            }
            i = i + 1 == capacity ? 0 : i + 1;
        }
        return 0;
    }

    /** The slot holding {@code key}, or -1. */
    private static int slotOf(long[] slots, long hash, long key) {
        int capacity = slots.length / 2;
        int i = home(hash, capacity);
        while (slots[2 * i] != 0) { // the table is never full
            if (slots[2 * i] == key) {
                return i;
            }
            i = i + 1 == capacity ? 0 : i + 1;
        }
        return -1;
    }

    /** The slot a hash probes first: its low 32 bits scaled to the capacity (no power of two needed). */
    private static int home(long hash, int capacity) {
        return (int) (((hash & 0xFFFF_FFFFL) * capacity) >>> 32);
    }

    /** MurmurHash3's 64-bit finaliser: TBCD IMSIs differ in a few nibbles, the slots must not. */
    static long hash(long key) {
        return KeyHash.mix(key);
    }

    /** One lock and one array; the lock is the segment itself (one object fewer). */
    private static final class Segment extends StampedLock {

        long[] slots = new long[2 * INITIAL_SLOTS];
        int count;

        void insert(long hash, long key, long value) {
            if ((count + 1) * 100L > (long) (slots.length / 2) * MAX_LOAD_PERCENT) {
                grow();
            }
            put(slots, hash, key, value);
            count++;
        }

        private void grow() {
            long[] old = slots;
            long[] bigger = new long[2 * (old.length / 2 + old.length / 4)];
            for (int i = 0; i < old.length; i += 2) {
                if (old[i] != 0) {
                    put(bigger, hash(old[i]), old[i], old[i + 1]);
                }
            }
            slots = bigger;
        }

        private static void put(long[] slots, long hash, long key, long value) {
            int capacity = slots.length / 2;
            int i = home(hash, capacity);
            while (slots[2 * i] != 0) {
                i = i + 1 == capacity ? 0 : i + 1;
            }
            slots[2 * i + 1] = value;
            slots[2 * i] = key;
        }

        /**
         * Empties {@code hole} and shifts back the entries after it that probing would no longer
         * reach: an entry may fill the hole if the hole lies between its home slot and where it is.
         */
        void delete(int hole) {
            int capacity = slots.length / 2;
            int j = hole;
            while (true) {
                j = j + 1 == capacity ? 0 : j + 1;
                long k = slots[2 * j];
                if (k == 0) {
                    break;
                }
                int home = home(hash(k), capacity);
                int fromHome = j >= home ? j - home : j - home + capacity;
                int fromHole = j >= hole ? j - hole : j - hole + capacity;
                if (fromHome >= fromHole) {
                    slots[2 * hole] = k;
                    slots[2 * hole + 1] = slots[2 * j + 1];
                    hole = j;
                }
            }
            slots[2 * hole] = 0;
            slots[2 * hole + 1] = 0;
            count--;
        }
    }
}
