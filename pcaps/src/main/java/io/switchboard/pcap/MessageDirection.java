package io.switchboard.pcap;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.asn.r6.R6OpId;
import io.switchboard.codec.asn.r6.R6View;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;

/**
 * Tells answers from the messages a director receives, by the codecs' header views: GTP responses,
 * RADIUS Access-Accept/Reject/Challenge, Accounting-Response and CoA/Disconnect ACK/NAK, Mobile IP
 * Registration Replies and R6 Responses are answers; everything else (R6 Acks included, which a
 * director forwards) is sent toward the director. A message the views cannot read is not called an
 * answer: the plug-in sees it and drops it with its reason.
 */
public final class MessageDirection {

    private MessageDirection() {
    }

    /** Whether {@code payload} of {@code protocol} (null: a protocol the codecs do not know) is an answer. */
    public static boolean isAnswer(SignalingProtocol protocol, byte[] payload) {
        if (protocol == null) {
            return false;
        }
        ByteBuf buf = Unpooled.wrappedBuffer(payload);
        try {
            return switch (protocol) {
                case GTPV0, GTPV1, GTPV2 -> new GtpMessageView().wrap(buf).isResponse();
                case RADIUS -> !RadiusCode.isRequest(RadiusView.wrap(buf).code());
                case MIP -> !MipHeaderView.wrap(buf).isRequest();
                case R6 -> R6View.wrap(buf).opId() == R6OpId.RESPONSE;
            };
        } catch (DecodeException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The transaction id that pairs a request with its answer: GTP sequence number, RADIUS
     * identifier, Mobile IP Identification, R6 transaction id; -1 when the codecs cannot read one.
     */
    public static long transactionId(SignalingProtocol protocol, byte[] payload) {
        return new TransactionIdReader(protocol).read(Unpooled.wrappedBuffer(payload));
    }

    /**
     * Writes {@code id} where {@link #transactionId} reads it, for the protocols whose ids a director
     * rewrites: the GTP sequence number, the RADIUS identifier (RFC 2865 §3). Mobile IP and R6 ids
     * are the client's own end to end: left as they are. A message the views cannot read is left too.
     */
    static void setTransactionId(SignalingProtocol protocol, byte[] payload, long id) {
        try {
            switch (protocol) {
                case GTPV0, GTPV1, GTPV2 -> new GtpMessageView().wrap(Unpooled.wrappedBuffer(payload)).setSequence((int) id);
                case RADIUS -> {
                    if (payload.length > 1) {
                        payload[1] = (byte) id;
                    }
                }
                case MIP, R6 -> {
                }
            }
        } catch (DecodeException | RuntimeException e) {
            // the director reads the answer as it is, and refuses it with its reason
        }
    }

    /**
     * {@link #transactionId} for one protocol, over and over, without allocating for GTP (a load
     * generator reads one per datagram). Not thread-safe: one per thread.
     */
    static final class TransactionIdReader {

        private final SignalingProtocol protocol;
        private final GtpMessageView gtp = new GtpMessageView();

        TransactionIdReader(SignalingProtocol protocol) {
            this.protocol = protocol;
        }

        /** The id of the message in {@code buf}'s readable bytes, or -1. Borrows {@code buf}. */
        long read(ByteBuf buf) {
            if (protocol == null) {
                return -1;
            }
            try {
                return switch (protocol) {
                    case GTPV0, GTPV1, GTPV2 -> gtp.wrap(buf).sequence();
                    case RADIUS -> RadiusView.wrap(buf).identifier();
                    case MIP -> MipHeaderView.wrap(buf).identification();
                    case R6 -> R6View.wrap(buf).transactionId();
                };
            } catch (DecodeException | RuntimeException e) {
                return -1;
            }
        }
    }
}
