package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.Decision;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A request the engine sent to a real and waits for the answer to: in the pending table under
 * (real, director id) to match the answer, and by its client's transaction for retransmissions.
 *
 * @param id       the pending id: the director socket's index above the wire id ({@link IdSpaces})
 * @param context  what the plug-in's {@code prepareRequest} returned, for the answer
 * @param decision the plug-in's decision for it (key, placement), to select again after a refusal
 * @param retained the request's bytes for a resend ({@code reassignLimit() > 0}), owned by this
 *                 entry, else null
 * @param attempts how many reals refused the request before this one
 * @param fanOut   the fanned-out request this is one copy of, or null
 * @param acknowledged the client was answered by the plug-in when it was forwarded
 *                 ({@code TransactionPlugin.acknowledgment}): the real's answer is absorbed
 */
record Pending(ClientTransaction clientTransaction, RealServer real, long id, Object context,
        Decision.Direct decision, ByteBuf retained, int attempts, FanOut fanOut,
        boolean acknowledged) {

    /** A client's request as it identifies it: a retransmission has the same. */
    record ClientTransaction(InetSocketAddress client, long id) {
    }

    /** The requests of one fanned-out client request, one per real, while unanswered. */
    static final class FanOut {
        final List<Pending> legs = new ArrayList<>(4);
        /** An answer was relayed since the client last (re)sent the request. */
        boolean relayed;
        /** Some real answered its copy. */
        boolean answered;
    }

    void release() {
        if (retained != null) {
            retained.release();
        }
    }
}
