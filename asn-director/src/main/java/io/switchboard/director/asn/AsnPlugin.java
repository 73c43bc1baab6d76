package io.switchboard.director.asn;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.spi.RealView;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6FunctionType;
import io.switchboard.codec.asn.r6.R6OpId;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.codec.asn.r6.R6View;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetSocketAddress;

/**
 * The ASN director's plug-in (IOS SLB ASN load balancing, WiMAX Forum NWG Stage 3 R6).
 *
 * <ul>
 * <li>Every R6 message from a base station is directed by its MSID: the sticky key. The first
 * message of an MSID without a binding (normally MS_PreAttachment_Req) goes to the predictor's
 * choice and creates the binding; MS_PreAttachment_Ack and every later message follow it while it
 * lives.</li>
 * <li>Dropped: malformed headers and TLV framing ({@code truncated}, {@code malformed},
 * {@code r6-bad-tlv}), versions other than 1 ({@code unsupported-version}), reserved OP-IDs
 * ({@code malformed}) and an MS_PreAttachment_Rsp sent to the virtual address
 * ({@code unexpected-message}: only gateways send it).</li>
 * <li>The transaction id is never rewritten: Req, Rsp and Ack share it, and the Ack must reach the
 * gateway with the id the gateway answered. Toward a gateway it is the 16-bit transaction id with 23
 * bits of a hash of the MSID above it (responses match on the same), and bit 39 set for messages
 * that open no transaction (responses, acks, indications), which are forwarded without waiting for
 * an answer.</li>
 * </ul>
 */
final class AsnPlugin implements TransactionPlugin<String> {

    static final int VERSION = 1;
    private static final long NO_ANSWER = 1L << 39;

    private final AsnOptions options;
    private final NwgRelease release;
    private final AsnCounters counters;

    AsnPlugin(AsnOptions options, AsnCounters counters) {
        this.options = options;
        this.release = options.release();
        this.counters = counters;
    }

    /**
     * A message from a base station, keyed by its MSID, by its transaction; one that is not a request
     * (an Ack, an Indication) gets no answer and is forwarded one way.
     */
    @Override
    public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException {
        R6View view = view(datagram);
        Decision.Direct decision = Decision.direct(key(view)).withTransactionId(clientTransactionId(view));
        return view.opId() == R6OpId.REQUEST ? decision : decision.oneWay();
    }

    StickyKey classify(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        return key(view(datagram));
    }

    private StickyKey key(R6View view) throws DecodeException {
        if (release.preAttachment(view) == R6PreAttachment.RESPONSE) {
            throw new DecodeException(DropReason.UNEXPECTED_MESSAGE, "MS_PreAttachment_Rsp sent to the virtual address");
        }
        long msid = view.msid();
        byte[] key = new byte[6];
        for (int i = 0; i < 6; i++) {
            key[i] = (byte) (msid >>> (40 - 8 * i));
        }
        return StickyKey.of(AsnModule.MSID, key);
    }

    private static R6View view(ByteBuf datagram) throws DecodeException {
        R6View view = R6View.wrap(datagram);
        if (view.version() != VERSION) {
            throw new DecodeException(DropReason.UNSUPPORTED_VERSION, "R6 version " + view.version());
        }
        int op = view.opId();
        if (op < R6OpId.REQUEST || op > R6OpId.INDICATION) {
            throw new DecodeException(DropReason.MALFORMED, "reserved R6 OP-ID " + op);
        }
        return view;
    }

    @Override
    public int transactionIdBits() {
        return 40;
    }

    @Override
    public boolean rewritesTransactionId() {
        return false;
    }

    @Override
    public boolean answersThroughDirector() {
        return options.relayResponses();
    }

    long clientTransactionId(ByteBuf request) throws DecodeException {
        return clientTransactionId(view(request));
    }

    private static long clientTransactionId(R6View view) {
        return transactionId(view) | (view.opId() == R6OpId.REQUEST ? 0 : NO_ANSWER);
    }

    /** @return the gateway's id, for the answer's counters */
    @Override
    public String prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client)
            throws DecodeException {
        counters.message("to-gateway", messageName(view(request)), real.id());
        return real.id();
    }

    @Override
    public long responseTransactionId(ByteBuf response) throws DecodeException {
        return transactionId(view(response));
    }

    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, String gateway) throws DecodeException {
        counters.message("from-gateway", messageName(view(response)), gateway);
    }

    /** The 16-bit transaction id, 23 bits of the MSID's hash above it. */
    static long transactionId(R6View view) {
        long msid = view.msid();
        msid *= 0x9E3779B97F4A7C15L;
        long hash = (msid ^ (msid >>> 29)) & 0x7F_FFFFL;
        return (hash << 16) | view.transactionId();
    }

    /** MS_PreAttachment_Req/Rsp/Ack under the configured release, else function type and OP-ID. */
    String messageName(R6View view) {
        R6PreAttachment pre = release.preAttachment(view);
        if (pre != null) {
            return switch (pre) {
                case REQUEST -> "MS_PreAttachment_Req";
                case RESPONSE -> "MS_PreAttachment_Rsp";
                case ACK -> "MS_PreAttachment_Ack";
            };
        }
        return R6FunctionType.valueOf(view.functionType()).name() + " " + R6OpId.name(view.opId());
    }
}
