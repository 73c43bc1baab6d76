package io.switchboard.director.gtp;

import io.switchboard.director.NodeSlot;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reals' own requests that {@code gtp-inspect} relayed to requesters and that wait for their
 * answers. Each went out under a sequence number of the director's own space toward requesters
 * (each side's space stays its own) and is found again by it when the answer comes, or by the real's
 * numbering when the real retransmits. Shared by the event loops of a virtual server.
 *
 * <p>In a cluster every node relays from the same director address (its port 2123), so a requester
 * sees the nodes as one peer: their sequence numbers carry the node's slot in their top bits
 * ({@link NodeSlot#compose}) and two nodes never relay two requests under one number, which the
 * requester would take for a retransmission. That leaves 2^(16 - slot bits) pending relayed requests
 * per node for v0/v1 (1024 with 64 slots), 2^(23 - slot bits) for v2.
 */
final class GtpRelayedRequests {

    /**
     * A relayed request.
     *
     * @param realSender   where the real sent it from (its answer goes back there)
     * @param realSequence the real's own sequence number, restored in the answer
     * @param sequence     the director's sequence number toward the requester
     * @param delete       whether an accepted answer ends the session
     */
    record Relayed(InetSocketAddress realSender, int version, int realSequence, int sequence, GtpSession session,
            boolean delete, long sentNanos) {
    }

    /** A real's request as the real numbered it: its retransmission is the same triple. */
    private record RealTransaction(InetSocketAddress realSender, int version, int sequence) {
    }

    private final Map<Long, Relayed> bySequence = new ConcurrentHashMap<>();
    private final Map<RealTransaction, Relayed> byReal = new ConcurrentHashMap<>();
    private final AtomicInteger nextSequence = new AtomicInteger();
    private volatile NodeSlot slot = NodeSlot.SINGLE;

    /** This node's slot: the top bits of every sequence number from now on. */
    void slot(NodeSlot slot) {
        this.slot = slot;
    }

    boolean isEmpty() {
        return bySequence.isEmpty();
    }

    /** The request pending under the real's own numbering (a retransmission), or null. */
    Relayed pending(InetSocketAddress realSender, int version, int realSequence) {
        return byReal.get(new RealTransaction(realSender, version, realSequence));
    }

    /** Remembers a new relayed request under a director sequence number not pending. */
    Relayed add(InetSocketAddress realSender, int version, int realSequence, GtpSession session, boolean delete,
            long nowNanos) {
        Relayed relayed = new Relayed(realSender, version, realSequence, freeSequence(version), session, delete,
                nowNanos);
        bySequence.put(key(version, relayed.sequence()), relayed);
        byReal.put(new RealTransaction(realSender, version, realSequence), relayed);
        return relayed;
    }

    /** The request an answer with this director sequence completes, no longer pending; or null. */
    Relayed answered(int version, int sequence) {
        Relayed relayed = bySequence.remove(key(version, sequence));
        if (relayed != null) {
            forget(relayed);
        }
        return relayed;
    }

    /** Forgets requests sent longer than {@code timeoutNanos} ago; returns how many. */
    int expire(long nowNanos, long timeoutNanos) {
        int expired = 0;
        for (Relayed relayed : bySequence.values()) {
            if (nowNanos - relayed.sentNanos() > timeoutNanos
                    && bySequence.remove(key(relayed.version(), relayed.sequence()), relayed)) {
                forget(relayed);
                expired++;
            }
        }
        return expired;
    }

    private void forget(Relayed relayed) {
        byReal.remove(new RealTransaction(relayed.realSender(), relayed.version(), relayed.realSequence()), relayed);
    }

    private static long key(int version, int sequence) {
        return ((long) version << 32) | (sequence & 0xFFFF_FFFFL);
    }

    /**
     * A sequence number not pending, this node's slot in its top bits: 16 bits (v0, v1), 23 bits for
     * v2 (TS 29.274 §7.6 reserves the top bit for Command-triggered messages).
     */
    private int freeSequence(int version) {
        int width = version == 2 ? 23 : 16;
        NodeSlot node = slot;
        long space = node.localSpace(width);
        for (long i = 0; i < space; i++) {
            int sequence = (int) node.compose(nextSequence.getAndIncrement(), width);
            if (!bySequence.containsKey(key(version, sequence))) {
                return sequence;
            }
        }
        return (int) node.compose(nextSequence.getAndIncrement(), width); // the whole space pending: reuse the oldest
    }
}
