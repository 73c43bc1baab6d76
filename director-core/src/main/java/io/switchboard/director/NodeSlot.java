package io.switchboard.director;

/**
 * This node's slot in its cluster: an index unique among the live members, held for as long as the
 * node lives, so that plug-ins can make the identifiers they allocate (GTP TEIDs, sequence numbers)
 * unique across nodes without talking to each other. A single node has {@link #SINGLE}: index 0 of
 * 1, no bits, the whole space its own.
 *
 * <p>The contract: every member of one cluster has the same {@code capacity} and a distinct
 * {@code index} in {@code 0..capacity-1}. A plug-in that allocates values of {@code width} bits puts
 * the index in the top {@link #bits()} bits ({@link #compose}) and counts in the rest; values
 * allocated by two live nodes then never collide. A node that restarts may get another index; the
 * values it allocated before are gone with its state anyway.
 *
 * @param index    this node's slot, 0..capacity-1
 * @param capacity how many slots the cluster has (a power of two): the most members it can hold
 */
public record NodeSlot(int index, int capacity) {

    /** Not clustered: the only node. */
    public static final NodeSlot SINGLE = new NodeSlot(0, 1);

    public NodeSlot {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        if (index < 0 || index >= capacity) {
            throw new IllegalArgumentException("index " + index + " not in 0.." + (capacity - 1));
        }
    }

    /** How many top bits of an identifier the index takes: log2(capacity), 0 on a single node. */
    public int bits() {
        return Integer.numberOfTrailingZeros(capacity);
    }

    /**
     * A value of {@code width} bits (1..63) unique to this node: the index in the top {@link #bits()}
     * bits, the low {@code width - bits()} bits of {@code local} below it. For 32-bit TEIDs counted
     * per node: {@code (int) slot.compose(counter++, 32)}.
     */
    public long compose(long local, int width) {
        if (width <= bits() || width > 63) {
            throw new IllegalArgumentException("width must be " + (bits() + 1) + "..63: " + width);
        }
        int low = width - bits();
        return ((long) index << low) | (local & ((1L << low) - 1));
    }

    /** How many distinct local values fit below the index in {@code width} bits. */
    public long localSpace(int width) {
        return 1L << (width - bits());
    }
}
