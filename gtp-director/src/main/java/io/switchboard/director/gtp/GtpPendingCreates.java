package io.switchboard.director.gtp;

import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.gtp.GtpEndpointRewriter.Endpoint;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The primary creates that wait for their answer: which requester a create came from and which
 * real-facing TEID (of the director's {@link GtpTeidSpace}) was written into it, so that a
 * retransmission carries the same TEID and a create the engine resends to another real after a
 * refusal (carrying the director's endpoint already) is known by it. Per node: a create is answered
 * on the node that sent it.
 */
final class GtpPendingCreates {

    /** The requester of a pending create, before the rewrite. */
    private record Pending(Endpoint requester, long sinceNanos) {
    }

    /**
     * How a primary create goes to the real.
     *
     * @param realFacingTeid the TEID written in place of the requester's (0 for v0)
     * @param requester      the requester's endpoint as the create first named it
     */
    record Sent(long realFacingTeid, Endpoint requester) {
    }

    /** A real-facing TEID reserved for a pending create (forgotten if the create is never answered). */
    private record Reserved(long teid, long sinceNanos) {
    }

    /**
     * A primary create among the pending ones: the real it went to, the director sequence it went
     * under, and the requester it came from. Each lane of a virtual server numbers its requests to a
     * real on its own (its own sockets, its own id space), so the real and the sequence alone name two
     * creates of two lanes alike, which then shared one real-facing TEID — two subscribers' sessions
     * under one director TEID. A requester is always served by the same lane (the kernel hashes a
     * source to one socket), and its retransmission goes under the same sequence: it finds its create.
     *
     * @param realAndSequence the real's slot in the high 32 bits, the director sequence in the low ones
     * @param requester       where the create came from (null where the caller has no address: tests)
     */
    record Key(long realAndSequence, InetSocketAddress requester) {
        static Key of(int realSlot, long sequence, InetSocketAddress requester) {
            return new Key(((long) realSlot << 32) | sequence, requester);
        }
    }

    private final GtpEndpointRewriter rewriter;
    /** By {@link Key}: a retransmission of the create carries the same one. */
    private final Map<Key, Reserved> reserved = new ConcurrentHashMap<>();
    /** v1/v2 creates by the real-facing TEID written into them. */
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    /** GTPv0 creates by TID (GSM 09.60: one TID per context). */
    private final Map<Long, Pending> pendingV0 = new ConcurrentHashMap<>();
    /** A pair is in use while its session lives or a create waits under its real-facing TEID. */
    private final GtpTeidSpace teids;

    GtpPendingCreates(GtpEndpointRewriter rewriter, GtpSessions sessions) {
        this.rewriter = rewriter;
        this.teids = new GtpTeidSpace(sessions::teidsHeldElsewhere,
                pair -> sessions.byTeid(pair | 1) != null || pending.containsKey(pair));
    }

    void attach(NodeSlot slot) {
        teids.attach(slot);
    }

    /**
     * A primary create on its way to a real, under {@code key} (real, director sequence, requester): its
     * requester's endpoint becomes the director's under a real-facing TEID, reserved on the first
     * sending (a retransmission gets the same), and the requester is remembered for the answer. A
     * create the engine resends to another real after a refusal names the director already: it
     * goes as it is, with the requester remembered when it was first rewritten.
     */
    Sent send(GtpMessageView view, Key key, long nowNanos) throws DecodeException {
        int version = view.version();
        Pending resent = resent(view);
        if (resent != null) {
            return new Sent(version == 0 ? 0 : view.senderControlPlane().teid(), resent.requester());
        }
        long realFacing = version == 0 ? 0 : reserved.computeIfAbsent(key, k -> new Reserved(allocatePair(), nowNanos)).teid();
        Endpoint requester = rewriter.rewrite(view, realFacing);
        if (version == 0) {
            pendingV0.put(view.v0().tid(), new Pending(requester, nowNanos));
        } else {
            pending.put(realFacing, new Pending(requester, nowNanos));
        }
        return new Sent(realFacing, requester);
    }

    /** The create under {@code key} was answered (any answer: a refusal's resend reserves anew). */
    void answered(Key key) {
        reserved.remove(key);
    }

    void remove(long realFacingTeid) {
        pending.remove(realFacingTeid);
    }

    void removeV0(long tid) {
        pendingV0.remove(tid);
    }

    /** A create that already carries the director's endpoint (a resend), or null. */
    private Pending resent(GtpMessageView view) throws DecodeException {
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
        return teids.allocatePair();
    }
}
