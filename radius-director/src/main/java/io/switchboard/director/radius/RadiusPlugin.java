package io.switchboard.director.radius;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.spi.RealView;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.shared.StickyCodecs;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.predictor.PrefixTable;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.FarmView;
import io.switchboard.director.spi.StickyBindings;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.ClientStreams;
import io.switchboard.director.spi.RealStreams;
import io.switchboard.director.radius.radsec.RadsecTransport;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The RADIUS plug-in of one virtual server. Requests: only Access-Request and Accounting-Request
 * from a known client, whose Accounting-Request authenticator and Message-Authenticator verify with
 * that client's secret, are directed; the director's identifier is written and the request re-signed
 * in place for the real's secret (User-Password re-hidden when the secrets differ). Answers: the
 * real's Response Authenticator (and Message-Authenticator) must verify with the real's secret and
 * the forwarded request's authenticator; the answer is then re-signed for the client with its own
 * identifier and authenticator, with a Message-Authenticator first in an Access-Accept, -Reject or
 * -Challenge ({@link MessageAuthenticatorPolicy}: what clients and reals must sign against
 * BlastRADIUS). A client's retransmission of an answered request is answered from the
 * {@link ResponseCache}. No other byte changes.
 *
 * <p>Shared by all event loops of the virtual server: its own state (State of open EAP conversations,
 * the {@link FramedPrefixes} learnt per client) lives in concurrent maps.
 */
final class RadiusPlugin implements TransactionPlugin<RadiusPlugin.Context> {

    static final DropReason BAD_AUTHENTICATOR = DropReason.of("radius-bad-authenticator");
    static final DropReason BAD_MESSAGE_AUTHENTICATOR = DropReason.of("radius-bad-message-authenticator");
    /** An answer from a real whose authenticators do not verify with the real's secret. */
    static final DropReason BAD_ANSWER = DropReason.of("radius-bad-answer");

    private static final byte[] ZERO_16 = new byte[16];

    private final String name;
    private final RadiusOptions options;
    /** An array: walked per request, where a list's iterator is an object per walk. */
    private final StickyKind[] keys;
    private final RadiusClients clients;
    /** RADIUS over TLS toward clients and reals (RFC 6614); null when not configured or before attach. */
    private volatile RadsecTransport radsec;
    private final long stateIdleNanos;

    private volatile StickyBindings sticky;
    private volatile Ticker ticker = Ticker.SYSTEM;
    private volatile RealSecrets realSecrets;
    /** The virtual server's farm, whose route map (predictor route-map) a reload may change; null before attach. */
    private volatile FarmView farm;
    /** VSA correlation, or null. */
    private final RadiusOptions.VsaCorrelation vsa;
    private volatile RadiusVsaCorrelation vsaCorrelation;
    /** Per code: admitted requests, verified answers (index = RADIUS code; null until attach). */
    private volatile io.micrometer.core.instrument.Counter[] requestCounters = new io.micrometer.core.instrument.Counter[256];
    private volatile io.micrometer.core.instrument.Counter[] answerCounters = new io.micrometer.core.instrument.Counter[256];
    /** What clients and reals must sign (BlastRADIUS; null until attach). */
    private volatile MessageAuthenticatorPolicy policy;
    /** Answers Status-Server sent to the virtual server (RFC 5997; null until attach). */
    private volatile StatusServer statusServer;
    /** The NAS of each session, for a radius-dae virtual server (null: not learnt). */
    private volatile DaeSessions daeSessions;
    /** Answers sent, for clients' retransmissions (RFC 5080 §2.2.2; null until attach). */
    private volatile ResponseCache responses;

    /**
     * State of an Access-Challenge → the key of its conversation (encoded), until it expires; shared,
     * so that a later round reaching another node of a cluster stays on the conversation's real.
     */
    private volatile HeldValues<ByteBuffer> states;
    /** The Framed-IP table: what answers teach about subscriber addresses. */
    private final FramedPrefixes framed;

    /** What the answer needs of its request; {@code ack} the director's own answer ({@link LocalAck}), or null. */
    record Context(byte[] clientAuthenticator, byte[] forwardedAuthenticator, byte[] clientSecret,
            byte[] realSecret, RealView real, InetAddress client, int clientPort, int code, long statusType,
            StickyKey[] framed, StickyKey key, int clientIdentifier, byte[] ack) {
    }

    RadiusPlugin(String name, RadiusOptions options, List<StickyKind> keys) {
        this.name = name;
        this.options = options;
        this.keys = keys.toArray(new StickyKind[0]);
        this.clients = new RadiusClients(options);
        this.stateIdleNanos = options.stateIdle().toNanos();
        this.vsa = options.vsaCorrelation().orElse(null);
        this.framed = new FramedPrefixes(options.framedIp());
    }

    @Override
    public void attach(PluginContext context) {
        this.sticky = context.sticky();
        this.ticker = context.ticker();
        this.realSecrets = new RealSecrets(context.farms());
        this.farm = context.farms().farm(context.config().farm());
        String group = context.config().sticky().flatMap(StickyConfig::group).orElse(context.config().name());
        this.vsaCorrelation = vsa == null ? null : new RadiusVsaCorrelation(vsa,
                VsaStore.of(context.sticky(), context.tables(), group, ticker), context.registry(), name);
        this.states = HeldValues.open(context.tables(), "radius/eap-states/" + name, HeldValues.OCTETS, ticker);
        this.requestCounters = RadiusMeters.byCode(context.registry(), RadiusMeters.REQUESTS, name,
                RadiusCode.ACCESS_REQUEST, RadiusCode.ACCOUNTING_REQUEST);
        this.answerCounters = RadiusMeters.byCode(context.registry(), RadiusMeters.ANSWERS, name,
                RadiusCode.ACCESS_ACCEPT, RadiusCode.ACCESS_REJECT, RadiusCode.ACCESS_CHALLENGE,
                RadiusCode.ACCOUNTING_RESPONSE);
        this.policy = new MessageAuthenticatorPolicy(name, clients.all(), context.registry());
        this.radsec = RadsecTransport.of(name, options.radsec(), context.config().listen(), clients,
                RadiusModule::radsec, farm, context.registry());
        this.responses = new ResponseCache(options.duplicates(), context.registry(), name);
        this.statusServer = new StatusServer(options.statusServer(), context.config().listen().port(), farm,
                context.registry(), name);
        this.daeSessions = options.daeSessions().map(d -> DaeSessions.of(context.farms(), context.tables(), group,
                ticker)).orElse(null);
    }

    /** The RadSec reals this virtual server reaches, carried on the lanes' connections (RFC 6614). */
    @Override
    public RealStreams realStreams() {
        return radsec;
    }

    /** The RadSec clients this virtual server accepts (RFC 6614), served by the engine beside its datagrams. */
    @Override
    public ClientStreams clientStreams() {
        return radsec == null ? null : radsec.clients();
    }

    /** Count of admitted requests ({@code requests}) or relayed answers of one code, for tests. */
    double count(boolean requests, RadiusCode code) {
        io.micrometer.core.instrument.Counter c = (requests ? requestCounters : answerCounters)[code.value()];
        return c == null ? 0 : c.count();
    }

    /** Accounting-Starts forwarded without the correlated VSA because their buffer cannot grow (for tests). */
    double vsaNotAddedForFixedBuffer() {
        return vsaCorrelation == null ? 0 : vsaCorrelation.notAddedForFixedBuffer();
    }

    /** The correlated VSA values this plug-in shares (for tests). */
    HeldValues<StickyKey> vsaStore() {
        return vsaCorrelation == null ? null : vsaCorrelation.store();
    }

    // ---- requests --------------------------------------------------------------------------------

    /**
     * The one read of a request: admitted (a known client's Access-Request or Accounting-Request whose
     * authenticators verify) and keyed, with its transaction (identifier and authenticator), its place
     * (the route map's real) and whether every accounting server must see it.
     */
    @Override
    public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException {
        RadiusView view = RadiusView.wrap(datagram);
        if (view.code() == RadiusCode.STATUS_SERVER.value() && statusServer != null) {
            // RFC 5997: answered here, from the director's view of its farm, never forwarded.
            return statusServer.answer(view, clients.secretOf(sender), alloc);
        }
        StickyKey key = admit(view, datagram, sender);
        ResponseCache cache = responses;
        ByteBuf answered = cache == null ? null : cache.answer(datagram, sender, alloc, ticker.nanos());
        if (answered != null) {
            return new Decision.AnswerLocally(answered);
        }
        if (daeSessions != null) {
            daeSessions.learn(view, sender.getAddress(), options.daeSessions().get().hold().toNanos());
        }
        StickyBinding routed = routed(view);
        return new Decision.Direct(key, clientTransactionId(datagram),
                routed == null ? Decision.Placement.BALANCE : new Decision.Placement.Pinned(routed), fanOut(view), true,
                false, RadiusWork.isSession(view));
    }

    StickyKey classify(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        return admit(RadiusView.wrap(datagram), datagram, sender);
    }

    private StickyKey admit(RadiusView view, ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        int code = view.code();
        if (code != RadiusCode.ACCESS_REQUEST.value() && code != RadiusCode.ACCOUNTING_REQUEST.value()) {
            throw new DecodeException(DropReason.UNEXPECTED_MESSAGE,
                    RadiusCode.valueOf(code) + " is not directed by a radius virtual server");
        }
        int client = clients.of(sender);
        byte[] secret = clients.secret(client, sender);
        boolean hashed = RadiusCode.hasHashedRequestAuthenticator(code);
        // The matches* checks compare in place: no digest array per request.
        if (hashed && !RadiusAuthenticators.matchesRequestAuthenticator(view, secret)) {
            throw new DecodeException(BAD_AUTHENTICATOR, "Request Authenticator does not verify with the client's secret");
        }
        int ma = view.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
        if (ma >= 0 && !RadiusAuthenticators.matchesMessageAuthenticator(view, hashed ? ZERO_16 : null, secret)) {
            throw new DecodeException(BAD_MESSAGE_AUTHENTICATOR,
                    "Message-Authenticator does not verify with the client's secret");
        }
        policy.admitRequest(client, view, ma >= 0);
        RadiusMeters.count(requestCounters, code);
        return key(view, sender.getAddress());
    }

    /**
     * The route-map ("turbo") predictor of the virtual server's farm: a request whose
     * Framed-IP-Address (or Framed-IPv6-Prefix, {@link FramedPrefixes#routed}) lies in one of the farm's
     * prefixes goes to the real of the longest one, while that real serves. Null otherwise (no framed
     * address, no matching prefix, or the real cannot serve): the request is then selected like any
     * other, by its sticky keys and the farm's predictor (and backup farms). Nothing is written to the
     * sticky table: the route map is the binding.
     */
    StickyBinding route(ByteBuf request) throws DecodeException {
        return routeMap().isEmpty() ? null : routed(RadiusView.wrap(request));
    }

    private PrefixTable<? extends RealView> routeMap() {
        FarmView f = farm;
        return f == null ? PrefixTable.empty() : f.routeMap();
    }

    private StickyBinding routed(RadiusView view) {
        PrefixTable<? extends RealView> table = routeMap();
        if (table.isEmpty()) {
            return null;
        }
        RealView real = FramedPrefixes.routed(table, view);
        return real == null || !real.servesBoundClients() ? null : real.binding();
    }

    /**
     * The sticky key: the conversation's key when the request carries the State of a challenge this
     * virtual server relayed, else the first configured key present, else the client's address.
     */
    private StickyKey key(RadiusView view, InetAddress client) {
        int state = view.find(RadiusAttributeType.STATE.value());
        if (state >= 0) {
            byte[] conversation = states.get(ByteBuffer.wrap(view.value(state)));
            if (conversation != null) {
                try {
                    return StickyCodecs.KEYS.decode(conversation);
                } catch (IllegalArgumentException e) {
                    // written by a node that knows a key kind this one does not: place by the keys below
                }
            }
        }
        for (StickyKind kind : keys) {
            StickyKey key = keyOf(view, kind);
            if (key != null) {
                return key;
            }
        }
        return StickyKey.clientAddress(client, 128);
    }

    static StickyKey keyOf(RadiusView view, StickyKind kind) {
        if (FramedPrefixes.isFramed(kind)) {
            return FramedPrefixes.keyOf(view, kind);
        }
        int type = kind.equals(RadiusModule.CALLING_STATION_ID) ? RadiusAttributeType.CALLING_STATION_ID.value()
                : kind.equals(RadiusModule.USERNAME) ? RadiusAttributeType.USER_NAME.value() : -1;
        if (type < 0) {
            return null;
        }
        int a = view.find(type);
        if (a < 0 || view.valueLength(a) == 0) {
            return null;
        }
        return StickyKey.of(kind, view.value(a));
    }

    @Override
    public int transactionIdBits() {
        return 8;
    }

    /** 256 identifiers per socket are not enough for a busy real: more sockets open as they run out. */
    @Override
    public int upstreamSockets() {
        return options.upstreamSockets();
    }

    /**
     * Accounting-On/Off (RFC 2866 §5.1: the client's sessions all ended or begin afresh) tells every
     * accounting server of the farm, not only one, when so configured.
     */
    boolean fanOut(ByteBuf request) throws DecodeException {
        if (!options.accountingOnOffToAllReals()) {
            return false;
        }
        // Asked on its own before classify (tests), the code octet may be missing.
        requireHeader(request);
        if (request.getUnsignedByte(request.readerIndex()) != RadiusCode.ACCOUNTING_REQUEST.value()) {
            return false;
        }
        return fanOut(RadiusView.wrap(request));
    }

    private boolean fanOut(RadiusView view) {
        if (!options.accountingOnOffToAllReals() || view.code() != RadiusCode.ACCOUNTING_REQUEST.value()) {
            return false;
        }
        return isOnOff(view.acctStatusType());
    }

    private static boolean isOnOff(long status) {
        return status == RadiusAcctStatusType.ACCOUNTING_ON || status == RadiusAcctStatusType.ACCOUNTING_OFF;
    }

    /** The identifier with the first seven octets of the Request Authenticator above it. */
    long clientTransactionId(ByteBuf request) throws DecodeException {
        int base = request.readerIndex();
        requireHeader(request);
        long authenticator = request.getLong(base + RadiusView.AUTHENTICATOR_OFFSET);
        return (authenticator << 8) | request.getUnsignedByte(base + 1);
    }

    /** VSA correlation adds the held VSA to an Accounting-Start: the request must be able to grow. */
    @Override
    public boolean lengthensRequests() {
        return vsa != null;
    }

    @Override
    public Context prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client)
            throws DecodeException {
        return prepareRequest(request, transactionId, real, client, null);
    }

    /** @param decided the key {@link #decide} gave the request, or null to read it from the request again */
    @Override
    public Context prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client,
            StickyKey decided) throws DecodeException {
        RadiusView view = RadiusView.wrap(request);
        byte[] clientSecret = clients.secretOf(client);
        byte[] realSecret = realSecrets.of(real, clientSecret);
        byte[] clientAuthenticator = view.authenticator();
        int code = view.code();
        StickyKey key = decided != null ? decided : key(view, client.getAddress());
        int identifier = view.identifier();
        byte[] ack = options.accountingLocalAck() && code == RadiusCode.ACCOUNTING_REQUEST.value()
                ? LocalAck.of(view, clientSecret) : null;
        if (vsa != null) {
            view = vsaCorrelation.correlate(request, view, code, key);
        }
        view.rewriteIdentifier((int) transactionId);
        if (code == RadiusCode.ACCESS_REQUEST.value() && !Arrays.equals(clientSecret, realSecret)) {
            RadiusAuthenticators.rehideUserPassword(view, clientSecret, realSecret);
        }
        RadiusAuthenticators.signRequest(view, realSecret);
        byte[] forwarded = code == RadiusCode.ACCESS_REQUEST.value() ? clientAuthenticator : view.authenticator();
        long statusType = code == RadiusCode.ACCOUNTING_REQUEST.value() ? view.acctStatusType() : -1;
        return new Context(clientAuthenticator, forwarded, clientSecret, realSecret, real, client.getAddress(),
                client.getPort(), code, statusType, FramedPrefixes.ofRequest(view), key, identifier, ack);
    }

    /** The director's own Accounting-Response ({@link LocalAck}), kept for the client's retransmissions. */
    @Override
    public ByteBuf acknowledgment(Context request, ByteBufAllocator alloc) {
        if (request.ack == null) {
            return null;
        }
        ByteBuf ack = alloc.buffer(request.ack.length).writeBytes(request.ack);
        responses.store(request.client, request.clientPort, request.clientIdentifier, request.clientAuthenticator, ack,
                ticker.nanos());
        return ack;
    }

    // ---- answers ---------------------------------------------------------------------------------

    @Override
    public long responseTransactionId(ByteBuf response) throws DecodeException {
        requireHeader(response);
        return response.getUnsignedByte(response.readerIndex() + 1);
    }

    /** RFC 2865 §3: every packet has the 20-octet header (code, identifier, length, authenticator). */
    private static void requireHeader(ByteBuf packet) throws DecodeException {
        if (packet.readableBytes() < RadiusView.HEADER_LENGTH) {
            throw DecodeException.truncated("RADIUS header", 0, RadiusView.HEADER_LENGTH, packet.readableBytes());
        }
    }

    /** The real signs its answer with its secret over the forwarded request's identifier and authenticator. */
    @Override
    public void simulateAnswerOf(ByteBuf answer, long transactionId, RealView real, Context request)
            throws DecodeException {
        RadiusAuthenticators.resignResponse(RadiusView.wrap(answer), (int) (transactionId & 0xff),
                request.forwardedAuthenticator, request.realSecret);
    }

    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, Context request) throws DecodeException {
        RadiusView view = RadiusView.wrap(response);
        if (!RadiusCode.answers(request.code, view.code())) { // found by the fuzz target: relayed, unsigned (BlastRADIUS)
            throw new DecodeException(DropReason.UNEXPECTED_MESSAGE, RadiusCode.valueOf(view.code()) + " answers no "
                    + RadiusCode.valueOf(request.code));
        }
        if (!RadiusAuthenticators.verifyResponse(view, request.forwardedAuthenticator, request.realSecret)) {
            throw new DecodeException(BAD_ANSWER, RadiusCode.valueOf(view.code())
                    + " does not verify with the secret of " + request.real.id());
        }
        policy.admitAnswer(request.real, view);
        learn(view, request);
        RadiusMeters.count(answerCounters, view.code());
        if (request.ack != null) {
            return; // acknowledged by the director already: absorbed, not re-signed for the client
        }
        if (!Arrays.equals(request.realSecret, request.clientSecret)
                || !Arrays.equals(request.forwardedAuthenticator, request.clientAuthenticator)) {
            SaltedAttributes.reencrypt(view, request.realSecret, request.forwardedAuthenticator, request.clientSecret,
                    request.clientAuthenticator);
        }
        if (RadiusCode.isAccessAnswer(view.code())) {
            // Every Access-* relayed carries one, first, whether the real sent one (BlastRADIUS).
            view = RadiusAuthenticators.messageAuthenticatorFirst(view);
        }
        int identifier = (int) (clientTransactionId & 0xff);
        RadiusAuthenticators.resignResponse(view, identifier, request.clientAuthenticator, request.clientSecret);
        if (!(options.accountingOnOffToAllReals() && isOnOff(request.statusType))) {
            // A fanned-out Accounting-On/Off has its own retransmissions: to the reals yet to answer.
            responses.store(request.client, request.clientPort, identifier, request.clientAuthenticator, response,
                    ticker.nanos());
        }
    }

    /** Room for the Message-Authenticator {@link #prepareResponse} puts first in an Access-* answer. */
    @Override
    public int responseGrowth() {
        return RadiusView.MESSAGE_AUTHENTICATOR_LENGTH;
    }

    /** What answers teach: the State of a challenge, and the Framed-IP table ({@link FramedPrefixes}). */
    private void learn(RadiusView answer, Context request) {
        int code = answer.code();
        if (vsaCorrelation != null && code == RadiusCode.ACCESS_ACCEPT.value()) {
            vsaCorrelation.learn(answer, request.key);
        }
        if (code == RadiusCode.ACCESS_CHALLENGE.value()) {
            int state = answer.find(RadiusAttributeType.STATE.value());
            if (state >= 0) {
                rememberState(answer.value(state), request.key);
            }
            return;
        }
        StickyBindings table = sticky;
        if (table == null) {
            return;
        }
        if (code == RadiusCode.ACCESS_ACCEPT.value()) {
            framed.accepted(table, answer, request.real, request.client, ticker.nanos());
        } else if (code == RadiusCode.ACCOUNTING_RESPONSE.value()) {
            framed.accounted(table, request.statusType, request.framed, request.real, request.client, ticker.nanos());
        }
    }

    private void rememberState(byte[] state, StickyKey key) {
        states.put(ByteBuffer.wrap(state), StickyCodecs.KEYS.encode(key), stateIdleNanos);
    }

    /** Open challenge States (for tests). */
    long openStates() {
        return states.size();
    }

    @Override
    public String toString() {
        return "RadiusPlugin[" + name + "]";
    }
}
