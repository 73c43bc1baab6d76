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

    private BindingValue() {
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
