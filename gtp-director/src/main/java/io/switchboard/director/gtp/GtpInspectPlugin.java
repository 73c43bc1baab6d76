package io.switchboard.director.gtp;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.udp.PeerRelay;
import io.switchboard.director.udp.PluginContext;
import io.switchboard.director.udp.ResponseVerdict;
import io.switchboard.director.udp.SessionListing;
import io.switchboard.director.gtp.GtpEndpointRewriter.Endpoint;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code service: gtp-inspect}, IOS SLB GPRS load balancing with cause-code inspection, a signalling
 * proxy for GTPv0, v1 and v2:
 *
 * <ul>
 *   <li>Create responses with a resource cause ({@code resource-causes}) fail the real and have the
 *       engine resend the create to another real (at most {@code reassign} times); the requester only
 *       sees the final answer.</li>
 *   <li>In a Create <em>request</em> the requester's control-plane address (v1 first GSN Address, v2
 *       sender F-TEID) becomes the director's address and its TEID-C a director TEID; in an accepted
 *       Create <em>response</em> the real's the same, with another director TEID. Each side then
 *       sends its later requests for the session to the virtual address, under the TEID it knows; the
 *       director finds the session by it, writes the other side's own TEID into the header and sends
 *       the request on: the requester's to the real that holds the session (through the engine, which
 *       rewrites the sequence number), the real's to the requester from the virtual address (here,
 *       with a sequence number of the director's own space, restored in the answer).</li>
 *   <li>GTPv0 sessions are known by their TID, the same on both sides; the GSN Addresses are rewritten
 *       as in v1.</li>
 *   <li>An accepted Delete answer (or "context not found") ends a session, and so do idleness
 *       ({@code session-idle}) and a restart of its real. Open sessions count as connections of their
 *       real, so {@code leastconns} balances by open sessions.</li>
 * </ul>
 *
 * The plug-in reads and rewrites the messages; the rest is by concern: {@link GtpSessions} (the
 * session table, shared by a cluster's nodes, and each session's life and accounting),
 * {@link GtpPendingCreates} (the director's TEID space and the creates waiting for an answer),
 * {@link GtpRealRequests} (what the reals initiate, and the requesters' Commands),
 * {@link GtpEndpointRewriter} (the control-plane endpoints in the messages). Director TEIDs carry this
 * node's cluster slot in their top bits, so two nodes never allocate the same one.
 */
final class GtpInspectPlugin extends GtpPlugin implements SessionListing, PeerRelay {

    /** A request with a TEID (TID) that names no session of this virtual server. */
    static final DropReason UNKNOWN_SESSION = DropReason.of("gtp-unknown-session");

    /** TS 29.060 §7.1 / GSM 09.60 §7.1 message types. */
    private static final int V1_UPDATE_REQUEST = 18;
    private static final int V1_UPDATE_RESPONSE = 19;
    private static final int V1_DELETE_REQUEST = 20;
    /** TS 29.274 §6.1 message types. */
    private static final int V2_MODIFY_BEARER_REQUEST = 34;
    private static final int V2_MODIFY_BEARER_RESPONSE = 35;
    private static final int V2_DELETE_SESSION_REQUEST = 36;
    /** TS 29.274 §7.2.18 / §7.2.19 / §7.2.22: the indirect data forwarding context of a handover. */
    private static final int V2_CREATE_INDIRECT_FORWARDING_REQUEST =
            GtpV2MessageType.CREATE_INDIRECT_DATA_FORWARDING_TUNNEL_REQUEST.value();
    private static final int V2_CREATE_INDIRECT_FORWARDING_RESPONSE =
            GtpV2MessageType.CREATE_INDIRECT_DATA_FORWARDING_TUNNEL_RESPONSE.value();
    private static final int V2_DELETE_INDIRECT_FORWARDING_REQUEST =
            GtpV2MessageType.DELETE_INDIRECT_DATA_FORWARDING_TUNNEL_REQUEST.value();

    /**
     * What prepareRequest remembers for the answer.
     *
     * @param session      the session the request belongs to, null for a primary create
     * @param createKey    a primary create's key in {@link #createTeids}, else -1
     * @param requester    a create's (or an Update's) requester endpoint as it was before the rewrite, or null
     */
    private record RequestContext(boolean create, GtpSession session, boolean delete, String imsi, String binding,
            long createKey,
            long realFacingTeid, Endpoint requester, int bearer) {
    }


    private final GtpEndpointRewriter rewriter;
    private final GtpSessions sessions;
    private final GtpPendingCreates creates;
    private final GtpRealRequests realRequests;
    private final AtomicLong nextHousekeepNanos = new AtomicLong(Long.MIN_VALUE);
    private volatile long relayTimeoutNanos = 5_000_000_000L;
    private volatile GtpMessageCounters messages = new GtpMessageCounters(new SimpleMeterRegistry(), Tags.empty());

    GtpInspectPlugin(GtpOptions options, InetAddress vip) {
        super(options);
        this.rewriter = new GtpEndpointRewriter(vip, options.directorAddresses());
        this.sessions = new GtpSessions(options);
        this.creates = new GtpPendingCreates(rewriter, sessions);
        this.realRequests = new GtpRealRequests(sessions, this::now, () -> messages);
    }

    @Override
    public void attach(PluginContext context) {
        super.attach(context);
        this.relayTimeoutNanos = context.config().responseTimeout().toNanos();
        Tags tags = Tags.of("vserver", context.config().name());
        MeterRegistry registry = context.registry();
        this.messages = new GtpMessageCounters(registry, tags);
        FunctionCounter.builder("switchboard.gtp.rewrite.skipped", rewriter, GtpEndpointRewriter::skipped)
                .description("Control-plane addresses left unchanged: no director address of their family")
                .tags(tags).register(registry);
        creates.attach(context.node());
        realRequests.attach(context, tags);
        sessions.attach(context, tags);
    }

    /** The open sessions by director TEID (v1/v2) or TID (v0), for tests. */
    Map<Long, GtpSession> sessionTable() {
        return sessions.snapshot();
    }

    /** TEIDs and requesters held for creates still waiting for their answer, for tests. */
    int createReservations() {
        return creates.size();
    }

    /** Open sessions held by {@code real}. */
    int openSessions(RealServer real) {
        return sessions.openSessions(real);
    }

    @Override
    public List<SessionListing.Session> sessions() {
        return sessions.listing();
    }

    @Override
    public int reassignLimit() {
        return options.reassign();
    }

    private GtpSession session(GtpMessageView view) throws DecodeException {
        GtpSession session;
        long id;
        if (view.version() == 0) {
            id = view.v0().tid();
            session = sessions.byTid(id);
        } else {
            id = view.teid();
            session = id > 0 ? sessions.byTeid(id) : null;
        }
        if (session == null) {
            throw new DecodeException(UNKNOWN_SESSION, "GTPv" + view.version() + " request type "
                    + view.messageTypeValue() + " for TEID/TID " + Long.toUnsignedString(id) + ", which is no session here");
        }
        return session;
    }

    /** A request of a session from the requester: keyed (and routed) by the session. */
    @Override
    StickyKey classifyOther(GtpMessageView view) throws DecodeException {
        GtpSession session = session(view);
        return session.imsi() == null ? GtpPlugin.imsiKey("") : imsiKey(session.imsi());
    }

    @Override
    StickyKey classifyCreateWithoutImsi(GtpMessageView view) throws DecodeException {
        if (view.version() == 0 || view.teid() <= 0) {
            return super.classifyCreateWithoutImsi(view);
        }
        return classifyOther(view); // a secondary PDP context: with its primary
    }

    /** Requests of a session go to the real that holds it. */
    @Override
    public StickyBinding route(ByteBuf request) throws DecodeException {
        GtpMessageView view = view(request);
        if (isPrimaryCreate(view)) {
            return routeByApn(view);
        }
        GtpSession session = session(view);
        return session.real().binding();
    }

    private static boolean isPrimaryCreate(GtpMessageView view) {
        return view.version() == 0 ? view.createsTunnel() : view.teid() <= 0;
    }

    @Override
    public Object prepareRequest(ByteBuf request, long transactionId, RealServer real) throws DecodeException {
        return prepareRequest(request, transactionId, real, null);
    }

    /**
     * A Command is not answered by a response (TS 29.274 §7.6) but by the request it triggers or a
     * Failure Indication, which the director relays itself ({@link #relayTarget}): the engine does not
     * wait for an answer.
     */
    @Override
    public boolean expectsAnswer(ByteBuf request) {
        try {
            GtpMessageView view = view(request);
            return view.version() != 2 || !view.v2().messageType().isCommand();
        } catch (DecodeException e) {
            return true; // classify accepted it: not reached
        }
    }

    @Override
    public Object prepareRequest(ByteBuf request, long transactionId, RealServer real, InetSocketAddress client)
            throws DecodeException {
        GtpMessageView view = view(request);
        int requesterSequence = view.sequence();
        view.setSequence((int) transactionId);
        int version = view.version();
        if (isPrimaryCreate(view)) {
            long createKey = ((long) real.slot() << 32) | transactionId;
            long realFacing = 0;
            Endpoint requester;
            GtpPendingCreates.Pending resent = creates.resent(view);
            if (resent != null) {
                realFacing = version == 0 ? 0 : view.senderControlPlane().teid();
                requester = resent.requester();
            } else {
                realFacing = version == 0 ? 0 : creates.reserve(createKey, now());
                requester = rewriter.rewrite(view, realFacing);
                if (version == 0) {
                    creates.putV0(view.v0().tid(), requester, now());
                } else {
                    creates.put(realFacing, requester, now());
                }
            }
            messages.count(view, -1, real, GtpMessageCounters.Initiator.REQUESTER);
            String imsi = view.imsi();
            return new RequestContext(true, null, false, imsi, bindingName(imsi, mappedFarm(view)), createKey,
                    realFacing, requester, GtpBearer.of(view));
        }
        GtpSession session = session(view);
        sessions.touch(session, now());
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
            // and goes to the requester under the requester's own.
            view.setSequence(realRequests.forwardCommand(real.address().getAddress(), client, requesterSequence, session));
        }
        messages.count(view, -1, real, GtpMessageCounters.Initiator.REQUESTER);
        return new RequestContext(view.createsTunnel(), session, delete, session.imsi(), session.binding(), -1, 0, moved,
                GtpBearer.NONE);
    }

    /** Subscribers with an open session, for tests. */
    int subscribers() {
        return sessions.subscribers();
    }

    /** Commands forwarded and not answered yet, for tests. */
    int outstandingCommands() {
        return realRequests.outstandingCommands();
    }

    @Override
    public ResponseVerdict inspectResponse(ByteBuf response, RealServer real, Object context) throws DecodeException {
        super.inspectResponse(response, real, context);
        if (!(context instanceof RequestContext request)) {
            return ResponseVerdict.RELAY;
        }
        GtpMessageView view = view(response);
        int cause = view.cause();
        int version = view.version();
        messages.count(view, cause, real, GtpMessageCounters.Initiator.REQUESTER);
        if (request.createKey() >= 0) {
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
        sessions.touch(session, now());
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
    private static void restoreRequesterTeid(GtpMessageView view, RequestContext request) {
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
    private void learn(GtpMessageView view, RealServer real, RequestContext request) throws DecodeException {
        long now = sessions.clusterMillis(now());
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
            sessions.update(changed, now());
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
                sessions.clusterMillis(now()), GtpBearer.INDIRECT_FORWARDING);
        sessions.open(forwarding);
    }

    /**
     * A datagram at the virtual address that is part of a real's own transaction: a real's request
     * for a session (found by the real-facing TEID, or a v0 TID, sent from the session's real) goes to
     * the requester; the requester's answer to one goes back to the real; a real's Failure Indication
     * to the requester of its Command. Anything else is classified.
     */
    @Override
    public InetSocketAddress relayTarget(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        GtpMessageView view = view(datagram);
        if (view.isRequest()) {
            return realRequests.request(view, sender);
        }
        if (view.isResponse()) {
            InetSocketAddress real = realRequests.answer(view);
            if (real != null) {
                return real;
            }
            return view.version() == 2 && view.v2().messageType().isFailureIndication()
                    ? realRequests.failure(view, sender) : null;
        }
        return null;
    }

    /**
     * A real's datagram to a director socket that answers nothing pending: a GTPv2 request triggered
     * by a Command (TS 29.274 §4.2.2 sends it where the Command came from) goes to the requester like
     * any real-initiated request (under the requester's Command sequence), a Failure Indication to the
     * requester of the Command. Anything else is the engine's to count.
     */
    @Override
    public InetSocketAddress relayFromReal(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        GtpMessageView view = view(datagram);
        if (view.version() != 2) {
            return null;
        }
        if (view.isRequest()) {
            return realRequests.request(view, sender);
        }
        return view.isResponse() && view.v2().messageType().isFailureIndication() ? realRequests.failure(view, sender) : null;
    }

    /** The real restarted and lost its sessions: they end here too, and so on every node. */
    @Override
    public void realRestarted(RealServer real) {
        super.realRestarted(real);
        sessions.purge(real);
    }

    /**
     * At most once a second, whichever event loop comes first: ends idle sessions (and, in a cluster,
     * recounts them), forgets relayed requests and Commands that got no answer and the reservations
     * of creates the engine expired unanswered.
     */
    @Override
    public void housekeep(long now) {
        long due = nextHousekeepNanos.get();
        if (due != Long.MIN_VALUE && now - due < 0 || !nextHousekeepNanos.compareAndSet(due, now + 1_000_000_000L)) {
            return;
        }
        sessions.housekeep(now);
        realRequests.expire(now);
        creates.expire(now, 2 * relayTimeoutNanos);
    }
}
