package io.switchboard.director.gtp;

import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0MessageType;
import io.switchboard.codec.gtp.v1.GtpV1MessageType;
import io.switchboard.codec.gtp.v2.GtpV2IeType;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import io.switchboard.director.spi.PluginContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.LongSupplier;

/**
 * The requests a real initiates for a session (GGSN Update / Delete PDP Context, PGW Create / Update
 * / Delete Bearer; a request triggered by a requester's Command) and their answers: the request goes
 * to the session's requester, from the virtual address, under the requester's TEID and a sequence
 * number of the director's own space toward requesters; the answer back to the real under the real's
 * TEID and sequence. And the requester's GTPv2 Commands, which a triggered request or a Failure
 * Indication answers under the Command's sequence number (TS 29.274 §7.6).
 */
final class GtpRealRequests {

    private final GtpSessions sessions;
    private final LongSupplier clock;
    private final GtpInspectMetrics metrics;
    private final GtpRelayedRequests relayed = new GtpRelayedRequests();
    /** GTPv2 Commands forwarded and not yet answered (per node). */
    private final GtpForwardedCommands commands = new GtpForwardedCommands();
    private volatile long timeoutNanos = 5_000_000_000L;

    GtpRealRequests(GtpSessions sessions, LongSupplier clock, GtpInspectMetrics metrics) {
        this.sessions = sessions;
        this.clock = clock;
        this.metrics = metrics;
    }

    void attach(PluginContext context) {
        this.timeoutNanos = context.config().responseTimeout().toNanos();
        relayed.share(context.node(), context.tables(), "gtp-inspect/relayed/" + context.config().name());
    }

    /**
     * A datagram at the virtual address or a director socket that may be a real's request for a
     * session: where it goes (the requester), or null when it is none.
     */
    InetSocketAddress request(GtpMessageView view, InetSocketAddress sender) throws DecodeException {
        GtpSession session = realsSession(view, sender);
        return session == null ? null : relayRequest(view, session, sender);
    }

    /** A response at the virtual address: the requester's answer to a relayed request (to its real), or null. */
    InetSocketAddress answer(GtpMessageView view) throws DecodeException {
        GtpRelayedRequests.Relayed request = relayed.answered(view.version(), view.sequence(),
                (version, key) -> version == 0 ? sessions.byTid(key) : sessions.byTeid(key));
        return request == null ? null : relayAnswer(view, request);
    }

    /**
     * A real's Failure Indication (to the director socket its Command came from, or to the virtual
     * address): the answer to a requester's Command, it goes to the requester under the requester's
     * TEID and Command sequence number; null when it answers no Command of this node.
     */
    InetSocketAddress failure(GtpMessageView view, InetSocketAddress sender) throws DecodeException {
        GtpSession session = realsSession(view, sender);
        GtpForwardedCommands.Outstanding command = session == null ? null
                : commands.answered(sender.getAddress(), view.sequence(), session.directorTeid());
        if (command == null) {
            return null;
        }
        view.setTeid(session.requesterTeid());
        view.setSequence(command.requesterSequence());
        metrics.message(view, view.cause(), session.real(), GtpInspectMetrics.Initiator.REQUESTER);
        sessions.touch(session, clock.getAsLong());
        return session.requester();
    }

    /**
     * A requester's Command on its way to {@code real}: the sequence number it goes under, which the
     * real's triggered request or Failure Indication carries back (TS 29.274 §7.6).
     */
    int forwardCommand(InetAddress real, InetSocketAddress requester, int requesterSequence, GtpSession session) {
        return commands.forward(real, requester, requesterSequence, session.directorTeid(), clock.getAsLong());
    }

    /** Forgets relayed requests and Commands whose answer did not pass here (lost, or another node's). */
    void expire(long nowNanos) {
        metrics.relaysExpired(relayed.expire(nowNanos, timeoutNanos, sessions.clusterMillis(nowNanos)));
        commands.expire(nowNanos, timeoutNanos);
    }

    /** Commands forwarded and not answered yet, for tests. */
    int outstandingCommands() {
        return commands.size();
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

    private InetSocketAddress relayRequest(GtpMessageView view, GtpSession session, InetSocketAddress sender)
            throws DecodeException {
        int version = view.version();
        int realSequence = view.sequence();
        if (realSequence < 0) {
            throw new DecodeException(GtpPlugin.NO_SEQUENCE, "GTPv1 request of a real without sequence number");
        }
        long now = clock.getAsLong();
        GtpRelayedRequests.Relayed request = relayed.pending(sender, version, realSequence);
        if (request != null) {
            metrics.relayRetransmitted();
        } else {
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
            GtpForwardedCommands.Outstanding command = version == 2
                    ? commands.answered(sender.getAddress(), realSequence, session.directorTeid()) : null;
            long millis = sessions.clusterMillis(now);
            if (command != null) {
                request = relayed.addTriggered(sender, version, realSequence, command.requesterSequence(), session,
                        delete, now, millis);
                if (request != null) {
                    metrics.relayTriggered();
                }
            }
            if (request == null) {
                request = relayed.add(sender, version, realSequence, session, delete, now, millis);
            }
            metrics.relayed();
        }
        sessions.touch(session, now);
        if (version != 0) {
            view.setTeid(session.requesterTeid());
        }
        view.setSequence(request.sequence());
        metrics.message(view, -1, session.real(), GtpInspectMetrics.Initiator.REAL);
        return session.requester();
    }

    private InetSocketAddress relayAnswer(GtpMessageView view, GtpRelayedRequests.Relayed request) throws DecodeException {
        GtpSession relayedFor = request.session();
        GtpSession current = sessions.current(relayedFor);
        GtpSession session = current == null ? relayedFor : current;
        int version = view.version();
        int cause = view.cause();
        if (version != 0 && view.teid() > 0) {
            // 0 stays 0: "no such context" (TS 29.060 §7.3.6); a v2 answer without TEID (T flag clear,
            // -1 here) has no field to write and goes as it is
            view.setTeid(session.realTeid());
        }
        view.setSequence(request.realSequence());
        metrics.message(view, cause, session.real(), GtpInspectMetrics.Initiator.REAL);
        sessions.touch(session, clock.getAsLong());
        if (request.delete() && (GtpCauses.accepted(version, cause) || GtpCauses.unknownContext(version, cause))) {
            sessions.end(session);
        }
        return request.realSender();
    }
}
