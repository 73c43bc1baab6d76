package io.switchboard.cluster;

/**
 * A sticky table's map value: the binding's real as its cluster-wide index ({@link RealIndex}) and
 * the wall-clock time the partition owner last wrote it, packed in one {@code long} — 16 bytes
 * serialized (Hazelcast's own {@code Long}) instead of a Compact record of two strings (47 bytes),
 * and no per-entry TTL: the owners expire bindings from this time ({@link Expire}).
 *
 * <p>Bits 0–40: milliseconds since {@link #EPOCH_MILLIS} (2^41 ms, 69 years); bits 41–62: the real's
 * index (1 to {@link #MAX_INDEX}); the sign bit stays 0. Wire constant: a cluster is upgraded as a whole.
 */
final class BindingValue {

    /** 2025-01-01T00:00:00Z. */
    static final long EPOCH_MILLIS = 1_735_689_600_000L;
    static final int TIME_BITS = 41;
    static final long TIME_MASK = (1L << TIME_BITS) - 1;
    /** Indexes are 22 bits; 0 means "none". */
    static final int MAX_INDEX = (1 << 22) - 1;

    /** Interned values, direct-mapped by hash ({@link #shared}); a power of two. */
    private static final Long[] SHARED = new Long[8192];

    private BindingValue() {
    }

    /**
     * {@code value} as a {@code Long} that other entries with the same value share. The map stores
     * values as objects, so every entry copy would otherwise hold a 16-byte {@code Long} of its own;
     * the sticky tables write their times to a quantum ({@link #quantumMillis}), so the bindings a
     * member writes within one quantum to one real share one. A miss or a collision only makes a new
     * {@code Long}. The race between threads is benign: a {@code Long} is immutable and safely
     * published through its final field; a lost store is a lost share.
     */
    static Long shared(long value) {
        int slot = (int) FlatLongMap.hash(value) & (SHARED.length - 1);
        Long known = SHARED[slot];
        if (known != null && known == value) {
            return known;
        }
        Long made = value;
        SHARED[slot] = made;
        return made;
    }

    /**
     * The precision of the times a table with this binding life writes: a thousandth of the life, 1 ms
     * to 1 s. A binding is recorded up to that much earlier than it was written, so it may expire that
     * much earlier (for the default 30 min idle, 45 min life: up to 1 s of 45 min).
     */
    static long quantumMillis(long lifeMillis) {
        return Math.max(1, Math.min(1_000, lifeMillis / 1_000));
    }

    static long of(int index, long wallMillis) {
        if (index <= 0 || index > MAX_INDEX) {
            throw new IllegalArgumentException("real index out of range: " + index);
        }
        return ((long) index << TIME_BITS) | ((wallMillis - EPOCH_MILLIS) & TIME_MASK);
    }

    static int index(long value) {
        return (int) (value >>> TIME_BITS);
    }

    static long wallMillis(long value) {
        return EPOCH_MILLIS + (value & TIME_MASK);
    }

    /** Whether a binding written at {@code value}'s time is past its life at {@code nowMillis}. */
    static boolean expired(long value, long lifeMillis, long nowMillis) {
        return nowMillis - wallMillis(value) > lifeMillis;
    }
}
