package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v1.GtpV1MessageType;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers {@code gtp-inspect} relayed to primary creates and Deletes, for the requester's
 * retransmissions and the network's duplicates. A requester that gets no answer sends the same request
 * again, same sequence, every T3-RESPONSE up to N3-REQUESTS times, and the receiver answers a
 * retransmission with the response it sent before instead of acting on it again (TS 29.274 §7.6;
 * TS 29.060 §7.6 for GTPv1). While a request waits for its real, the engine recognises its
 * retransmissions; after the answer it did not, and two things went wrong:
 * <ul>
 *   <li>a Delete's session was gone, so a retransmission (its answer lost on the way to the
 *       requester) found nothing to follow and was dropped: the requester never learnt that its
 *       session had ended;</li>
 *   <li>a create sent again (or duplicated by the network and arriving late) was a new create: a
 *       second session at the real, and after the subscriber's Delete a ghost session with a new
 *       binding, perhaps on another real.</li>
 * </ul>
 * Other requests need no copy: their session is still there to follow.
 *
 * <p>Keyed by the requester's address, the version, the request's type and its sequence; kept for twice the response
 * timeout (the housekeeping's sweep), the span in which a requester's retransmissions arrive. A copy
 * is the answer's bytes, some 100-300 per create or Delete answered in that span.
 */
final class GtpAnswered {

    private static final int V1_DELETE = GtpV1MessageType.DELETE_PDP_CONTEXT_REQUEST.value();
    private static final int V2_DELETE = GtpV2MessageType.DELETE_SESSION_REQUEST.value();
    private static final int V1_CREATE = GtpV1MessageType.CREATE_PDP_CONTEXT_REQUEST.value();
    private static final int V2_CREATE = GtpV2MessageType.CREATE_SESSION_REQUEST.value();

    /**
     * The request by its sender, version, message type and sequence. The type belongs to the key: a
     * requester may number a Delete as it numbered the create before it, once that was answered (the
     * sample capture gtpv2/gtp_c.pcap does), and a retransmission is the same message again.
     */
    private record Key(InetSocketAddress requester, int version, int requestType, int sequence) {
    }

    private record Answer(byte[] bytes, long atNanos) {
    }

    private final Map<Key, Answer> answers = new ConcurrentHashMap<>();

    /** The answer to a create or Delete from {@code requester}, as relayed (its sequence and TEID restored). */
    void answered(InetSocketAddress requester, GtpMessageView answer, ByteBuf bytes, long nowNanos) {
        // The create and Delete responses are their requests' types + 1 (TS 29.060 Table 1, TS 29.274 Table 6.1-1).
        answers.put(new Key(requester, answer.version(), answer.messageTypeValue() - 1, answer.sequence()),
                new Answer(ByteBufUtil.getBytes(bytes), nowNanos));
    }

    /** The answer relayed before, if {@code request} is a create or Delete {@code requester} sent again; else null. */
    ByteBuf again(GtpMessageView request, InetSocketAddress requester) {
        if (answers.isEmpty() || !request.isRequest() || request.version() == 0) {
            return null;
        }
        int type = request.messageTypeValue();
        if (request.version() == 2 ? type != V2_DELETE && type != V2_CREATE : type != V1_DELETE && type != V1_CREATE) {
            return null;
        }
        Answer answer = answers.get(new Key(requester, request.version(), type, request.sequence()));
        return answer == null ? null : Unpooled.wrappedBuffer(answer.bytes().clone());
    }

    void expire(long nowNanos, long olderThanNanos) {
        answers.values().removeIf(a -> nowNanos - a.atNanos() > olderThanNanos);
    }

    /** Answers kept, for tests. */
    int size() {
        return answers.size();
    }
}
