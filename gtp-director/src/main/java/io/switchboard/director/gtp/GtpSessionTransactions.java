package io.switchboard.director.gtp;

import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v1.GtpV1MessageType;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import io.switchboard.director.gtp.GtpEndpointRewriter.Endpoint;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.spi.ResponseVerdict;
import java.net.InetSocketAddress;
import java.util.function.LongSupplier;

/**
 * A requester's transactions through {@code gtp-inspect}'s sessions. A session's request goes to the
 * real under the real's TEID, with the director's endpoint where the requester names its own again.
 * The real's answer to any request of the requester (a primary create's too), as it is passed on: the
 * requester gets its own TEID back in the header; a create refused for lack of resources goes to
 * another real; an accepted create opens a session (the real's TEID-C and address become a director
 * TEID and the director's address), an accepted Update / Modify Bearer follows the real's and the
 * requester's new endpoints, an accepted Create Indirect Data Forwarding Tunnel opens a forwarding
 * context, and an accepted Delete (or "context not found") ends the session.
 */
final class GtpSessionTransactions {

    private static final int V1_UPDATE_REQUEST = GtpV1MessageType.UPDATE_PDP_CONTEXT_REQUEST.value();
    private static final int V1_DELETE_REQUEST = GtpV1MessageType.DELETE_PDP_CONTEXT_REQUEST.value();
    private static final int V2_MODIFY_BEARER_REQUEST = GtpV2MessageType.MODIFY_BEARER_REQUEST.value();
    private static final int V2_DELETE_SESSION_REQUEST = GtpV2MessageType.DELETE_SESSION_REQUEST.value();
    /** TS 29.274 §7.2.18 / §7.2.22: the indirect data forwarding context of a handover. */
    private static final int V2_CREATE_INDIRECT_FORWARDING_REQUEST =
            GtpV2MessageType.CREATE_INDIRECT_DATA_FORWARDING_TUNNEL_REQUEST.value();
    private static final int V2_DELETE_INDIRECT_FORWARDING_REQUEST =
            GtpV2MessageType.DELETE_INDIRECT_DATA_FORWARDING_TUNNEL_REQUEST.value();
    private static final int V1_UPDATE_RESPONSE = GtpV1MessageType.UPDATE_PDP_CONTEXT_RESPONSE.value();
    private static final int V2_MODIFY_BEARER_RESPONSE = GtpV2MessageType.MODIFY_BEARER_RESPONSE.value();
    private static final int V2_CREATE_INDIRECT_FORWARDING_RESPONSE =
            GtpV2MessageType.CREATE_INDIRECT_DATA_FORWARDING_TUNNEL_RESPONSE.value();

    private final GtpOptions options;
    private final GtpEndpointRewriter rewriter;
    private final GtpSessions sessions;
    private final GtpPendingCreates creates;
    private final LongSupplier clock;

    GtpSessionTransactions(GtpOptions options, GtpEndpointRewriter rewriter, GtpSessions sessions,
            GtpPendingCreates creates, LongSupplier clock) {
        this.options = options;
        this.rewriter = rewriter;
        this.sessions = sessions;
        this.creates = creates;
        this.clock = clock;
    }

    /**
     * A request of {@code session} from {@code client} on its way to {@code real} (under the
     * director's sequence number already; the requester's was {@code requesterSequence}).
     */
    GtpRequestContext request(GtpMessageView view, GtpSession session, RealView real, InetSocketAddress client,
            int requesterSequence) throws DecodeException {
        sessions.touch(session, clock.getAsLong());
        int version = view.version();
        Endpoint moved = null;
        int type = view.messageTypeValue();
        if (version != 0) {
            view.setTeid(session.realTeid());
        }
        if (session.requester() != null && (type == (version == 2 ? V2_MODIFY_BEARER_REQUEST : V1_UPDATE_REQUEST)
                || version == 2 && type == V2_CREATE_INDIRECT_FORWARDING_REQUEST || view.createsTunnel())) {
            // The requester names its endpoint again (v0/v1 always, with a new SGSN after a routeing
            // area update; v2 on MME / SGW relocation, TS 29.274 Table 7.2.7-1, and in a Create Indirect
            // Data Forwarding Tunnel Request, Table 7.2.18-1; a secondary context too): the real sees
            // the director's, and the answer goes to the TEID the requester named there.
            moved = rewriter.rewrite(view, session.realFacingTeid());
        }
        // TS 29.274 §7.2.22: a Delete Indirect Data Forwarding Tunnel Request ends the forwarding
        // context it is sent to; sent to the PDN connection's own TEID (no separate context), it ends nothing.
        boolean delete = version == 2
                ? type == V2_DELETE_SESSION_REQUEST
                        || type == V2_DELETE_INDIRECT_FORWARDING_REQUEST && session.bearer() == GtpBearer.INDIRECT_FORWARDING
                : type == V1_DELETE_REQUEST;
        if (version == 2 && view.v2().messageType().isCommand()) {
            // TS 29.274 §7.6: the real's triggered request or Failure Indication carries this number back,
            // and the engine sends it to the requester under the requester's own.
            GtpRealRequests.numberCommand(view, view.sequence());
        }
        return new GtpRequestContext(view.createsTunnel(), session, delete, session.imsi(), session.binding(), null, 0,
                moved, GtpBearer.NONE, delete ? client : null);
    }

    /** The answer in {@code view} (cause {@code cause}) from {@code real} to {@code request}, rewritten. */
    ResponseVerdict answer(GtpMessageView view, int cause, RealView real, GtpRequestContext request)
            throws DecodeException {
        int version = view.version();
        if (request.createKey() != null) {
            creates.answered(request.createKey());
        }
        restoreRequesterTeid(view, request);
        if (request.create()) {
            if (version == 2 ? options.resourceCausesV2().contains(cause) : options.resourceCausesV1().contains(cause)) {
                return ResponseVerdict.RETRY_ELSEWHERE; // the pending create stays for the resend
            }
            if (version == 0) {
                creates.removeV0(view.v0().tid());
            } else if (request.realFacingTeid() != 0) {
                creates.remove(request.realFacingTeid());
            }
            if (request.session() == null && GtpCauses.accepted(version, cause)) {
                learn(view, real, request);
            }
            return ResponseVerdict.RELAY;
        }
        GtpSession session = request.session();
        if (session == null) {
            return ResponseVerdict.RELAY;
        }
        sessions.touch(session, clock.getAsLong());
        int type = view.messageTypeValue();
        if (type == (version == 2 ? V2_MODIFY_BEARER_RESPONSE : V1_UPDATE_RESPONSE) && GtpCauses.accepted(version, cause)) {
            relearn(view, session, request.requester());
        } else if (version == 2 && type == V2_CREATE_INDIRECT_FORWARDING_RESPONSE && GtpCauses.accepted(version, cause)) {
            learnForwardingContext(view, session, request.requester());
        } else if (request.delete() && (GtpCauses.accepted(version, cause) || GtpCauses.unknownContext(version, cause))) {
            sessions.end(session);
        }
        return ResponseVerdict.RELAY;
    }

    /**
     * The real answers under the TEID it knows the requester by (the real-facing one); the requester
     * gets its own back.
     */
    private static void restoreRequesterTeid(GtpMessageView view, GtpRequestContext request) {
        if (view.version() == 0 || view.teid() <= 0) {
            return;
        }
        GtpSession session = request.session();
        if (session != null && session.realFacingTeid() != 0) {
            // An Update / Modify Bearer from a new SGSN / MME: the answer goes to it, under its TEID.
            view.setTeid(request.requester() != null && request.requester().teid() != GtpEndpointRewriter.UNCHANGED
                    ? request.requester().teid() : session.requesterTeid());
        } else if (session == null && request.realFacingTeid() != 0 && request.requester() != null) {
            view.setTeid(request.requester().teid());
        }
    }

    /**
     * An accepted create: the real's TEID-C and control-plane address in the response become a
     * director TEID and the director's address, and the session is remembered under that TEID (v0:
     * the TID).
     */
    private void learn(GtpMessageView view, RealView real, GtpRequestContext request) throws DecodeException {
        long now = sessions.clusterMillis(clock.getAsLong());
        Endpoint requester = request.requester();
        if (view.version() == 0) {
            rewriter.rewrite(view, 0);
            sessions.open(new GtpSession(0, real, request.imsi(), request.binding(), view.v0().tid(), 0, 0, 0,
                    requester == null ? null : requester.address(), now));
            return;
        }
        if (view.version() == 1 && view.senderControlPlane() == null) {
            return; // no TEID-C in the answer: nothing to learn (a GSN Address alone is not rewritten)
        }
        // The director TEID is the odd one of the pair whose even one the real knows the requester by.
        long teid = (request.realFacingTeid() != 0 ? request.realFacingTeid() : creates.allocatePair()) | 1;
        // The real's own endpoint, read as the director's replaces it (v2: the one pass over the IEs).
        Endpoint endpoint = rewriter.rewrite(view, teid);
        if (endpoint == null) {
            return; // v2: no F-TEID names the real's control plane, nothing rewritten or learnt
        }
        // The real knows the director as the requester only when the create named a TEID-C to replace.
        boolean relayable = requester != null && requester.teid() != GtpEndpointRewriter.UNCHANGED
                && request.realFacingTeid() != 0;
        sessions.open(new GtpSession(view.version(), real, request.imsi(), request.binding(), teid,
                relayable ? request.realFacingTeid() : 0, endpoint.teid(),
                relayable ? requester.teid() : 0, relayable ? requester.address() : null, now, request.bearer()));
    }

    /**
     * An accepted Update / Modify Bearer answer naming the real's (possibly new) TEID-C and address:
     * the session follows the new TEID, and the answer names the director's TEID and address again; a
     * requester that moved (a new SGSN or MME sent the Update) receives the real's requests from now on.
     */
    private void relearn(GtpMessageView view, GtpSession session, Endpoint moved) throws DecodeException {
        GtpSession current = sessions.current(session);
        GtpSession changed = current == null ? session : current;
        if (moved != null) {
            long requesterTeid = moved.teid() != GtpEndpointRewriter.UNCHANGED ? moved.teid() : changed.requesterTeid();
            changed = changed.withRequester(requesterTeid, changed.requester() == null ? null : moved.address());
        }
        if (view.version() == 0) {
            rewriter.rewrite(view, 0);
        } else {
            GtpControlEndpoint endpoint = view.senderControlPlane();
            if (endpoint != null) {
                changed = changed.withRealTeid(endpoint.teid());
                rewriter.rewrite(view, changed.directorTeid());
            }
        }
        if (current != null && !changed.equals(current)) {
            sessions.update(changed, clock.getAsLong());
        }
    }

    /**
     * An accepted Create Indirect Data Forwarding Tunnel Response: when it names a control-plane
     * endpoint of the real (TS 29.274 Table 7.2.19-1, Sender F-TEID for Control Plane) other than the
     * PDN connection's, that is a context of its own, to which the requester sends the Delete Indirect
     * Data Forwarding Tunnel Request (§7.2.22). It becomes a session of the same real and subscriber
     * under a director TEID of its own, so the Delete comes through the director to that real. The
     * PDN connection's own endpoint named again is rewritten as the session's.
     */
    private void learnForwardingContext(GtpMessageView view, GtpSession session, Endpoint requester)
            throws DecodeException {
        GtpControlEndpoint endpoint = view.senderControlPlane();
        if (endpoint == null) {
            return;
        }
        if (endpoint.teid() == session.realTeid()) {
            rewriter.rewrite(view, session.directorTeid());
            return;
        }
        long teid = creates.allocatePair() | 1;
        rewriter.rewrite(view, teid);
        long requesterTeid = requester != null && requester.teid() != GtpEndpointRewriter.UNCHANGED
                ? requester.teid() : session.requesterTeid();
        GtpSession forwarding = new GtpSession(2, session.real(), session.imsi(), session.binding(), teid, teid & ~1L,
                endpoint.teid(), requesterTeid, requester != null ? requester.address() : session.requester(),
                sessions.clusterMillis(clock.getAsLong()), GtpBearer.INDIRECT_FORWARDING);
        sessions.open(forwarding);
    }
}
