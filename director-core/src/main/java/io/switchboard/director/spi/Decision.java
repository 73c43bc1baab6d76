package io.switchboard.director.spi;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DropReason;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;

/**
 * What a plug-in decides about one datagram sent to the virtual address, having read it once
 * ({@code DatagramPlugin.decide}): direct it to a real, answer it from the virtual address, relay
 * it to a peer, or drop it. The engine acts on the decision and asks nothing more of the bytes
 * until it prepares the request for the real it chose.
 */
public sealed interface Decision {

    /** Direct the request by {@code key} in the virtual server's farm (generic UDP, a plain request). */
    static Direct direct(StickyKey key) {
        return new Direct(key, 0, Placement.BALANCE, false, true);
    }

    /**
     * A request for the farm.
     *
     * @param key           the sticky key it is balanced by (also hashed for the consistent-hash predictor)
     * @param transactionId the client's own transaction id, with whatever else makes a retransmission
     *                      recognisable (a RADIUS Request Authenticator): a request from the same
     *                      client with the same value is a retransmission and goes to the same real
     *                      with the same director id; 0 for plug-ins without transactions
     * @param placement     where it goes regardless of the predictor, if anywhere
     * @param fanOut        every real of the farm that serves must see it (RADIUS Accounting-On/Off): a
     *                      copy to each, the first answer relayed, the others absorbed
     * @param expectsAnswer false for a request nothing answers (a WiMAX R6 Ack): forwarded one way
     * @param triggers      the real answers it not with a response but with a request of its own or
     *                      a failure indication, under its director id (a GTPv2 Command, TS 29.274
     *                      §7.6): forwarded one way and remembered until then ({@link RealRequest#answers},
     *                      {@link TriggeredAnswer})
     * @param session       the request belongs to a subscriber the farm already serves (a GTP Update,
     *                      Modify or Delete, a RADIUS Accounting-Request) rather than asking for new
     *                      work (a create, an Access-Request): under overload new work is refused
     *                      first and session work last ({@code overload.Admission}), because a lost
     *                      Delete or Stop leaves state behind and its retransmissions load the node again
     */
    record Direct(StickyKey key, long transactionId, Placement placement, boolean fanOut, boolean expectsAnswer,
            boolean triggers, boolean session) implements Decision {

        public Direct(StickyKey key, long transactionId, Placement placement, boolean fanOut, boolean expectsAnswer) {
            this(key, transactionId, placement, fanOut, expectsAnswer, false, false);
        }

        public Direct(StickyKey key, long transactionId, Placement placement, boolean fanOut, boolean expectsAnswer,
                boolean triggers) {
            this(key, transactionId, placement, fanOut, expectsAnswer, triggers, false);
        }

        public Direct withTransactionId(long id) {
            return new Direct(key, id, placement, fanOut, expectsAnswer, triggers, session);
        }

        public Direct oneWay() {
            return new Direct(key, transactionId, placement, fanOut, false, triggers, session);
        }

        /** Answered by the real's own request or a failure indication ({@link #triggers}). */
        public Direct triggering() {
            return new Direct(key, transactionId, placement, fanOut, false, true, session);
        }

        /** Work for a subscriber the farm already serves ({@link #session}). */
        public Direct ofSession() {
            return new Direct(key, transactionId, placement, fanOut, expectsAnswer, triggers, true);
        }
    }

    /**
     * Answered by the plug-in itself (a GTP Echo Response with the director's Recovery, a Version Not
     * Supported): sent from the virtual address to the sender; the engine releases it if it cannot.
     */
    record AnswerLocally(ByteBuf answer) implements Decision {
    }

    /**
     * Relayed to a peer rather than directed to the farm (a PGW's own request for a session, to the
     * MME of that session, rewritten in place by the plug-in): sent from the virtual address.
     */
    record RelayTo(InetSocketAddress peer) implements Decision {
    }

    /**
     * A real's own request for a peer (a PGW's Update Bearer Request for a session, to that session's
     * MME): sent from the virtual address under a director id of {@code space}, and its answer
     * awaited ({@link RealRequests}).
     *
     * @param realId  the real's own id, restored in the answer; with the real's address it also
     *                recognises the real's retransmission
     * @param answers the director id of the peer's request it answers (a request a GTPv2 Command
     *                triggered, under the Command's number, TS 29.274 §7.6: {@link Direct#triggers}), or
     *                -1. When the engine has that request outstanding at this real, this one goes to the
     *                peer under the peer's own id of it ({@link RealRequests#idAnswering}), by which the
     *                peer matches the two
     * @param context handed back to {@link RealRequests#prepareRequest} and {@code prepareAnswer}
     */
    record RealRequest(InetSocketAddress peer, int space, long realId, long answers, Object context)
            implements Decision {
    }

    /**
     * A real's failure indication for a request the engine forwarded with {@link Direct#triggers}, by
     * the director id it carries: relayed to the client as the answer to its request
     * ({@code TransactionPlugin.inspectResponse} and {@code prepareResponse} with that request's context).
     */
    record TriggeredAnswer(long directorId) implements Decision {
    }

    /**
     * A peer's answer to a real's request that the director relayed ({@link RealRequest}), by the
     * director id it carries: restored and sent back to the real.
     */
    record PeerAnswer(int space, long directorId) implements Decision {
    }

    /** Dropped, counted under {@code reason} (a codec's or the plug-in's), logged at a limited rate. */
    record Drop(DropReason reason, String detail) implements Decision {
    }

    /** Where a request goes besides the predictor's choice. */
    sealed interface Placement {

        /** The virtual server's selection for the key: sticky binding, predictor, backup farms. */
        Placement BALANCE = new Balance();

        /**
         * To this real whatever its state: the request belongs to a session that lives there and
         * nowhere else (a GTP Update or Delete), or a route the plug-in checked serves (a RADIUS route
         * map's real). After a refusal for lack of resources, it goes there again only if it serves.
         */
        record Pinned(StickyBinding binding) implements Placement {
        }

        /**
         * Selected in another farm than the virtual server's, by that farm's selector and its own key
         * (a GTP APN map's farm, keyed {@code IMSI@farm}).
         */
        record InFarm(String farm, StickyKey key) implements Placement {
        }

        /** {@link #BALANCE}. */
        record Balance() implements Placement {
        }
    }
}
