package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.Pace;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.spi.Decision;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.RealRequests;
import io.switchboard.director.spi.ResponseVerdict;
import io.switchboard.director.spi.SessionListing;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
 * The plug-in is a page of the engine's questions answered by concern: {@link GtpSessions} (the
 * session table, shared by a cluster's nodes, and each session's life), {@link GtpSessionCounts}
 * (open sessions per real: connections through the engine), {@link GtpPendingCreates} (the creates
 * waiting for an answer) and {@link GtpTeidSpace} (the director's TEIDs, this node's cluster slot in
 * their top bits), {@link GtpSessionTransactions} (a session's requests, and what the answers do to
 * sessions), {@link GtpRealRequests} (what the reals initiate, and the requesters' Commands),
 * {@link GtpEndpointRewriter} (the control-plane endpoints in the messages), {@link GtpInspectMetrics};
 * its once-a-second housekeeping runs on a {@link GtpSweeper} in a cluster.
 */
final class GtpInspectPlugin extends GtpPlugin<GtpRequestContext> implements SessionListing {

    /** A request with a TEID (TID) that names no session of this virtual server. */
    static final DropReason UNKNOWN_SESSION = GtpSessions.UNKNOWN_SESSION;

    private final GtpInspectMetrics metrics = new GtpInspectMetrics();
    private final GtpEndpointRewriter rewriter;
    private final GtpSessions sessions;
    private final GtpPendingCreates creates;
    private final GtpAnswered answered = new GtpAnswered();
    private final GtpSessionTransactions transactions;
    private final GtpRealRequests realRequests;
    private final GtpSweeper sweeper;
    private final Pace housekeeping = new Pace(Duration.ofSeconds(1));
    private volatile long relayTimeoutNanos = 5_000_000_000L;

    GtpInspectPlugin(GtpOptions options, InetAddress vip) {
        this(options, vip, GtpSweeper.dedicated());
    }

    /** @param sweeper where the housekeeping runs in a cluster */
    GtpInspectPlugin(GtpOptions options, InetAddress vip, GtpSweeper sweeper) {
        super(options);
        this.rewriter = new GtpEndpointRewriter(vip, options.directorAddresses());
        this.sessions = new GtpSessions(options, metrics);
        this.creates = new GtpPendingCreates(rewriter, sessions);
        this.realRequests = new GtpRealRequests(sessions, this::view, this::now, metrics);
        this.transactions = new GtpSessionTransactions(options, rewriter, sessions, creates, this::now);
        this.sweeper = sweeper;
    }

    @Override
    public void attach(PluginContext context) {
        super.attach(context);
        this.relayTimeoutNanos = context.config().responseTimeout().toNanos();
        metrics.attach(context.registry(), context.config().name(), rewriter);
        sweeper.name(context.config().name());
        creates.attach(context.node());
        sessions.attach(context);
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
    int openSessions(RealView real) {
        return sessions.openSessions(real);
    }

    /** Subscribers with an open session, for tests. */
    int subscribers() {
        return sessions.subscribers();
    }

    /** Whether the sweeper's thread has ended (after {@link #close}), for tests. */
    boolean sweeperTerminated() {
        return sweeper.terminated();
    }

    @Override
    public List<SessionListing.Session> sessions() {
        return sessions.listing();
    }

    @Override
    public int clear(String real) {
        return sessions.clear(real);
    }

    @Override
    public int reassignLimit() {
        return options.reassign();
    }

    /** A request of a session from the requester: keyed by the session's IMSI, to the session's real. */
    @Override
    Decision.Direct other(GtpMessageView view) throws DecodeException {
        GtpSession session = sessions.of(view);
        return toSession(view, session.imsi() == null ? GtpPlugin.imsiKey("") : imsiKey(session.imsi()), session);
    }

    @Override
    Decision.Direct createWithoutImsi(GtpMessageView view) throws DecodeException {
        if (view.version() == 0 || view.teid() <= 0) {
            return super.createWithoutImsi(view);
        }
        return other(view); // a secondary PDP context: with its primary
    }

    /** A primary create is placed as in transparent mode (APN maps); one within a session goes to its real. */
    @Override
    Decision.Direct create(GtpMessageView view, StickyKey key) throws DecodeException {
        return isPrimaryCreate(view) ? super.create(view, key) : toSession(view, key, sessions.of(view));
    }

    /**
     * A request of {@code session}: to the real that holds it, whatever its state, as session work
     * (shed last under overload); a Command is answered by the request it triggers or a Failure
     * Indication.
     */
    private Decision.Direct toSession(GtpMessageView view, StickyKey key, GtpSession session) {
        Decision.Direct direct = new Decision.Direct(key, transactionId(view),
                new Decision.Placement.Pinned(session.real().binding()), false, true).ofSession();
        return isCommand(view) ? direct.triggering() : direct;
    }

    private static boolean isPrimaryCreate(GtpMessageView view) {
        return view.version() == 0 ? view.createsTunnel() : view.teid() <= 0;
    }

    /**
     * A Command is not answered by a response (TS 29.274 §7.6) but by the request it triggers or a
     * Failure Indication ({@link Decision.Direct#triggers}).
     */
    private static boolean isCommand(GtpMessageView view) {
        return view.version() == 2 && view.v2().messageType().isCommand();
    }

    /**
     * The request goes under the director's sequence number; a primary create with the director's
     * endpoint ({@link GtpPendingCreates#send}), a session's as {@link GtpSessionTransactions#request}
     * writes it.
     */
    @Override
    public GtpRequestContext prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client)
            throws DecodeException {
        GtpMessageView view = view(request);
        int requesterSequence = view.sequence();
        view.setSequence((int) transactionId);
        GtpRequestContext context;
        if (isPrimaryCreate(view)) {
            GtpPendingCreates.Key createKey = GtpPendingCreates.Key.of(real.slot(), transactionId, client);
            GtpPendingCreates.Sent sent = creates.send(view, createKey, now());
            String imsi = view.imsi();
            context = new GtpRequestContext(true, null, false, imsi, bindingName(imsi, mappedFarm(view)), createKey,
                    sent.realFacingTeid(), sent.requester(), GtpBearer.of(view), client);
        } else {
            context = transactions.request(view, sessions.of(view), real, client, requesterSequence);
        }
        metrics.message(view, -1, real, GtpInspectMetrics.Initiator.REQUESTER);
        return context;
    }

    /** As every GTP answer; a create's or Delete's, as relayed, is kept for the requester's retransmissions. */
    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, GtpRequestContext context)
            throws DecodeException {
        super.prepareResponse(response, clientTransactionId, context);
        if (context.answerCopyFor() != null) {
            answered.answered(context.answerCopyFor(), view(response), response, now());
        }
    }

    @Override
    public ResponseVerdict inspectResponse(ByteBuf response, RealView real, GtpRequestContext request)
            throws DecodeException {
        super.inspectResponse(response, real, request);
        GtpMessageView view = view(response);
        int cause = view.cause();
        metrics.message(view, cause, real, GtpInspectMetrics.Initiator.REQUESTER);
        return transactions.answer(view, cause, real, request);
    }

    /**
     * A datagram at the virtual address that is part of a real's own transaction: a real's request
     * for a session (found by the real-facing TEID, or a v0 TID, sent from the session's real) goes to
     * the requester, and the requester's answer to one back to the real, through the engine's relayed
     * requests; a real's Failure Indication to the requester of its Command. Anything else is
     * classified.
     */
    @Override
    Decision relay(GtpMessageView view, InetSocketAddress sender) throws DecodeException {
        ByteBuf answeredBefore = answered.again(view, sender);
        if (answeredBefore != null) {
            return new Decision.AnswerLocally(answeredBefore);
        }
        if (view.isRequest()) {
            return realRequests.request(view, sender);
        }
        if (!view.isResponse()) {
            return null;
        }
        if (view.version() == 2 && view.v2().messageType().isFailureIndication()) {
            return realRequests.failure(view, sender);
        }
        return view.sequence() < 0 ? null : new Decision.PeerAnswer(view.version(), view.sequence());
    }

    /**
     * A real's datagram to a director socket that answers nothing pending: a GTPv2 request triggered
     * by a Command (TS 29.274 §4.2.2 sends it where the Command came from) goes to the requester like
     * any real-initiated request (under the requester's Command sequence), a Failure Indication to the
     * requester of the Command. Anything else is the engine's to count.
     */
    @Override
    public Decision fromReal(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        GtpMessageView view = view(datagram);
        if (view.version() != 2) {
            return null;
        }
        if (view.isRequest()) {
            return realRequests.request(view, sender);
        }
        return view.isResponse() && view.v2().messageType().isFailureIndication() ? realRequests.failure(view, sender) : null;
    }

    @Override
    public RealRequests<?> realRequests() {
        return realRequests;
    }

    /** The real restarted and lost its sessions: they end here too, and so on every node. */
    @Override
    public void realRestarted(RealView real) {
        super.realRestarted(real);
        sessions.purge(real);
    }

    /**
     * At most once a second, whichever event loop comes first: ends idle sessions (and, in a cluster,
     * recounts them) and forgets the reservations
     * of creates the engine expired unanswered. Alone, here; in a cluster, on the sweeper's thread
     * (the pass over the cluster's sessions is no event loop's work).
     */
    @Override
    public void housekeep(long now) {
        if (!housekeeping.due(now)) {
            return;
        }
        Runnable housekeeping = () -> {
            sessions.housekeep(now);
            creates.expire(now, 2 * relayTimeoutNanos);
            answered.expire(now, 2 * relayTimeoutNanos);
        };
        if (sessions.sharedWithOtherNodes()) {
            sweeper.sweep(housekeeping);
        } else {
            housekeeping.run();
        }
    }

    /** The virtual server stopped: the sweeper's thread ends. */
    @Override
    public void close() {
        sweeper.close();
    }
}
