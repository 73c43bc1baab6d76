package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import io.switchboard.codec.gtp.v2.GtpV2IeType;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.udp.PluginContext;
import io.switchboard.director.udp.SessionListing;
import io.switchboard.director.udp.ResponseVerdict;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code service: gtp-inspect}, IOS SLB GPRS load balancing with cause-code inspection, for GTPv1 and
 * GTPv2 (GTPv0 creates are balanced as in {@code gtp}, without sessions):
 *
 * <ul>
 *   <li>Create responses with a resource cause ({@code resource-causes}) fail the real and have the
 *       engine resend the create to another real (at most {@code reassign} times); the requester only
 *       sees the final answer.</li>
 *   <li>In an accepted Create response the real's control-plane address (v1 first GSN Address, v2
 *       sender F-TEID IPv4) becomes the virtual address and its TEID-C a director-allocated TEID, so
 *       that the requester's later Update/Delete come to the virtual address; they are found by that
 *       TEID, sent to the real that holds the session with the real's own TEID in the header, and an
 *       accepted Delete response ends the session.</li>
 * </ul>
 *
 * Sessions are kept in this plug-in (one table per virtual server, shared by its event loops).
 */
final class GtpInspectPlugin extends GtpPlugin implements SessionListing {

    /** A request with a TEID that names no session of this virtual server. */
    static final DropReason UNKNOWN_SESSION = DropReason.of("gtp-unknown-session");

    /** TS 29.060 §7.1 / TS 29.274 §6.1: Delete PDP Context Request, Delete Session Request. */
    private static final int V1_DELETE_REQUEST = 20;
    private static final int V2_DELETE_SESSION_REQUEST = 36;
    /** TS 29.060 §7.3.4: Update PDP Context Response, which may name a new GGSN address and TEID-C. */
    private static final int V1_UPDATE_RESPONSE = 19;

    /** A session: where it lives and the real's own TEID-C for it. */
    record Session(String farm, String real, long realTeid, String imsi) {
    }

    /**
     * What prepareRequest remembers: whether the request creates a tunnel, the director TEID of the
     * session it belongs to (0 for a primary create), whether it deletes that session, and the IMSI.
     */
    private record RequestContext(boolean create, long directorTeid, boolean delete, String imsi) {
    }

    private final Inet4Address vip;
    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
    /** Open sessions per IMSI, to end its sticky binding with its last session. */
    private final Map<String, Integer> sessionsPerImsi = new ConcurrentHashMap<>();
    private volatile StickyTable sticky;
    private final AtomicInteger nextTeid = new AtomicInteger(1);

    GtpInspectPlugin(GtpOptions options, InetAddress vip) {
        super(options);
        this.vip = vip instanceof Inet4Address v4 ? v4 : null;
    }

    @Override
    public void attach(PluginContext context) {
        super.attach(context);
        this.sticky = context.sticky();
    }

    /** The open sessions by director TEID, for tests. */
    Map<Long, Session> sessionTable() {
        return java.util.Collections.unmodifiableMap(sessions);
    }

    @Override
    public java.util.List<SessionListing.Session> sessions() {
        java.util.List<SessionListing.Session> list = new java.util.ArrayList<>();
        sessions.forEach((teid, s) -> list.add(new SessionListing.Session(String.format("0x%08x", teid), s.imsi(),
                s.farm(), s.real(), String.format("real TEID-C 0x%08x", s.realTeid()))));
        return list;
    }

    @Override
    public int reassignLimit() {
        return options.reassign();
    }

    private Session session(GtpMessageView view) throws DecodeException {
        long teid = view.teid();
        Session session = teid > 0 ? sessions.get(teid) : null;
        if (session == null) {
            throw new DecodeException(UNKNOWN_SESSION, "GTPv" + view.version() + " request type "
                    + view.messageTypeValue() + " for TEID " + teid + ", which is no session here");
        }
        return session;
    }

    @Override
    StickyKey classifyOther(GtpMessageView view) throws DecodeException {
        if (view.version() == 0) {
            return super.classifyOther(view);
        }
        return imsiKey(session(view).imsi());
    }

    @Override
    StickyKey classifyCreateWithoutImsi(GtpMessageView view) throws DecodeException {
        if (view.version() == 0 || view.teid() <= 0) {
            return super.classifyCreateWithoutImsi(view);
        }
        return imsiKey(session(view).imsi()); // a secondary PDP context: with its primary
    }

    /** Requests of a session go to the real that holds it. */
    @Override
    public StickyBinding route(ByteBuf request) throws DecodeException {
        GtpMessageView view = view(request);
        if (view.version() == 0 || view.teid() <= 0) {
            return null;
        }
        Session session = session(view);
        return new StickyBinding(session.farm(), session.real());
    }

    @Override
    public Object prepareRequest(ByteBuf request, long transactionId, RealServer real) throws DecodeException {
        GtpMessageView view = view(request);
        view.setSequence((int) transactionId);
        long teid = view.teid();
        if (view.version() == 0 || teid <= 0) {
            return new RequestContext(true, 0, false, view.imsi());
        }
        Session session = session(view);
        view.setTeid(session.realTeid());
        int type = view.messageTypeValue();
        boolean delete = view.version() == 1 ? type == V1_DELETE_REQUEST : type == V2_DELETE_SESSION_REQUEST;
        return new RequestContext(view.createsTunnel(), teid, delete, session.imsi());
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
        if (request.create()) {
            if (version == 2 ? options.resourceCausesV2().contains(cause) : options.resourceCausesV1().contains(cause)) {
                return ResponseVerdict.RETRY_ELSEWHERE;
            }
            if (version != 0 && accepted(version, cause)) {
                learn(view, real, request);
            }
        } else if (version == 1 && view.messageTypeValue() == V1_UPDATE_RESPONSE && accepted(version, cause)) {
            relearn(view, request.directorTeid());
        } else if (request.delete() && (accepted(version, cause) || unknownContext(version, cause))) {
            Session ended = sessions.remove(request.directorTeid());
            if (ended != null && ended.imsi() != null) {
                ended(ended.imsi());
            }
        }
        return ResponseVerdict.RELAY;
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
     * director TEID and the virtual address, and the session is remembered under that TEID.
     */
    private void learn(GtpMessageView view, RealServer real, RequestContext request) throws DecodeException {
        GtpControlEndpoint endpoint = view.senderControlPlane();
        if (endpoint == null) {
            return; // no TEID-C in the answer (a secondary context keeps its primary's): nothing to learn
        }
        long teid = allocate(new Session(real.farm(), real.id(), endpoint.teid(), request.imsi()));
        if (request.imsi() != null) {
            sessionsPerImsi.merge(request.imsi(), 1, Integer::sum);
        }
        ByteBuf buf = view.version() == 1 ? view.v1().buffer() : view.v2().buffer();
        if (view.version() == 1) {
            GtpV1Ies.setTeidControlPlane(buf, view.v1(), teid);
            if (vip != null) {
                GtpV1Ies.setGsnAddress(buf, view.v1(), 0, vip);
            }
        } else {
            int ie = GtpV2Ies.indexOf(buf, view.v2().bodyOffset(), view.v2().endOffset(), GtpV2IeType.F_TEID.value(), 0);
            GtpV2Ies.setFteidTeid(buf, ie, teid);
            if (vip != null) {
                GtpV2Ies.setFteidIpv4(buf, ie, vip);
            }
        }
    }

    /**
     * An accepted GTPv1 Update answer naming the GGSN's (possibly new) TEID-C and address: the session
     * follows the new TEID, and the answer names the director's TEID and the virtual address again.
     */
    private void relearn(GtpMessageView view, long directorTeid) throws DecodeException {
        GtpControlEndpoint endpoint = view.senderControlPlane();
        Session session = sessions.get(directorTeid);
        if (endpoint == null || session == null) {
            return;
        }
        sessions.replace(directorTeid, session, new Session(session.farm(), session.real(), endpoint.teid(),
                session.imsi()));
        GtpV1Ies.setTeidControlPlane(view.v1().buffer(), view.v1(), directorTeid);
        if (vip != null) {
            GtpV1Ies.setGsnAddress(view.v1().buffer(), view.v1(), 0, vip);
        }
    }

    /** The IMSI's last session ended: its binding ends too (unless configured otherwise). */
    private void ended(String imsi) {
        Integer left = sessionsPerImsi.computeIfPresent(imsi, (k, n) -> n > 1 ? n - 1 : null);
        StickyTable table = sticky;
        if (left == null && options.unstickOnDelete() && table != null) {
            table.remove(imsiKey(imsi));
        }
    }

    /** A director TEID for a new session: never 0, never one in use. */
    private long allocate(Session session) {
        while (true) {
            long teid = nextTeid.getAndIncrement() & 0xFFFF_FFFFL;
            if (teid != 0 && sessions.putIfAbsent(teid, session) == null) {
                return teid;
            }
        }
    }
}
