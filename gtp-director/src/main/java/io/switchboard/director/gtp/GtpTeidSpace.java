package io.switchboard.director.gtp;

import io.switchboard.director.NodeSlot;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

/**
 * The director's TEID space: pairs of 32-bit TEIDs, the even one for the real (the requester's TEID-C
 * as the real knows it), the odd one above it for the requester. This node's cluster slot is in the
 * top bits ({@link NodeSlot#compose}), so no other live node allocates them; never 0, never a pair in
 * use. A counter of pairs, shared by the event loops; a pair is looked up before it is handed out
 * only when it may be in use: once the counter has gone round, or when other nodes write into the
 * session table (a node that restarts with a slot that was another's skips the sessions that node
 * left there) or it held sessions at start (a lone node's snapshot). Alone, from empty tables and
 * before the first wrap every pair is new: no lookup in a table of millions for each create.
 */
final class GtpTeidSpace {

    private final AtomicInteger next;
    /** Set once {@link #next} has gone round: from then on a pair may still be in use. */
    private volatile boolean wrapped;
    private volatile NodeSlot slot = NodeSlot.SINGLE;
    private final BooleanSupplier foreignPairs;
    private final LongPredicate inUse;

    /**
     * @param foreignPairs whether pairs this node did not allocate may be in the same tables (other
     *                     nodes allocate into them, or they held sessions at start)
     * @param inUse        whether the pair (its even TEID) is a session's or a pending create's
     */
    GtpTeidSpace(BooleanSupplier foreignPairs, LongPredicate inUse) {
        this(1, foreignPairs, inUse);
    }

    /** Counting from {@code first} (tests start near the wrap). */
    GtpTeidSpace(int first, BooleanSupplier foreignPairs, LongPredicate inUse) {
        this.next = new AtomicInteger(first);
        this.foreignPairs = foreignPairs;
        this.inUse = inUse;
    }

    /** This node's slot, in the top bits of every pair from now on. */
    void attach(NodeSlot slot) {
        this.slot = slot;
    }

    /** A pair of director TEIDs; the even one is returned (the odd one is {@code pair | 1}). */
    long allocatePair() {
        NodeSlot node = slot;
        while (true) {
            int counted = next.getAndIncrement();
            if (counted <= 0) {
                wrapped = true;
            }
            long teid = node.compose((long) counted << 1, 32);
            if (teid != 0 && (!wrapped && !foreignPairs.getAsBoolean() || !inUse.test(teid))) {
                return teid;
            }
        }
    }
}
