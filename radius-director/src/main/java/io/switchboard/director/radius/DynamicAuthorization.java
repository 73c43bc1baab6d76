package io.switchboard.director.radius;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.FarmView;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.RealRequests;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The plug-in of a {@code radius-dae} virtual server: Dynamic Authorization (RFC 5176) proxied to
 * the NAS of the session, as RFC 8559 describes a proxy's part. A CoA- or Disconnect-Request from a
 * real of the farm (an AAA server), verified with that real's secret, goes to the NAS that holds the
 * session — learnt from accounting by a {@code radius} virtual server ({@link DaeSessions}) — at its
 * DAE port, under an identifier of the director's and re-signed with the NAS's secret; the NAS's
 * ACK or NAK comes back to the AAA re-signed with the AAA's secret, its identifier and authenticator.
 * These are the engine's relayed requests ({@link RealRequests}): the engine numbers them, recognises
 * the AAA's retransmissions and finds the pending request on any node of a cluster. When no session
 * matches, the director answers the NAK itself (RFC 5176 §3.6: Error-Cause 503, Session Context Not
 * Found; 502, Request Not Routable, when the session's NAS has no entry here). A request from an
 * address that is not a real of the farm is dropped and counted.
 *
 * <p>A relayed request's context carries the AAA's request as it came (at most 4096 octets): the
 * answer's check needs the authenticator the NAS saw, which is recomputed from it, so that no secret
 * ever goes into the table the nodes share.
 */
final class DynamicAuthorization implements TransactionPlugin<Object>, RealRequests<DynamicAuthorization.Relayed> {

    /** A CoA- or Disconnect-Request from an address that is no real of the virtual server's farm. */
    static final DropReason NOT_A_REAL = DropReason.of("radius-dae-not-a-real");
    /** A NAS's answer that does not verify with its secret, or answers another code. */
    static final DropReason BAD_ANSWER = DropReason.of("radius-dae-bad-answer");

    /** RFC 5176 §3.6 Error-Cause values. */
    static final int REQUEST_NOT_ROUTABLE = 502;
    static final int SESSION_CONTEXT_NOT_FOUND = 503;

    /** What the NAS's answer needs: the AAA's request as it came, the NAS, and the AAA. */
    record Relayed(byte[] request, InetAddress nas, InetAddress aaa) {
    }

    private final String name;
    private final String sessionsGroup;
    private final DaeOptions.Nas[] nases;

    private volatile FarmView farm;
    private volatile DaeSessions sessions;
    /** Per request code: relayed, answered session-not-found, answered not-routable (null until attach). */
    private volatile Counter[] relayed = new Counter[256];
    private volatile Counter[] notFound = new Counter[256];
    private volatile Counter[] notRoutable = new Counter[256];
    private volatile Counter[] answers = new Counter[256];

    DynamicAuthorization(String name, DaeOptions options) {
        this.name = name;
        this.sessionsGroup = options.sessions();
        List<DaeOptions.Nas> sorted = new ArrayList<>(options.nases());
        sorted.sort(Comparator.comparingInt((DaeOptions.Nas n) -> n.client().prefixBits()).reversed());
        this.nases = sorted.toArray(new DaeOptions.Nas[0]);
    }

    @Override
    public void attach(PluginContext context) {
        this.farm = context.farms().farm(context.config().farm());
        this.sessions = DaeSessions.of(context.farms(), context.tables(), sessionsGroup, context.ticker());
        MeterRegistry registry = context.registry();
        this.relayed = daeRequests(registry, "relayed");
        this.notFound = daeRequests(registry, "session-not-found");
        this.notRoutable = daeRequests(registry, "not-routable");
        this.answers = RadiusMeters.byCode(registry, RadiusMeters.DAE_ANSWERS, name, RadiusCode.COA_ACK,
                RadiusCode.COA_NAK, RadiusCode.DISCONNECT_ACK, RadiusCode.DISCONNECT_NAK);
    }

    private Counter[] daeRequests(MeterRegistry registry, String outcome) {
        Counter[] counters = new Counter[256];
        for (RadiusCode code : List.of(RadiusCode.COA_REQUEST, RadiusCode.DISCONNECT_REQUEST)) {
            counters[code.value()] = RadiusMeters.DAE_REQUESTS.counter().tag("vserver", name).tag("code", code.name())
                    .tag("outcome", outcome).register(registry);
        }
        return counters;
    }

    /** Count of DAE requests of {@code code} with {@code outcome} ({@code relayed}, ...), for tests. */
    double count(String outcome, RadiusCode code) {
        Counter[] c = switch (outcome) {
            case "relayed" -> relayed;
            case "session-not-found" -> notFound;
            case "not-routable" -> notRoutable;
            default -> answers;
        };
        return c[code.value()] == null ? 0 : c[code.value()].count();
    }

    /** The sessions it routes by, for tests. */
    DaeSessions sessions() {
        return sessions;
    }

    // ---- from the AAA and the NAS ----

    /**
     * A CoA- or Disconnect-Request from an AAA real: relayed to its session's NAS, or answered with
     * a NAK; an ACK or NAK from a NAS: the answer to a relayed request.
     */
    @Override
    public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException {
        RadiusView view = RadiusView.wrap(datagram);
        int code = view.code();
        if (code == RadiusCode.COA_REQUEST.value() || code == RadiusCode.DISCONNECT_REQUEST.value()) {
            return request(view, datagram, sender, alloc);
        }
        if (code == RadiusCode.COA_ACK.value() || code == RadiusCode.COA_NAK.value()
                || code == RadiusCode.DISCONNECT_ACK.value() || code == RadiusCode.DISCONNECT_NAK.value()) {
            if (nas(sender.getAddress()) == null) {
                throw new DecodeException(EngineDrops.CLIENT_NOT_ALLOWED, "no client entry for " + sender.getAddress());
            }
            return new Decision.PeerAnswer(space(sender.getAddress()), view.identifier());
        }
        throw new DecodeException(DropReason.UNEXPECTED_MESSAGE,
                RadiusCode.valueOf(code) + " is not relayed by a radius-dae virtual server");
    }

    private Decision request(RadiusView view, ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc)
            throws DecodeException {
        byte[] secret = aaaSecret(sender.getAddress());
        if (secret == null) {
            throw new DecodeException(NOT_A_REAL, sender.getAddress() + " is no real of farm "
                    + (farm == null ? "?" : farm.name()) + " with a secret");
        }
        // RFC 5176 §3.5: the Request Authenticator as an Accounting-Request's (and any Message-Authenticator).
        if (!RadiusAuthenticators.verifyRequest(view, secret)) {
            throw new DecodeException(RadiusPlugin.BAD_AUTHENTICATOR, "does not verify with the secret of the real at "
                    + sender.getAddress());
        }
        int code = view.code();
        InetAddress nas = nasOf(view);
        if (nas == null) {
            RadiusMeters.count(notFound, code);
            return new Decision.AnswerLocally(nak(view, SESSION_CONTEXT_NOT_FOUND, secret, alloc));
        }
        DaeOptions.Nas entry = nas(nas);
        if (entry == null) {
            RadiusMeters.count(notRoutable, code);
            return new Decision.AnswerLocally(nak(view, REQUEST_NOT_ROUTABLE, secret, alloc));
        }
        RadiusMeters.count(relayed, code);
        byte[] request = new byte[view.length()];
        datagram.getBytes(view.base(), request);
        // The identifier with the authenticator's first seven octets: a new request reusing an
        // identifier is not taken for a retransmission.
        long realId = (datagram.getLong(view.base() + RadiusView.AUTHENTICATOR_OFFSET) << 8) | view.identifier();
        return new Decision.RealRequest(new InetSocketAddress(nas, entry.daePort()), space(nas), realId, -1,
                new Relayed(request, nas, sender.getAddress()));
    }

    /**
     * The NAS a request is for: its session's (RFC 5176 §3: by the session identification attributes
     * it carries), or — when it names no session, only its NAS — the NAS-IP-Address it names (one of
     * RFC 5176 §3's NAS identification attributes); null when neither is known. Operator-Name, by which
     * RFC 8559 routes between operators' proxies, names no NAS here and is relayed as it is.
     */
    private InetAddress nasOf(RadiusView view) {
        DaeSessions.Session session = sessions.find(view);
        if (session != null) {
            return session.nas();
        }
        for (int type : DaeSessions.INDEXED) {
            if (view.find(type) >= 0) {
                return null;
            }
        }
        int nasIp = view.find(RadiusAttributeType.NAS_IP_ADDRESS.value());
        if (nasIp < 0 || view.valueLength(nasIp) != 4) {
            return null;
        }
        try {
            return InetAddress.getByAddress(view.value(nasIp));
        } catch (UnknownHostException e) {
            return null; // four octets always make an address
        }
    }

    /** RFC 5176 §3.6: a NAK (CoA-NAK or Disconnect-NAK) with Error-Cause, signed like an Accounting-Response. */
    private static ByteBuf nak(RadiusView request, int errorCause, byte[] secret, ByteBufAllocator alloc) {
        RadiusCode code = request.code() == RadiusCode.COA_REQUEST.value() ? RadiusCode.COA_NAK : RadiusCode.DISCONNECT_NAK;
        ByteBuf out = alloc.buffer(RadiusView.HEADER_LENGTH + 6);
        new DefaultRadiusPacket(code, request.identifier(), new byte[RadiusView.AUTHENTICATOR_LENGTH],
                List.of(RadiusAttribute.integer(RadiusAttributeType.ERROR_CAUSE, errorCause))).encode(out);
        try {
            RadiusAuthenticators.signResponse(RadiusView.wrap(out), request.authenticator(), secret);
        } catch (DecodeException e) {
            out.release();
            throw new IllegalStateException("a NAK the director built does not parse", e);
        }
        return out;
    }

    // ---- the engine's relayed requests ----

    @Override
    public RealRequests<?> realRequests() {
        return this;
    }

    /** RFC 5176 §2.3: the one-octet RADIUS identifier. */
    @Override
    public int directorIdBits(int space) {
        return 8;
    }

    @Override
    public long idAnswering(long clientTransactionId) {
        return clientTransactionId; // nothing the director forwards triggers a DAE request
    }

    @Override
    public Codec<Relayed> codec() {
        return CODEC;
    }

    /** Under the director's identifier, signed with the NAS's secret (RFC 5176 §3.5). */
    @Override
    public void prepareRequest(ByteBuf request, long directorId, Relayed context) throws DecodeException {
        RadiusAuthenticators.resignRequest(RadiusView.wrap(request), (int) directorId, null, nasSecret(context.nas()));
    }

    /**
     * The NAS's ACK or NAK, verified with its secret over the request it was sent, back to the AAA
     * under the AAA's identifier and authenticator, signed with the AAA's secret.
     */
    @Override
    public void prepareAnswer(ByteBuf answer, long realId, Relayed context) throws DecodeException {
        RadiusView view = RadiusView.wrap(answer);
        int requested = context.request()[0] & 0xff;
        int code = view.code();
        if (code != requested + 1 && code != requested + 2) { // RFC 5176 §3: ACK = request + 1, NAK = + 2
            throw new DecodeException(BAD_ANSWER, RadiusCode.valueOf(code) + " does not answer "
                    + RadiusCode.valueOf(requested));
        }
        byte[] nasSecret = nasSecret(context.nas());
        ByteBuf sent = Unpooled.wrappedBuffer(context.request().clone());
        RadiusView forwarded = RadiusView.wrap(sent);
        RadiusAuthenticators.resignRequest(forwarded, view.identifier(), null, nasSecret);
        if (!RadiusAuthenticators.verifyResponse(view, forwarded.authenticator(), nasSecret)) {
            throw new DecodeException(BAD_ANSWER, RadiusCode.valueOf(code) + " does not verify with the secret of "
                    + context.nas().getHostAddress());
        }
        byte[] aaaSecret = aaaSecret(context.aaa());
        if (aaaSecret == null) {
            throw new DecodeException(NOT_A_REAL, context.aaa() + " left farm " + farm.name());
        }
        RadiusAuthenticators.resignResponse(view, (int) (realId & 0xff),
                Arrays.copyOfRange(context.request(), RadiusView.AUTHENTICATOR_OFFSET, RadiusView.HEADER_LENGTH),
                aaaSecret);
        RadiusMeters.count(answers, code);
    }

    private byte[] nasSecret(InetAddress nas) throws DecodeException {
        DaeOptions.Nas entry = nas(nas);
        if (entry == null) {
            throw new DecodeException(EngineDrops.CLIENT_NOT_ALLOWED, "no client entry for " + nas);
        }
        return entry.client().secretBytes();
    }

    private DaeOptions.Nas nas(InetAddress address) {
        for (DaeOptions.Nas n : nases) {
            if (n.client().matches(address)) {
                return n;
            }
        }
        return null;
    }

    /** The secret of the farm's real at {@code address}, or null (none there, or it has no secret). */
    private byte[] aaaSecret(InetAddress address) {
        FarmView f = farm;
        if (f == null) {
            return null;
        }
        for (RealView real : f.reals()) {
            if (real.address().getAddress().equals(address)) {
                return real.value(RadiusModule.SECRET).map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null);
            }
        }
        return null;
    }

    /**
     * The id space of the requests to a NAS: a RADIUS identifier numbers the requests between two
     * addresses (RFC 2865 §5), so NASes spread over 256 spaces and each space has the 256 identifiers
     * (fewer per node in a cluster, which puts its slot in their top bits).
     */
    static int space(InetAddress nas) {
        int h = Arrays.hashCode(nas.getAddress());
        return (h ^ (h >>> 8) ^ (h >>> 16) ^ (h >>> 24)) & 0xff;
    }

    // ---- nothing is directed: the requests are the reals' ----

    @Override
    public int transactionIdBits() {
        return 8;
    }

    @Override
    public long responseTransactionId(ByteBuf response) throws DecodeException {
        throw new DecodeException(DropReason.UNEXPECTED_MESSAGE, "a radius-dae virtual server directs no request");
    }

    @Override
    public Object prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client)
            throws DecodeException {
        throw new DecodeException(DropReason.UNEXPECTED_MESSAGE, "a radius-dae virtual server directs no request");
    }

    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, Object context) throws DecodeException {
        throw new DecodeException(DropReason.UNEXPECTED_MESSAGE, "a radius-dae virtual server directs no request");
    }

    @Override
    public String toString() {
        return "DynamicAuthorization[" + name + "]";
    }

    /**
     * {@link Relayed} between nodes (a wire constant): format (1) = 1 | NAS address length (1) |
     * address | AAA address length (1) | address | the AAA's request.
     */
    static final Codec<Relayed> CODEC = new Codec<>() {
        private static final int FORMAT = 1;

        @Override
        public byte[] encode(Relayed r) {
            byte[] nas = r.nas().getAddress();
            byte[] aaa = r.aaa().getAddress();
            return ByteBuffer.allocate(3 + nas.length + aaa.length + r.request().length).put((byte) FORMAT)
                    .put((byte) nas.length).put(nas).put((byte) aaa.length).put(aaa).put(r.request()).array();
        }

        @Override
        public Relayed decode(byte[] bytes) {
            try {
                ByteBuffer in = ByteBuffer.wrap(bytes);
                if (in.get() != FORMAT) {
                    throw new IllegalArgumentException("DAE relay format " + bytes[0] + ", this node reads " + FORMAT);
                }
                byte[] nas = new byte[in.get() & 0xff];
                in.get(nas);
                byte[] aaa = new byte[in.get() & 0xff];
                in.get(aaa);
                byte[] request = new byte[in.remaining()];
                in.get(request);
                return new Relayed(request, InetAddress.getByAddress(nas), InetAddress.getByAddress(aaa));
            } catch (BufferUnderflowException | UnknownHostException e) {
                throw new IllegalArgumentException("truncated or bad DAE relay: " + e, e);
            }
        }
    };
}
