package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0MessageType;
import io.switchboard.codec.gtp.v1.GtpV1MessageType;
import io.switchboard.codec.gtp.v2.GtpV2IeType;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.RealRequests;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

/**
 * The requests a real initiates for a session (GGSN Update / Delete PDP Context, PGW Create / Update
 * / Delete Bearer; a request triggered by a requester's Command) and their answers, gtp-inspect's part
 * in the engine's relayed requests ({@link RealRequests}): the request goes to the session's requester,
 * from the virtual address, under the requester's TEID and a sequence number of the director's own
 * space toward requesters (the engine's, one space per GTP version); the answer back to the real under
 * the real's TEID and sequence. And the requester's GTPv2 Commands, which a triggered request or a
 * Failure Indication answers under the Command's sequence number (TS 29.274 §7.6).
 */
final class GtpRealRequests implements RealRequests<GtpRealRequests.Relayed> {

    /** TS 29.274 §7.6: set in a Command's sequence number (and so in its triggered messages'), clear elsewhere. */
    static final int COMMAND_SEQUENCE_BIT = 0x80_0000;

    /**
     * What a relayed request's answer needs: the session (by its key: director TEID, v0 TID) and
     * whether an accepted answer ends it.
     */
    record Relayed(int version, long session, boolean delete) {
    }

    /** The plug-in's reading of a datagram (a view per thread). */
    interface Views {
        GtpMessageView view(ByteBuf datagram) throws DecodeException;
    }

    private final GtpSessions sessions;
    private final Views views;
    private final LongSupplier clock;
    private final GtpInspectMetrics metrics;

    GtpRealRequests(GtpSessions sessions, Views views, LongSupplier clock, GtpInspectMetrics metrics) {
        this.sessions = sessions;
        this.views = views;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * A datagram at the virtual address or a director socket that may be a real's request for a
     * session: the engine's decision to relay it to the requester, or null when it is none.
     */
    Decision.RealRequest request(GtpMessageView view, InetSocketAddress sender) throws DecodeException {
        GtpSession session = realsSession(view, sender);
        if (session == null) {
            return null;
        }
        int version = view.version();
        int realSequence = view.sequence();
        if (realSequence < 0) {
            throw new DecodeException(GtpPlugin.NO_SEQUENCE, "GTPv1 request of a real without sequence number");
        }
        // A Delete Bearer Request naming the Linked EBI (EBI instance 0) deletes the whole PDN
        // connection (TS 29.274 §7.2.9.2); a GGSN's Delete PDP Context Request its context (TS 29.060
        // §7.3.5, GSM 09.60 §7.5.5).
        boolean delete = switch (version) {
            case 2 -> view.v2().messageType() == GtpV2MessageType.DELETE_BEARER_REQUEST
                    && GtpV2Ies.indexOf(view.v2().buffer(), view.v2().bodyOffset(), view.v2().endOffset(),
                            GtpV2IeType.EBI.value(), 0) >= 0;
            case 1 -> view.v1().messageType() == GtpV1MessageType.DELETE_PDP_CONTEXT_REQUEST;
            default -> view.v0().messageType() == GtpV0MessageType.DELETE_PDP_CONTEXT_REQUEST;
        };
        // TS 29.274 §7.6: a request under a sequence number with the top bit set answers a requester's
        // Command; the engine sends it to the requester under the Command's own sequence number.
        return new Decision.RealRequest(session.requester(), version, realSequence, commandAnswered(version,
                realSequence), new Relayed(version, session.directorTeid(), delete));
    }

    /** The director id of the Command a v2 message of the real under {@code sequence} answers, or -1. */
    private static long commandAnswered(int version, int sequence) {
        return version == 2 && (sequence & COMMAND_SEQUENCE_BIT) != 0 ? sequence & ~COMMAND_SEQUENCE_BIT : -1;
    }

    /** The requester's own sequence number of its Command (the low 32 bits of its transaction id). */
    @Override
    public long idAnswering(long clientTransactionId) {
        return clientTransactionId & 0xFFFF_FFFFL;
    }

    /** v0/v1 sequence numbers are 16 bits; v2's 23, the top bit being the Commands' (TS 29.274 §7.6). */
    @Override
    public int directorIdBits(int version) {
        return version == 2 ? 23 : 16;
    }

    /** A triggered request answers only a Command of its own session (its TEID names the session). */
    @Override
    public boolean answers(Object command, Relayed relayed) {
        return command instanceof GtpRequestContext c && c.session() != null
                && c.session().directorTeid() == relayed.session();
    }

    @Override
    public Codec<Relayed> codec() {
        return CODEC;
    }

    @Override
    public void prepareRequest(ByteBuf request, long directorId, Relayed relayed) throws DecodeException {
        GtpMessageView view = views.view(request);
        GtpSession session = session(relayed);
        sessions.touch(session, clock.getAsLong());
        if (relayed.version() != 0) {
            view.setTeid(session.requesterTeid());
        }
        view.setSequence((int) directorId);
        metrics.message(view, -1, session.real(), GtpInspectMetrics.Initiator.REAL);
    }

    @Override
    public void prepareAnswer(ByteBuf answer, long realId, Relayed relayed) throws DecodeException {
        GtpMessageView view = views.view(answer);
        GtpSession session = session(relayed);
        int version = view.version();
        int cause = view.cause();
        if (version != 0 && view.teid() > 0) {
            // 0 stays 0: "no such context" (TS 29.060 §7.3.6); a v2 answer without TEID (T flag clear,
            // -1 here) has no field to write and goes as it is
            view.setTeid(session.realTeid());
        }
        view.setSequence((int) realId);
        metrics.message(view, cause, session.real(), GtpInspectMetrics.Initiator.REAL);
        sessions.touch(session, clock.getAsLong());
        if (relayed.delete() && (GtpCauses.accepted(version, cause) || GtpCauses.unknownContext(version, cause))) {
            sessions.end(session);
        }
    }

    /** The relayed request's session as it is now. */
    private GtpSession session(Relayed relayed) throws DecodeException {
        GtpSession session = relayed.version() == 0 ? sessions.byTid(relayed.session())
                : sessions.byTeid(relayed.session());
        if (session == null) {
            throw new DecodeException(GtpSessions.UNKNOWN_SESSION, "the session of a relayed request ended");
        }
        return session;
    }

    /**
     * A real's Failure Indication for a session (to the director socket its Command came from, or to
     * the virtual address): the answer to the requester's Command under its sequence number, relayed
     * by the engine to the requester as the Command's answer; null when it names no session of this
     * real or no Command.
     */
    Decision.TriggeredAnswer failure(GtpMessageView view, InetSocketAddress sender) {
        long command = commandAnswered(view.version(), view.sequence());
        return command < 0 || realsSession(view, sender) == null ? null : new Decision.TriggeredAnswer(command);
    }

    /**
     * A requester's Command on its way to a real, under the engine's director id: the top bit set
     * (TS 29.274 §7.6), which the real's triggered request or Failure Indication carries back.
     */
    static void numberCommand(GtpMessageView view, long directorId) {
        view.setSequence(COMMAND_SEQUENCE_BIT | (int) directorId);
    }

    /** The session a real's request belongs to, or null when it is not one. */
    private GtpSession realsSession(GtpMessageView view, InetSocketAddress sender) {
        if (view.version() == 0) {
            GtpSession session = sessions.byTid(view.v0().tid());
            // One TID on both sides: the sender tells whose request it is.
            return session != null && session.requester() != null && !view.createsTunnel()
                    && session.real().address().equals(sender) ? session : null;
        }
        long teid = view.teid();
        // A real-facing TEID is even, its session's director TEID the odd one above it.
        GtpSession session = teid > 0 && (teid & 1) == 0 ? sessions.byTeid(teid | 1) : null;
        // Only the session's real knows that TEID; from any other address it names no session.
        return session != null && session.realFacingTeid() == teid
                && session.real().address().getAddress().equals(sender.getAddress()) ? session : null;
    }

    /** {@link Relayed} as bytes (a wire constant between nodes): format (1) = 1 | version (1) | session (8) | delete (1). */
    static final Codec<Relayed> CODEC = new Codec<>() {
        private static final int FORMAT = 1;

        @Override
        public byte[] encode(Relayed r) {
            return ByteBuffer.allocate(11).put((byte) FORMAT).put((byte) r.version()).putLong(r.session())
                    .put((byte) (r.delete() ? 1 : 0)).array();
        }

        @Override
        public Relayed decode(byte[] bytes) {
            if (bytes.length != 11 || bytes[0] != FORMAT) {
                throw new IllegalArgumentException("relayed request context of " + bytes.length + " bytes, format "
                        + (bytes.length == 0 ? "none" : bytes[0]) + "; this node reads 11 bytes of format " + FORMAT);
            }
            ByteBuffer in = ByteBuffer.wrap(bytes, 1, 10);
            return new Relayed(in.get(), in.getLong(), in.get() != 0);
        }
    };
}
