package io.switchboard.director.gtp;

import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.gtp.GtpEndpointRewriter.Endpoint;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The director's TEID space and the primary creates that wait for their answer: which requester a
 * create came from and which real-facing TEID was written into it, so that a retransmission carries
 * the same TEID and a create the engine resends to another real after a refusal (carrying the
 * director's endpoint already) is known by it. Per node: a create is answered on the node that sent it.
 *
 * <p>Director TEIDs come in pairs: the even one for the real (the requester's TEID-C as the real
 * knows it), the odd one above it for the requester. This node's cluster slot is in the top bits, so
 * no other live node allocates them; never 0, never a pair in use (a node that restarts with a slot
 * that was another's skips the sessions that node left in the table).
 */
final class GtpPendingCreates {

    /** The requester of a pending create, before the rewrite. */
    record Pending(Endpoint requester, long sinceNanos) {
    }

    /** A real-facing TEID reserved for a pending create (forgotten if the create is never answered). */
    private record Reserved(long teid, long sinceNanos) {
    }

    private final GtpEndpointRewriter rewriter;
    private final GtpSessions sessions;
    /** By (real slot, director sequence): a retransmission of the create carries the same one. */
    private final Map<Long, Reserved> reserved = new ConcurrentHashMap<>();
    /** v1/v2 creates by the real-facing TEID written into them. */
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    /** GTPv0 creates by TID (GSM 09.60: one TID per context). */
    private final Map<Long, Pending> pendingV0 = new ConcurrentHashMap<>();
    private final AtomicInteger nextTeid = new AtomicInteger(1);
    /** Set once {@link #nextTeid} has gone round: from then on a pair may still be in use. */
    private volatile boolean teidsWrapped;
    private volatile NodeSlot slot = NodeSlot.SINGLE;

    GtpPendingCreates(GtpEndpointRewriter rewriter, GtpSessions sessions) {
        this.rewriter = rewriter;
        this.sessions = sessions;
    }

    void attach(NodeSlot slot) {
        this.slot = slot;
    }

    /** The real-facing TEID for the create under {@code key}, reserved on its first sending. */
    long reserve(long key, long nowNanos) {
        return reserved.computeIfAbsent(key, k -> new Reserved(allocatePair(), nowNanos)).teid();
    }

    /** The create under {@code key} was answered (any answer: a refusal's resend reserves anew). */
    void answered(long key) {
        reserved.remove(key);
    }

    void put(long realFacingTeid, Endpoint requester, long nowNanos) {
        pending.put(realFacingTeid, new Pending(requester, nowNanos));
    }

    void putV0(long tid, Endpoint requester, long nowNanos) {
        pendingV0.put(tid, new Pending(requester, nowNanos));
    }

    void remove(long realFacingTeid) {
        pending.remove(realFacingTeid);
    }

    void removeV0(long tid) {
        pendingV0.remove(tid);
    }

    /**
     * A create that already carries the director's endpoint: the one a refusing real had, resent to
     * another real by the engine. Its requester is the one remembered when it was first rewritten.
     */
    Pending resent(GtpMessageView view) throws DecodeException {
        if (view.version() == 0) {
            return pendingV0.isEmpty() || !rewriter.namesDirector(view) ? null : pendingV0.get(view.v0().tid());
        }
        if (pending.isEmpty()) {
            return null;
        }
        long own = rewriter.directorTeidNamed(view);
        return own == GtpEndpointRewriter.UNCHANGED ? null : pending.get(own);
    }

    /** Forgets creates the engine expired unanswered (their reservations go). */
    void expire(long nowNanos, long olderThanNanos) {
        pending.values().removeIf(p -> nowNanos - p.sinceNanos() > olderThanNanos);
        pendingV0.values().removeIf(p -> nowNanos - p.sinceNanos() > olderThanNanos);
        reserved.values().removeIf(c -> nowNanos - c.sinceNanos() > olderThanNanos);
    }

    /** TEIDs and requesters held for creates still waiting for their answer, for tests. */
    int size() {
        return pending.size() + pendingV0.size() + reserved.size();
    }

    /** A pair of director TEIDs; the even one is returned (the odd one is {@code pair | 1}). */
    long allocatePair() {
        NodeSlot node = slot;
        while (true) {
            int next = nextTeid.getAndIncrement();
            if (next <= 0) {
                teidsWrapped = true;
            }
            long teid = node.compose((long) next << 1, 32);
            // Alone and before the counter first wraps, every pair is new: no lookup in a table of
            // millions for each create.
            if (teid != 0 && (!teidsWrapped && !sessions.sharedWithOtherNodes()
                    || sessions.byTeid(teid | 1) == null && !pending.containsKey(teid))) {
                return teid;
            }
        }
    }
}
