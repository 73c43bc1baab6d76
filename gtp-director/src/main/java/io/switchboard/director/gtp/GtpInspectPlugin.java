package io.switchboard.director.gtp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.udp.PeerRelay;
import io.switchboard.director.udp.PluginContext;
import io.switchboard.director.udp.ResponseVerdict;
import io.switchboard.director.udp.SessionListing;
import io.switchboard.director.gtp.GtpEndpointRewriter.Endpoint;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

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
 * Sessions are kept in a {@link SharedTable} per virtual server ({@code PluginContext.tables()}): a
 * concurrent map on a single node, shared by the nodes of a cluster, so that any node finds a session
 * by its TEID (read locally) and routes its Update, Modify and Delete, from either side, after the
 * node that created it is gone. A session is written when it is created, when an Update changes its
 * TEIDs or requester, and at most once every {@code session-idle / 8} while it is used (its refresh
 * time, the base of the cluster-wide idle expiry), never per message. Director TEIDs carry this
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
    private static final int V2_DELETE_BEARER_REQUEST = 99;
    /** TS 29.274 §7.2.18 / §7.2.19 / §7.2.22: the indirect data forwarding context of a handover. */
    private static final int V2_CREATE_INDIRECT_FORWARDING_REQUEST = 166;
    private static final int V2_CREATE_INDIRECT_FORWARDING_RESPONSE = 167;
    private static final int V2_DELETE_INDIRECT_FORWARDING_REQUEST = 168;
    /**
     * TS 29.274 §7.2.x Commands: answered by a triggered request (Create / Update / Delete Bearer) or a
     * Failure Indication (the Command's type + 1), both under the Command's sequence number (§7.6).
     */
    private static final int V2_MODIFY_BEARER_COMMAND = 64;
    private static final int V2_DELETE_BEARER_COMMAND = 66;
    private static final int V2_BEARER_RESOURCE_COMMAND = 68;
    /** TS 29.274 §8.8 EPS Bearer ID; instance 0 in a Delete Bearer Request is the Linked EBI (§7.2.9.2). */
    private static final int V2_EBI = 73;

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


    private record PendingCreate(Endpoint requester, long sinceNanos) {
    }

    /** A real-facing TEID reserved for a pending create (forgotten if the create is never answered). */
    private record CreateTeid(long teid, long sinceNanos) {
    }

    private final GtpEndpointRewriter rewriter;
    private final GtpRelayedRequests relayed = new GtpRelayedRequests();
    /** GTPv2 Commands forwarded and not yet answered (per node). */
    private final GtpForwardedCommands commands = new GtpForwardedCommands();
    /** How long a session lives without a message, in cluster-clock milliseconds. */
    private final long sessionIdleMillis;
    /**
     * A session used more than this long after its last write is written again (refreshed). Its
     * refresh time thus lags its last message by less than this, and a session ends when it is older
     * than {@code session-idle} plus this: never before session-idle after its last message, on any node.
     */
    private final long refreshMillis;
    /** v1/v2 sessions by director TEID (odd; the real-facing TEID is the even one below it). */
    private volatile SharedTable<Long, GtpSession> sessions = SharedTables.IN_MEMORY.open("sessions", null, null);
    /** GTPv0 sessions by TID. */
    private volatile SharedTable<Long, GtpSession> v0Sessions = SharedTables.IN_MEMORY.open("v0-sessions", null, null);
    /** The cluster clock: epoch nanoseconds minus the ticker's, taken once at attach. */
    private volatile long clusterClockOffsetNanos = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
    private volatile NodeSlot slot = NodeSlot.SINGLE;
    /**
     * The real-facing TEID written into each pending primary create, by (real slot, director sequence):
     * a retransmission of the create carries the same one.
     */
    private final Map<Long, CreateTeid> createTeids = new ConcurrentHashMap<>();
    /**
     * The requester of each pending primary create, by the real-facing TEID written into it: a create
     * resent to another real after a refusal carries the director's endpoint already.
     */
    private final Map<Long, PendingCreate> pendingCreates = new ConcurrentHashMap<>();
    /** The same for GTPv0 creates, by TID. */
    private final Map<Long, PendingCreate> pendingV0Creates = new ConcurrentHashMap<>();
    /** Open sessions per IMSI (its binding ends with the last) and the session of each of its bearers. */
    private final GtpSubscribers subscribers = new GtpSubscribers();
    private final Map<RealServer, AtomicInteger> openPerReal = new ConcurrentHashMap<>();
    private final AtomicInteger nextTeid = new AtomicInteger(1);
    /** Set once {@link #nextTeid} has gone round: from then on a pair may still be in use. */
    private volatile boolean teidsWrapped;
    private final AtomicLong nextSweepNanos = new AtomicLong(Long.MIN_VALUE);
    /**
     * How often idle sessions are looked for: every second, or every {@code session-idle / 64} when
     * that is longer, so that a session ends at most that much after its idle time and slack.
     */
    private final long sessionSweepNanos;
    /** Written by the event loop that won the second's sweep only. */
    private volatile long nextSessionSweepNanos = Long.MIN_VALUE;
    private volatile StickyTable sticky;
    private volatile long relayTimeoutNanos = 5_000_000_000L;
    private volatile GtpMessageCounters messages = new GtpMessageCounters(new SimpleMeterRegistry(), Tags.empty());
    private volatile MeterRegistry registry = new SimpleMeterRegistry();
    private volatile Tags tags = Tags.empty();
    private volatile Counter expiredSessions;
    private volatile Counter purgedSessions;
    private volatile Counter replacedSessions;
    private volatile Counter relayedRequests;
    private volatile Counter relayedRetransmissions;
    private volatile Counter relayedExpired;
    private volatile Counter relayedTriggered;

    GtpInspectPlugin(GtpOptions options, InetAddress vip) {
        super(options);
        this.rewriter = new GtpEndpointRewriter(vip, options.directorAddresses());
        this.sessionIdleMillis = options.sessionIdle().toMillis();
        this.refreshMillis = Math.max(1, sessionIdleMillis / 8);
        this.sessionSweepNanos = Math.max(1_000_000_000L, options.sessionIdle().toNanos() / 64);
        counters(new SimpleMeterRegistry(), Tags.empty());
    }

    @Override
    public void attach(PluginContext context) {
        super.attach(context);
        this.sticky = context.sticky();
        this.relayTimeoutNanos = context.config().responseTimeout().toNanos();
        counters(context.registry(), Tags.of("vserver", context.config().name()));
        for (ServerFarm farm : context.farms().all()) {
            for (RealServer real : farm.reals()) {
                open(real);
            }
        }
        this.clusterClockOffsetNanos = System.currentTimeMillis() * 1_000_000L - context.ticker().nanos();
        this.slot = context.node();
        GtpSessionCodec codec = new GtpSessionCodec(context.farms());
        String name = context.config().name();
        relayed.share(context.node(), context.tables(), "gtp-inspect/relayed/" + name);
        this.sessions = context.tables().open("gtp-inspect/sessions/" + name, GtpSessionCodec.TEID, codec);
        this.v0Sessions = context.tables().open("gtp-inspect/v0-sessions/" + name, GtpSessionCodec.TID, codec);
        recount(); // the sessions other nodes hold already count
    }

    /** The cluster clock in epoch milliseconds at ticker time {@code nowNanos}. */
    private long clusterMillis(long nowNanos) {
        return (nowNanos + clusterClockOffsetNanos) / 1_000_000L;
    }

    private SharedTable<Long, GtpSession> table(GtpSession session) {
        return session.version() == 0 ? v0Sessions : sessions;
    }

    /**
     * A message of the session was seen: it is written again (to every node) only when its refresh
     * time is older than {@link #refreshMillis}, from the table's current value (an Update may have
     * changed it since {@code session} was read).
     */
    private void touch(GtpSession session, long nowNanos) {
        long millis = clusterMillis(nowNanos);
        if (millis - session.refreshedMillis() < refreshMillis) {
            return;
        }
        SharedTable<Long, GtpSession> table = table(session);
        GtpSession current = table.get(session.directorTeid());
        if (current != null && millis - current.refreshedMillis() >= refreshMillis) {
            table.put(current.directorTeid(), current.refreshed(millis));
        }
    }

    private void counters(MeterRegistry registry, Tags tags) {
        this.registry = registry;
        this.tags = tags;
        this.messages = new GtpMessageCounters(registry, tags);
        this.expiredSessions = counter("switchboard.gtp.sessions.expired", "Sessions ended after session-idle without a message");
        this.purgedSessions = counter("switchboard.gtp.sessions.purged", "Sessions ended because their real restarted");
        this.replacedSessions = counter("switchboard.gtp.sessions.replaced",
                "Sessions ended because a create for the same subscriber and bearer was accepted");
        this.relayedRequests = counter("switchboard.gtp.relayed.requests", "Real-initiated requests relayed to the requester");
        this.relayedRetransmissions = counter("switchboard.gtp.relayed.retransmitted",
                "Retransmissions of a real-initiated request, relayed under the same director sequence");
        this.relayedExpired = counter("switchboard.gtp.relayed.expired", "Real-initiated requests the requester did not answer");
        this.relayedTriggered = counter("switchboard.gtp.relayed.triggered",
                "Real-initiated requests triggered by a requester's Command, relayed under the Command's sequence number");
        FunctionCounter.builder("switchboard.gtp.rewrite.skipped", rewriter, GtpEndpointRewriter::skipped)
                .description("Control-plane addresses left unchanged: no director address of their family")
                .tags(tags).register(registry);
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).description(description).tags(tags).register(registry);
    }

    /** The open-session count of a real, with its gauge registered on first use. */
    private AtomicInteger open(RealServer real) {
        return openPerReal.computeIfAbsent(real, r -> {
            AtomicInteger count = new AtomicInteger();
            Gauge.builder("switchboard.gtp.sessions.open", count, AtomicInteger::get)
                    .description("Open gtp-inspect sessions per real").tags(tags).tag("real", r.id()).register(registry);
            return count;
        });
    }

    /** The open sessions by director TEID (v1/v2) or TID (v0), for tests. */
    Map<Long, GtpSession> sessionTable() {
        Map<Long, GtpSession> all = new HashMap<>();
        sessions.forEach(all::put);
        v0Sessions.forEach(all::put);
        return Collections.unmodifiableMap(all);
    }

    /** TEIDs and requesters held for creates still waiting for their answer, for tests. */
    int createReservations() {
        return pendingCreates.size() + pendingV0Creates.size() + createTeids.size();
    }

    /** Open sessions held by {@code real}. */
    int openSessions(RealServer real) {
        AtomicInteger count = openPerReal.get(real);
        return count == null ? 0 : count.get();
    }

    @Override
    public List<SessionListing.Session> sessions() {
        List<SessionListing.Session> list = new ArrayList<>();
        sessions.forEach((teid, s) -> list.add(new SessionListing.Session(String.format("0x%08x", teid), s.imsi(),
                s.real().farm(), s.real().id(), String.format("real TEID-C 0x%08x", s.realTeid())
                        + (s.requester() == null ? ""
                        : String.format(", requester TEID-C 0x%08x at %s", s.requesterTeid(), s.requester())))));
        v0Sessions.forEach((tid, s) -> list.add(new SessionListing.Session(String.format("tid 0x%016x", tid), s.imsi(),
                s.real().farm(), s.real().id(), "GTPv0")));
        return list;
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
            session = v0Sessions.get(id);
        } else {
            id = view.teid();
            session = id > 0 ? sessions.get(id) : null;
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
            return view.version() != 2 || !isCommand(view.messageTypeValue());
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
            PendingCreate resent = resentCreate(view);
            if (resent != null) {
                realFacing = version == 0 ? 0 : view.senderControlPlane().teid();
                requester = resent.requester();
            } else {
                realFacing = version == 0 ? 0
                        : createTeids.computeIfAbsent(createKey, k -> new CreateTeid(allocateTeidPair(), now())).teid();
                requester = rewriter.rewrite(view, realFacing);
                if (version == 0) {
                    pendingV0Creates.put(view.v0().tid(), new PendingCreate(requester, now()));
                } else {
                    pendingCreates.put(realFacing, new PendingCreate(requester, now()));
                }
            }
            messages.count(view, -1, real, GtpMessageCounters.Initiator.REQUESTER);
            String imsi = view.imsi();
            return new RequestContext(true, null, false, imsi, bindingName(imsi, mappedFarm(view)), createKey,
                    realFacing, requester, GtpBearer.of(view));
        }
        GtpSession session = session(view);
        touch(session, now());
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
        if (version == 2 && isCommand(type)) {
            // TS 29.274 §7.6: the real's triggered request or Failure Indication carries this number back,
            // and goes to the requester under the requester's own.
            view.setSequence(commands.forward(real.address().getAddress(), client, requesterSequence,
                    session.directorTeid(), now()));
        }
        messages.count(view, -1, real, GtpMessageCounters.Initiator.REQUESTER);
        return new RequestContext(view.createsTunnel(), session, delete, session.imsi(), session.binding(), -1, 0, moved,
                GtpBearer.NONE);
    }

    private static boolean isCommand(int type) {
        return type == V2_MODIFY_BEARER_COMMAND || type == V2_DELETE_BEARER_COMMAND || type == V2_BEARER_RESOURCE_COMMAND;
    }

    /** TS 29.274 §7.2.x: Modify Bearer (65), Delete Bearer (67), Bearer Resource (69) Failure Indication. */
    private static boolean isFailureIndication(int type) {
        return isCommand(type - 1);
    }

    /**
     * The requester's Command that a real's request or Failure Indication under {@code sequence}
     * answers, on this session, no longer outstanding; or null.
     */
    private GtpForwardedCommands.Outstanding answeredCommand(InetSocketAddress real, int sequence, GtpSession session) {
        return commands.answered(real.getAddress(), sequence, session.directorTeid());
    }

    /** Subscribers with an open session, for tests. */
    int subscribers() {
        return subscribers.size();
    }

    /** Commands forwarded and not answered yet, for tests. */
    int outstandingCommands() {
        return commands.size();
    }

    /**
     * A create that already carries the director's endpoint: the one a refusing real had, resent to
     * another real by the engine. Its requester is the one remembered when it was first rewritten.
     */
    private PendingCreate resentCreate(GtpMessageView view) throws DecodeException {
        if (view.version() == 0) {
            // GSM 09.60: one TID per context, the key of a pending v0 create.
            return pendingV0Creates.isEmpty() || !rewriter.namesDirector(view) ? null
                    : pendingV0Creates.get(view.v0().tid());
        }
        if (pendingCreates.isEmpty()) {
            return null;
        }
        long own = rewriter.directorTeidNamed(view);
        return own == GtpEndpointRewriter.UNCHANGED ? null : pendingCreates.get(own);
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
            createTeids.remove(request.createKey());
        }
        restoreRequesterTeid(view, request);
        if (request.create()) {
            if (version == 2 ? options.resourceCausesV2().contains(cause) : options.resourceCausesV1().contains(cause)) {
                return ResponseVerdict.RETRY_ELSEWHERE; // the pending create stays for the resend
            }
            if (version == 0) {
                pendingV0Creates.remove(view.v0().tid());
            } else if (request.realFacingTeid() != 0) {
                pendingCreates.remove(request.realFacingTeid());
            }
            if (request.session() == null && accepted(version, cause)) {
                learn(view, real, request);
            }
            return ResponseVerdict.RELAY;
        }
        GtpSession session = request.session();
        if (session == null) {
            return ResponseVerdict.RELAY;
        }
        touch(session, now());
        int type = view.messageTypeValue();
        if (type == (version == 2 ? V2_MODIFY_BEARER_RESPONSE : V1_UPDATE_RESPONSE) && accepted(version, cause)) {
            relearn(view, session, request.requester());
        } else if (version == 2 && type == V2_CREATE_INDIRECT_FORWARDING_RESPONSE && accepted(version, cause)) {
            learnForwardingContext(view, session, request.requester());
        } else if (request.delete() && (accepted(version, cause) || unknownContext(version, cause))) {
            end(session);
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
     * The real no longer knows the session (TS 29.060 §7.7.1 192 non-existent, TS 29.274 §8.4 64
     * context not found): the session is gone there, so it ends here too.
     */
    private static boolean unknownContext(int version, int cause) {
        return version == 2 ? cause == 64 : cause == 192;
    }

    /** TS 29.060 §7.7.1: 128..191 accept; TS 29.274 §8.4: 16..63 accept. */
    private static boolean accepted(int version, int cause) {
        return version == 2 ? cause >= 16 && cause <= 63 : cause >= 128 && cause <= 191;
    }

    /**
     * An accepted create: the real's TEID-C and control-plane address in the response become a
     * director TEID and the director's address, and the session is remembered under that TEID (v0:
     * the TID).
     */
    private void learn(GtpMessageView view, RealServer real, RequestContext request) throws DecodeException {
        long now = clusterMillis(now());
        Endpoint requester = request.requester();
        GtpSession session;
        GtpSession replacedV0 = null;
        if (view.version() == 0) {
            long tid = view.v0().tid();
            session = new GtpSession(0, real, request.imsi(), request.binding(), tid, 0, 0, 0,
                    requester == null ? null : requester.address(), now);
            rewriter.rewrite(view, 0);
            replacedV0 = v0Sessions.get(tid); // the same TID created again: the requester lost the old context
            v0Sessions.put(tid, session);
        } else {
            if (view.version() == 1 && view.senderControlPlane() == null) {
                return; // no TEID-C in the answer: nothing to learn (a GSN Address alone is not rewritten)
            }
            // The director TEID is the odd one of the pair whose even one the real knows the requester by.
            long teid = (request.realFacingTeid() != 0 ? request.realFacingTeid() : allocateTeidPair()) | 1;
            // The real's own endpoint, read as the director's replaces it (v2: the one pass over the IEs).
            Endpoint endpoint = rewriter.rewrite(view, teid);
            if (endpoint == null) {
                return; // v2: no sender F-TEID in the answer, nothing rewritten or learnt
            }
            // The real knows the director as the requester only when the create named a TEID-C to replace.
            boolean relayable = requester != null && requester.teid() != GtpEndpointRewriter.UNCHANGED && request.realFacingTeid() != 0;
            session = new GtpSession(view.version(), real, request.imsi(), request.binding(), teid,
                    relayable ? request.realFacingTeid() : 0, endpoint.teid(),
                    relayable ? requester.teid() : 0, relayable ? requester.address() : null, now, request.bearer());
            sessions.put(teid, session);
        }
        long replaced = opened(session);
        // Counted before the old one ends, so that the IMSI's binding stays: it has a session all along.
        if (replacedV0 != null) {
            closed(replacedV0);
        } else if (replaced != GtpSubscribers.NONE) {
            replace(session, replaced);
        }
    }

    /**
     * A create for a bearer that has a session already (TS 29.274 §7.2.1, TS 29.060 §7.3.1; see
     * {@link GtpBearer}): the real deleted the old context when it accepted the new one, and the
     * requester no longer uses it, so the old session ends here too. Looked up in this node's index of
     * the sessions it learnt or (in a cluster) read at the last recount: a replacement that reaches
     * another node before the original's session reached this one ends with its idle time instead.
     */
    private void replace(GtpSession session, long previous) {
        GtpSession old = sessions.get(previous);
        if (old != null && GtpSubscribers.sameBearer(session, old) && end(old)) {
            replacedSessions.increment();
        }
    }

    /** Counts the session; returns the director TEID of the session of its bearer it replaces, or NONE. */
    private long opened(GtpSession session) {
        session.real().sessionOpened();
        open(session.real()).incrementAndGet();
        return subscribers.opened(session);
    }

    /**
     * An accepted Update / Modify Bearer answer naming the real's (possibly new) TEID-C and address:
     * the session follows the new TEID, and the answer names the director's TEID and address again; a
     * requester that moved (a new SGSN or MME sent the Update) receives the real's requests from now on.
     */
    private void relearn(GtpMessageView view, GtpSession session, Endpoint moved) throws DecodeException {
        SharedTable<Long, GtpSession> table = table(session);
        GtpSession current = table.get(session.directorTeid());
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
            table.put(changed.directorTeid(), changed.refreshed(clusterMillis(now())));
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
        long teid = allocateTeidPair() | 1;
        rewriter.rewrite(view, teid);
        long requesterTeid = requester != null && requester.teid() != GtpEndpointRewriter.UNCHANGED
                ? requester.teid() : session.requesterTeid();
        GtpSession forwarding = new GtpSession(2, session.real(), session.imsi(), session.binding(), teid, teid & ~1L,
                endpoint.teid(), requesterTeid, requester != null ? requester.address() : session.requester(),
                clusterMillis(now()), GtpBearer.INDIRECT_FORWARDING);
        sessions.put(teid, forwarding);
        opened(forwarding);
    }

    /**
     * A datagram at the virtual address that is part of a real's own transaction: a real's request
     * for a session (found by the real-facing TEID, or a v0 TID, sent from the session's real) goes to the
     * requester; the requester's answer to one goes back to the real. Anything else is classified.
     */
    @Override
    public InetSocketAddress relayTarget(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        GtpMessageView view = view(datagram);
        if (view.isRequest()) {
            GtpSession session = realsSession(view, sender);
            return session == null ? null : relayRequest(view, session, sender);
        }
        if (view.isResponse()) {
            GtpRelayedRequests.Relayed request = relayed.answered(view.version(), view.sequence(),
                    (version, key) -> (version == 0 ? v0Sessions : sessions).get(key));
            if (request != null) {
                return relayAnswer(view, request);
            }
            return view.version() == 2 && isFailureIndication(view.messageTypeValue()) ? relayFailure(view, sender) : null;
        }
        return null;
    }

    /**
     * A real's Failure Indication (to the director socket its Command came from, or to the virtual
     * address): the answer to a requester's Command, it goes to the requester under the requester's
     * TEID and Command sequence number.
     */
    private InetSocketAddress relayFailure(GtpMessageView view, InetSocketAddress sender) throws DecodeException {
        GtpSession session = realsSession(view, sender);
        GtpForwardedCommands.Outstanding command = session == null ? null : answeredCommand(sender, view.sequence(), session);
        if (command == null) {
            return null;
        }
        view.setTeid(session.requesterTeid());
        view.setSequence(command.requesterSequence());
        messages.count(view, view.cause(), session.real(), GtpMessageCounters.Initiator.REQUESTER);
        touch(session, now());
        return session.requester();
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
            GtpSession session = realsSession(view, sender);
            return session == null ? null : relayRequest(view, session, sender);
        }
        return view.isResponse() && isFailureIndication(view.messageTypeValue()) ? relayFailure(view, sender) : null;
    }

    /** The session a real's request belongs to, or null when it is not one. */
    private GtpSession realsSession(GtpMessageView view, InetSocketAddress sender) {
        if (view.version() == 0) {
            GtpSession session = v0Sessions.get(view.v0().tid());
            // One TID on both sides: the sender tells whose request it is.
            return session != null && session.requester() != null && !view.createsTunnel()
                    && session.real().address().equals(sender) ? session : null;
        }
        long teid = view.teid();
        // A real-facing TEID is even, its session's director TEID the odd one above it.
        GtpSession session = teid > 0 && (teid & 1) == 0 ? sessions.get(teid | 1) : null;
        // Only the session's real knows that TEID; from any other address it names no session.
        return session != null && session.realFacingTeid() == teid
                && session.real().address().getAddress().equals(sender.getAddress()) ? session : null;
    }

    private InetSocketAddress relayRequest(GtpMessageView view, GtpSession session, InetSocketAddress sender)
            throws DecodeException {
        int version = view.version();
        int realSequence = view.sequence();
        if (realSequence < 0) {
            throw new DecodeException(NO_SEQUENCE, "GTPv1 request of a real without sequence number");
        }
        long now = now();
        GtpRelayedRequests.Relayed request = relayed.pending(sender, version, realSequence);
        if (request != null) {
            relayedRetransmissions.increment();
        } else {
            int type = view.messageTypeValue();
            boolean delete = version == 2
                    ? type == V2_DELETE_BEARER_REQUEST && GtpV2Ies.indexOf(view.v2().buffer(), view.v2().bodyOffset(),
                            view.v2().endOffset(), V2_EBI, 0) >= 0
                    : type == V1_DELETE_REQUEST;
            GtpForwardedCommands.Outstanding command = version == 2 ? answeredCommand(sender, realSequence, session) : null;
            if (command != null) {
                request = relayed.addTriggered(sender, version, realSequence, command.requesterSequence(), session,
                        delete, now, clusterMillis(now));
                if (request != null) {
                    relayedTriggered.increment();
                }
            }
            if (request == null) {
                request = relayed.add(sender, version, realSequence, session, delete, now, clusterMillis(now));
            }
            relayedRequests.increment();
        }
        touch(session, now);
        if (version != 0) {
            view.setTeid(session.requesterTeid());
        }
        view.setSequence(request.sequence());
        messages.count(view, -1, session.real(), GtpMessageCounters.Initiator.REAL);
        return session.requester();
    }

    private InetSocketAddress relayAnswer(GtpMessageView view, GtpRelayedRequests.Relayed request) throws DecodeException {
        GtpSession relayedFor = request.session();
        GtpSession current = table(relayedFor).get(relayedFor.directorTeid());
        GtpSession session = current == null ? relayedFor : current;
        int version = view.version();
        int cause = view.cause();
        if (version != 0 && view.teid() > 0) {
            // 0 stays 0: "no such context" (TS 29.060 §7.3.6); a v2 answer without TEID (T flag clear,
            // -1 here) has no field to write and goes as it is
            view.setTeid(session.realTeid());
        }
        view.setSequence(request.realSequence());
        messages.count(view, cause, session.real(), GtpMessageCounters.Initiator.REAL);
        touch(session, now());
        if (request.delete() && (accepted(version, cause) || unknownContext(version, cause))) {
            end(session);
        }
        return request.realSender();
    }

    /** A session ended (Delete, idleness, restart of its real): gone from the table, on every node. */
    private boolean end(GtpSession session) {
        if (table(session).remove(session.directorTeid())) {
            closed(session);
            return true;
        }
        return false;
    }

    private void closed(GtpSession session) {
        session.real().sessionClosed();
        open(session.real()).decrementAndGet();
        // The IMSI's last session (in a farm) ended: its binding ends too (unless configured otherwise).
        StickyTable table = sticky;
        if (subscribers.closed(session) && options.unstickOnDelete() && table != null) {
            table.remove(imsiKey(session.binding()));
        }
    }

    /**
     * The real restarted and lost its sessions: they end here too, and so on every node (whichever
     * node notices first removes them from the shared table).
     */
    @Override
    public void realRestarted(RealServer real) {
        super.realRestarted(real);
        for (GtpSession session : all()) {
            if (session.real() == real && end(session)) {
                purgedSessions.increment();
            }
        }
    }

    private List<GtpSession> all() {
        List<GtpSession> all = new ArrayList<>();
        sessions.forEach((k, s) -> all.add(s));
        v0Sessions.forEach((k, s) -> all.add(s));
        return all;
    }

    /**
     * Ends sessions idle for {@code session-idle} (looked for every second, or every
     * {@code session-idle / 64} when longer) and forgets relayed requests that got no answer; at most
     * once a second, whichever event loop comes first. In a cluster the same pass recounts
     * the open sessions per real and per IMSI from the table, which holds every node's sessions.
     */
    @Override
    public void housekeep(long now) {
        long due = nextSweepNanos.get();
        if (due != Long.MIN_VALUE && now - due < 0 || !nextSweepNanos.compareAndSet(due, now + 1_000_000_000L)) {
            return;
        }
        sweepSessions(now);
        relayedExpired.increment(relayed.expire(now, relayTimeoutNanos, clusterMillis(now)));
        // Creates that were never answered (the engine expired them): their reservations go.
        pendingCreates.values().removeIf(p -> now - p.sinceNanos() > 2 * relayTimeoutNanos);
        pendingV0Creates.values().removeIf(p -> now - p.sinceNanos() > 2 * relayTimeoutNanos);
        createTeids.values().removeIf(c -> now - c.sinceNanos() > 2 * relayTimeoutNanos);
        // Commands whose answer did not pass here (lost, or another node's) are forgotten.
        commands.expire(now, relayTimeoutNanos);
        // Alone, every session was counted as it opened and ended here: nothing to recount (a pass
        // that would hash every session and IMSI each second).
        if (sessions.sharedWithOtherNodes() || v0Sessions.sharedWithOtherNodes()) {
            recount();
        }
    }

    /**
     * Ends the sessions idle for longer than {@code session-idle} plus the refresh slack, every
     * {@link #sessionSweepNanos}: a pass over every session, which a node holding
     * a million would otherwise make every second for sessions that idle for a day.
     */
    private void sweepSessions(long now) {
        long due = nextSessionSweepNanos;
        if (due != Long.MIN_VALUE && now - due < 0) {
            return;
        }
        nextSessionSweepNanos = now + sessionSweepNanos;
        long oldest = clusterMillis(now) - sessionIdleMillis - refreshMillis;
        // Straight over the tables (a concurrent map's iteration tolerates the removals): no list of
        // every session per sweep, which a node holding a million sessions would build every second.
        BiConsumer<Long, GtpSession> expire = (key, session) -> {
            if (session.refreshedMillis() < oldest && end(session)) {
                expiredSessions.increment();
            }
        };
        sessions.forEach(expire);
        v0Sessions.forEach(expire);
    }

    /**
     * Sets the open-session counts (per real: its connections for {@code leastconns}, and the gauge;
     * per IMSI: when its binding ends) to what this node's copy of the table holds: every node's
     * sessions, so in a cluster each node counts the whole cluster's sessions per real. Between two
     * recounts, the sessions this node opens and ends count at once; those of other nodes at the next.
     */
    private void recount() {
        Map<RealServer, Integer> perReal = new HashMap<>();
        List<GtpSession> all = all();
        for (GtpSession session : all) {
            perReal.merge(session.real(), 1, Integer::sum);
        }
        openPerReal.forEach((real, count) -> {
            int delta = perReal.getOrDefault(real, 0) - count.get();
            count.addAndGet(delta);
            for (; delta > 0; delta--) {
                real.sessionOpened();
            }
            for (; delta < 0; delta++) {
                real.sessionClosed();
            }
        });
        subscribers.recount(all);
    }

    /**
     * A pair of director TEIDs for a session: the even one for the real (the requester's TEID-C as
     * the real knows it), the odd one above it for the requester. This node's cluster slot is in the
     * top bits, so no other live node allocates them; never 0, never a pair in use (a node that
     * restarts with a slot that was another's skips the sessions that node left in the table).
     */
    private long allocateTeidPair() {
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
                    || sessions.get(teid | 1) == null && !pendingCreates.containsKey(teid))) {
                return teid;
            }
        }
    }
}
