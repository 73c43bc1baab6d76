package io.switchboard.pcap;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpMessageView;
import java.util.HashMap;
import java.util.Map;

/**
 * The clients of a what-if capture as they would have behaved behind the director: a GTP peer that
 * got an answer whose control-plane TEID the director rewrote ({@code gtp-inspect} names its own
 * TEID) addresses that session's later requests (Update, Modify, Delete) to the director's TEID, not
 * to the one the capture's real chose. So the requests of a capture are rewritten accordingly before
 * the plug-in sees them. Other protocols are sent as captured.
 */
final class SimulatedClients {

    /** The TEID-C of the capture's real → the TEID the director gave the client instead. */
    private final Map<Long, Long> teids = new HashMap<>();

    /** The request as this client would send it to the director. */
    byte[] asSentToDirector(SignalingProtocol protocol, byte[] captured) {
        if (teids.isEmpty() || (protocol != SignalingProtocol.GTPV1 && protocol != SignalingProtocol.GTPV2)) {
            return captured;
        }
        try {
            GtpMessageView view = new GtpMessageView().wrap(Unpooled.wrappedBuffer(captured));
            Long director = view.teid() > 0 ? teids.get(view.teid()) : null;
            if (director == null) {
                return captured;
            }
            byte[] rewritten = captured.clone();
            new GtpMessageView().wrap(Unpooled.wrappedBuffer(rewritten)).setTeid(director);
            return rewritten;
        } catch (DecodeException | RuntimeException e) {
            return captured; // the plug-in drops it with its reason
        }
    }

    /**
     * Learns from an answer as relayed by the director ({@code relayed}) compared with the capture's
     * own ({@code captured}).
     */
    void learn(SignalingProtocol protocol, byte[] captured, ByteBuf relayed) {
        if (protocol != SignalingProtocol.GTPV1 && protocol != SignalingProtocol.GTPV2) {
            return;
        }
        try {
            GtpControlEndpoint before = new GtpMessageView().wrap(Unpooled.wrappedBuffer(captured)).senderControlPlane();
            GtpControlEndpoint after = new GtpMessageView().wrap(relayed.duplicate()).senderControlPlane();
            if (before != null && after != null && before.teid() != after.teid()) {
                teids.put(before.teid(), after.teid());
            }
        } catch (DecodeException | RuntimeException e) {
            // nothing to learn from an answer the codecs cannot read
        }
    }
}
