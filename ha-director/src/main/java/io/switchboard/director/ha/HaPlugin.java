package io.switchboard.director.ha;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.spi.RealView;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.Inet4Address;
import java.net.InetSocketAddress;

/**
 * The Home Agent Director's plug-in (IOS SLB "home agent director", RFC 5944 Mobile IPv4).
 *
 * <ul>
 * <li>Only Registration Requests are directed; a Registration Reply or any other message sent to the
 * virtual address is dropped as {@code unexpected-message}, malformed ones as {@code truncated} or
 * {@code mip-bad-extension}.</li>
 * <li>No stickiness: the virtual server keeps no sticky table and the farm's weighted round robin
 * chooses each home agent. The key of its decisions is a constant (it would only be
 * hashed, and no hashing predictor is allowed for this service).</li>
 * <li>The Identification is covered by the MN-HA authenticator, so it is never rewritten. The
 * transaction id is the low-order 32 bits of the Identification — the part a home agent copies into
 * its reply both with timestamps and with nonces (RFC 5944 §5.7; the high-order 32 bits of a reply
 * may carry the agent's own time or nonce) — with 8 bits of a hash of the MN-NAI (RFC 2794) above
 * them, or of the home address when the request has no NAI. A retransmission (same requester, same
 * Identification and home address or NAI) goes to the same home agent.</li>
 * <li>{@code rewrite-home-agent}: the Home Agent field is rewritten to the chosen agent's address,
 * and back in the relayed reply.</li>
 * </ul>
 */
final class HaPlugin implements TransactionPlugin<HaPlugin.Sent> {

    /** Constant: the Home Agent Director keeps no bindings. */
    private static final StickyKey NO_STICKINESS = StickyKey.of(StickyKind.CLIENT_ADDRESS, new byte[4]);

    private final HaOptions options;
    private final HaCounters counters;

    HaPlugin(HaOptions options, HaCounters counters) {
        this.options = options;
        this.counters = counters;
    }

    /** What the reply needs: the home agent (for counters) and the Home Agent field as the requester wrote it. */
    record Sent(String real, int homeAgent) {
    }

    /** A Registration Request, by its transaction; balanced in the farm. */
    @Override
    public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException {
        MipHeaderView view = request(datagram);
        return Decision.direct(NO_STICKINESS).withTransactionId(transactionId(view));
    }

    StickyKey classify(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        request(datagram);
        return NO_STICKINESS;
    }

    private static MipHeaderView request(ByteBuf datagram) throws DecodeException {
        MipHeaderView view = MipHeaderView.wrap(datagram);
        if (!view.isRequest()) {
            throw new DecodeException(DropReason.UNEXPECTED_MESSAGE,
                    "Registration Reply sent to the virtual home agent address");
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
        return options.relayReplies();
    }

    long clientTransactionId(ByteBuf request) throws DecodeException {
        return transactionId(MipHeaderView.wrap(request));
    }

    @Override
    public Sent prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client)
            throws DecodeException {
        MipHeaderView view = MipHeaderView.wrap(request);
        int homeAgent = view.homeAgent();
        if (options.rewriteHomeAgent() && real.address().getAddress() instanceof Inet4Address agent) {
            byte[] a = agent.getAddress();
            view.rewriteHomeAgent(((a[0] & 0xff) << 24) | ((a[1] & 0xff) << 16) | ((a[2] & 0xff) << 8) | (a[3] & 0xff));
        }
        counters.request(real);
        return new Sent(real.id(), homeAgent);
    }

    @Override
    public long responseTransactionId(ByteBuf response) throws DecodeException {
        MipHeaderView view = MipHeaderView.wrap(response);
        if (view.isRequest()) {
            throw new DecodeException(DropReason.UNEXPECTED_MESSAGE, "Registration Request from a home agent");
        }
        return transactionId(view);
    }

    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, Sent sent) throws DecodeException {
        MipHeaderView view = MipHeaderView.wrap(response);
        if (options.rewriteHomeAgent()) {
            view.rewriteHomeAgent(sent.homeAgent);
        }
        counters.reply(sent.real, view.code());
    }

    /** Low-order 32 bits of the Identification, 8 bits of the NAI's (else the home address's) hash above. */
    static long transactionId(MipHeaderView view) {
        long low = view.identification() & 0xFFFF_FFFFL;
        int h;
        int nai = view.findExtension(MipExtensionType.MN_NAI.value());
        if (nai >= 0) {
            h = 1;
            ByteBuf buf = view.buffer();
            int from = view.base() + view.extensionDataOffset(nai);
            int to = from + view.extensionDataLength(nai);
            for (int i = from; i < to; i++) {
                h = 31 * h + buf.getByte(i);
            }
        } else {
            h = view.homeAddress();
        }
        h ^= h >>> 16;
        h ^= h >>> 8;
        return ((long) (h & 0xff) << 32) | low;
    }
}
