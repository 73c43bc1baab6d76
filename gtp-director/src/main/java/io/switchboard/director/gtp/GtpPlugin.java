package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.spi.RealView;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.director.spi.Decision;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0Header;
import io.switchboard.codec.gtp.v1.GtpV1Header;
import io.switchboard.codec.gtp.v2.GtpV2Header;
import io.switchboard.director.Ticker;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.ResponseVerdict;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The transparent GTP plug-in ({@code service: gtp}): a Create PDP Context Request (v0, v1) or Create
 * Session Request (v2) sent to the virtual address is keyed by its IMSI, so the engine sends it to
 * the real the IMSI is stuck to or that the predictor picks; the director writes its own sequence
 * number toward the real and restores the requester's in the answer, which is relayed from the
 * virtual address. Echo Requests are answered by the director with its own Recovery value; messages
 * of a version the virtual server does not serve get Version Not Supported; everything else sent to
 * the virtual address is dropped with a reason (later signaling of a session goes to the address
 * the real put in its Create response, not through the director).
 *
 * <p>One instance serves every event loop of its virtual server, so the mutable header view is per
 * thread.
 *
 * @param <C> what a request keeps for its answer: nothing here ({@code Void}), a session's context in
 *            {@code gtp-inspect}
 */
class GtpPlugin<C> implements TransactionPlugin<C> {

    /** A response (or notification) sent to the virtual address: nothing to direct. */
    static final DropReason RESPONSE_TO_VIP = DropReason.of("gtp-response-to-vip");
    /** A request other than a tunnel create: in transparent mode sessions do not pass the director. */
    static final DropReason NOT_A_CREATE = DropReason.of("gtp-not-create");
    /** A create without IMSI (secondary PDP context, emergency attach): no key to balance by. */
    static final DropReason NO_IMSI = DropReason.of("gtp-no-imsi");
    /** An IMSI whose MCC+MNC is not in {@code carrier-codes}. */
    static final DropReason CARRIER_CODE = DropReason.of("gtp-carrier-code");
    /** A GTPv1 request without sequence number (S flag clear): its answer could not be matched. */
    static final DropReason NO_SEQUENCE = DropReason.of("gtp-no-sequence");

    final GtpOptions options;
    private final ThreadLocal<GtpMessageView> views;
    private final int highestVersion;
    private final int idBits;
    private final String[] carrierCodes;
    /** The Recovery value of the director's own Echo Responses. */
    private final int recovery;
    /** GTPv2 load/overload control from the reals' answers; null until attached. */
    private volatile GtpLoadFeedback loadFeedback;

    /** An APN map, compiled. */
    private record Mapped(java.util.regex.Pattern apn, String farm) {
    }

    /** By ascending priority (equal priorities in the order listed). */
    private final List<Mapped> apnMaps;
    private volatile String ownFarm;
    volatile Ticker ticker = Ticker.SYSTEM;

    GtpPlugin(GtpOptions options) {
        this.options = options;
        this.recovery = options.recoveryFile().map(GtpRestartCounter::next).orElse(options.recovery());
        this.views = ThreadLocal.withInitial(() -> new GtpMessageView(options.v0TidOrder()));
        this.highestVersion = options.versions().stream().mapToInt(Integer::intValue).max().orElseThrow();
        // v0/v1 sequence numbers are 16 bits, v2 24: one id space per real for both versions of a port.
        // v2 only 23 of them: TS 29.274 §7.6 keeps the top bit 0 in requests that are not Commands
        // (gtp-inspect sets it in the Commands it forwards: GtpRealRequests.numberCommand).
        this.idBits = options.serves(0) || options.serves(1) ? 16 : 23;
        this.carrierCodes = options.carrierCodes().toArray(new String[0]);
        this.apnMaps = options.apnMaps().stream()
                .sorted(java.util.Comparator.comparingInt(GtpOptions.ApnMap::priority))
                .map(m -> new Mapped(m.regex(), m.farm())).toList();
    }

    /** The load feedback (GTPv2 load/overload figures); every farm an APN map names must exist. */
    @Override
    public void attach(PluginContext context) {
        loadFeedback = new GtpLoadFeedback(context.farms(), context.reals(), context.ticker(), context.registry(),
                context.config().name());
        this.ticker = context.ticker();
        this.ownFarm = context.config().farm();
        for (Mapped map : apnMaps) {
            if (context.farms().farm(map.farm()) == null) {
                throw new IllegalArgumentException("virtual server " + context.config().name()
                        + ": an APN map names no farm '" + map.farm() + "'");
            }
        }
    }

    final long now() {
        return ticker.nanos();
    }

    /**
     * The one read of a datagram sent to the virtual address: a version this server does not serve
     * gets Version Not Supported and an Echo Request its Echo Response from the director; a datagram
     * of a real's own transaction is relayed ({@link #relay(GtpMessageView, InetSocketAddress)},
     * gtp-inspect's); a request is directed ({@link #direct}).
     */
    @Override
    public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException {
        ByteBuf notServed = versionNotServed(datagram, alloc);
        if (notServed != null) {
            return new Decision.AnswerLocally(notServed);
        }
        GtpMessageView view = view(datagram);
        ByteBuf echo = echoAnswer(view, alloc);
        if (echo != null) {
            return new Decision.AnswerLocally(echo);
        }
        Decision relay = relay(view, sender);
        return relay != null ? relay : direct(view);
    }

    /** A datagram of a real's own transaction and how it is relayed; none in transparent mode. */
    Decision relay(GtpMessageView view, InetSocketAddress sender) throws DecodeException {
        return null;
    }

    /** The real a request is pinned to ({@link Decision.Placement.Pinned}), or null: for tests. */
    final StickyBinding route(ByteBuf request) throws DecodeException {
        return direct(view(request)).placement() instanceof Decision.Placement.Pinned pinned ? pinned.binding() : null;
    }

    /** A create's placement by the APN maps: in the farm one names for its APN, else the virtual server's. */
    final Decision.Placement placementByApn(GtpMessageView view) throws DecodeException {
        String farm = mappedFarm(view);
        String imsi = farm == null ? null : view.imsi();
        return imsi == null ? Decision.Placement.BALANCE
                : new Decision.Placement.InFarm(farm, imsiKey(bindingName(imsi, farm)));
    }

    /** The farm other than the virtual server's that an APN map sends this create to, or null. */
    final String mappedFarm(GtpMessageView view) throws DecodeException {
        if (apnMaps.isEmpty()) {
            return null;
        }
        String apn = view.apn();
        if (apn == null) {
            return null;
        }
        for (Mapped map : apnMaps) {
            if (map.apn().matcher(apn).matches()) {
                return map.farm().equals(ownFarm) ? null : map.farm();
            }
        }
        return null;
    }

    static String bindingName(String imsi, String mappedFarm) {
        return imsi == null ? null : mappedFarm == null ? imsi : imsi + "@" + mappedFarm;
    }


    GtpOptions options() {
        return options;
    }

    int recovery() {
        return recovery;
    }

    final GtpMessageView view(ByteBuf datagram) throws DecodeException {
        return views.get().wrap(datagram);
    }

    ByteBuf answerLocally(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc)
            throws DecodeException {
        ByteBuf notServed = versionNotServed(datagram, alloc);
        if (notServed != null) {
            return notServed;
        }
        return echoAnswer(view(datagram), alloc);
    }

    /** The director's Echo Response, with its own Recovery, to an Echo Request; else null. */
    private ByteBuf echoAnswer(GtpMessageView view, ByteBufAllocator alloc) {
        return view.isEchoRequest() ? GtpLocalAnswers.echoResponse(view, recovery, alloc) : null;
    }

    /** Version Not Supported for a message of a version this server does not serve (TS 29.060 §7.2.3), else null. */
    private ByteBuf versionNotServed(ByteBuf datagram, ByteBufAllocator alloc) throws DecodeException {
        if (!datagram.isReadable()) {
            throw new DecodeException(DropReason.TRUNCATED, "empty datagram");
        }
        int version = (datagram.getUnsignedByte(datagram.readerIndex()) >> 5) & 0x07;
        return options.serves(version) ? null
                : GtpLocalAnswers.versionNotSupported(highestVersion, foreignSequence(datagram, version), alloc);
    }

    /** The sequence number of a message of a version this server does not serve, or -1. */
    private static int foreignSequence(ByteBuf datagram, int version) {
        try {
            return switch (version) {
                case 0 -> new GtpV0Header().wrap(datagram, datagram.readerIndex()).sequence();
                case 1 -> new GtpV1Header().wrap(datagram, datagram.readerIndex()).sequence();
                case 2 -> new GtpV2Header().wrap(datagram, datagram.readerIndex()).sequence();
                default -> -1;
            };
        } catch (DecodeException e) {
            return -1;
        }
    }


    /** The real's load figures are stale once it restarted (their sequence numbers restart too). */
    @Override
    public void realRestarted(RealView real) {
        GtpLoadFeedback feedback = loadFeedback;
        if (feedback != null) {
            feedback.forget(real);
        }
    }

    /** GTPv2 Load/Overload Control Information in any answer becomes the real's dynamic weight. */
    @Override
    public ResponseVerdict inspectResponse(ByteBuf response, RealView real, C context) throws DecodeException {
        GtpLoadFeedback feedback = loadFeedback;
        GtpMessageView view = view(response);
        if (feedback != null && view.version() == 2) {
            feedback.observe(view.v2().buffer(), view.v2(), real);
        }
        return ResponseVerdict.RELAY;
    }

    /** The key of a request's decision: for tests. */
    StickyKey classify(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        return direct(view(datagram)).key();
    }

    /**
     * A request for the farm: a create by its IMSI ({@link #create}), anything else as
     * {@link #other} and {@link #createWithoutImsi} say; its transaction is its version and sequence
     * number (the same pair again is a retransmission).
     */
    private Decision.Direct direct(GtpMessageView view) throws DecodeException {
        GtpLoadFeedback feedback = loadFeedback;
        if (feedback != null) {
            feedback.lapseIfDue();
        }
        if (!view.isRequest()) {
            throw new DecodeException(RESPONSE_TO_VIP, "GTPv" + view.version() + " message type "
                    + view.messageTypeValue() + " is no request");
        }
        if (view.sequence() < 0) {
            // TS 29.060 §6: the S flag is set in every GTPv1-C message; without a sequence number its
            // answer could not be matched (and the director could not write its own there).
            throw new DecodeException(NO_SEQUENCE, "GTPv1 request without sequence number");
        }
        if (!view.createsTunnel()) {
            return other(view);
        }
        String imsi = view.imsi();
        if (imsi == null || imsi.isEmpty()) {
            return createWithoutImsi(view);
        }
        if (!carrierAllowed(imsi)) {
            throw new DecodeException(CARRIER_CODE, "IMSI " + imsi + " of a carrier not allowed");
        }
        return create(view, imsiKey(imsi));
    }

    /**
     * A create keyed by its IMSI: one an APN map sends to another farm is selected in that farm, under
     * {@code IMSI@farm}; any other in the virtual server's farm.
     */
    Decision.Direct create(GtpMessageView view, StickyKey key) throws DecodeException {
        return new Decision.Direct(key, transactionId(view), placementByApn(view), false, true);
    }

    /** A request other than a create: transparent mode does not direct it. */
    Decision.Direct other(GtpMessageView view) throws DecodeException {
        throw new DecodeException(NOT_A_CREATE, "GTPv" + view.version() + " request type "
                + view.messageTypeValue() + " sent to the virtual address");
    }

    /** A create without IMSI (secondary context, emergency attach): transparent mode has no key for it. */
    Decision.Direct createWithoutImsi(GtpMessageView view) throws DecodeException {
        throw new DecodeException(NO_IMSI, "GTPv" + view.version() + " create without IMSI");
    }

    static StickyKey imsiKey(String imsi) {
        return StickyKey.of(GtpModule.IMSI, imsi.getBytes(StandardCharsets.US_ASCII));
    }

    final boolean carrierAllowed(String imsi) {
        if (carrierCodes.length == 0) {
            return true;
        }
        for (String code : carrierCodes) {
            if (imsi.startsWith(code)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int transactionIdBits() {
        return idBits;
    }

    /** The version and the requester's sequence number: the same pair again is a retransmission. */
    long clientTransactionId(ByteBuf request) throws DecodeException {
        return transactionId(view(request));
    }

    static long transactionId(GtpMessageView view) {
        return ((long) view.version() << 32) | view.sequence();
    }

    @Override
    public C prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client)
            throws DecodeException {
        view(request).setSequence((int) transactionId);
        return null;
    }

    @Override
    public long responseTransactionId(ByteBuf response) throws DecodeException {
        GtpMessageView view = view(response);
        if (!view.isResponse()) {
            throw new DecodeException(DropReason.UNEXPECTED_MESSAGE, "GTPv" + view.version() + " message type "
                    + view.messageTypeValue() + " from a real is no response");
        }
        int sequence = view.sequence();
        if (sequence < 0) {
            throw new DecodeException(NO_SEQUENCE, "GTPv1 response without sequence number");
        }
        return sequence;
    }

    /** A create refused under overload: "No resources available" to the requester's TEID ({@link GtpOverloadAnswers}). */
    @Override
    public ByteBuf overloadAnswer(ByteBuf request, ByteBufAllocator alloc) throws DecodeException {
        return GtpOverloadAnswers.noResources(view(request), alloc);
    }

    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, C context) throws DecodeException {
        view(response).setSequence((int) (clientTransactionId & 0xFFFF_FFFFL));
    }
}
