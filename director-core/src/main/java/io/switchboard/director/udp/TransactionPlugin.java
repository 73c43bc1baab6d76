package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyBinding;
import java.net.InetSocketAddress;

/**
 * A plug-in for protocols whose answers carry the request's transaction id (GTP sequence numbers,
 * RADIUS identifiers, ...). The director multiplexes all clients toward a real over one socket per
 * event loop, so it allocates its own transaction ids per real — requests from different clients
 * never collide at a real — writes them into the request, and restores the client's own in the
 * answer. The plug-in knows where those ids live and what else must change with them (RADIUS
 * authenticators). All methods work in place on buffers the director owns, without moving reader
 * indexes, retaining or releasing.
 */
public interface TransactionPlugin extends DatagramPlugin {

    /**
     * By default {@link DatagramPlugin#decide}'s answer completed with {@link #clientTransactionId},
     * {@link #fanOut} (where the plug-in may fan out) and {@link #expectsAnswer}; the engine asks
     * {@link #route} when it selects ({@link Decision.Placement#ASK_ROUTE}).
     */
    @Override
    default Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc)
            throws DecodeException {
        Decision decision = DatagramPlugin.super.decide(datagram, sender, alloc);
        if (!(decision instanceof Decision.Direct direct)) {
            return decision;
        }
        boolean fanOut = rewritesTransactionId() && answersThroughDirector() && fanOut(datagram);
        return new Decision.Direct(direct.key(), clientTransactionId(datagram), Decision.Placement.ASK_ROUTE, fanOut,
                expectsAnswer(datagram));
    }

    /** Width of the transaction id the director allocates (16 for a GTPv1 sequence, 8 for RADIUS). */
    int transactionIdBits();

    /**
     * False for protocols whose transaction id the director may not change (a Mobile IP
     * Identification is covered by the mobile node's authenticator): the client's own id, masked to
     * {@link #transactionIdBits()}, is then the id toward the real, and a request whose id is
     * already pending at that real is dropped as {@code pending-full}.
     */
    default boolean rewritesTransactionId() {
        return true;
    }

    /**
     * False when the reals answer the client directly rather than through the director (IOS's Home
     * Agent and ASN behaviour): requests are forwarded and nothing waits for an answer, so in-band
     * failure detection does not apply to them.
     */
    default boolean answersThroughDirector() {
        return true;
    }

    /**
     * False for a request that gets no answer at all (a WiMAX R6 Ack, an answer the client sends to
     * a real's own request): it is forwarded like a request of a plug-in whose reals answer the
     * client directly, and nothing waits for an answer, even when {@link #answersThroughDirector()}
     * is true. Called after {@link #classify} for every request.
     */
    default boolean expectsAnswer(ByteBuf request) {
        return true;
    }

    /**
     * How many director sockets each event loop may open toward the reals when the director
     * allocates ids. Each socket has its own id space toward every real, so a narrow id (RADIUS's 8
     * bits) can have {@code upstreamSockets() << transactionIdBits()} requests outstanding per real
     * and loop. One is open from the start; the others open when every id toward a real is
     * outstanding, and close again when the load is gone. Ignored (one socket) when the plug-in keeps
     * the client's ids.
     */
    default int upstreamSockets() {
        return 1;
    }

    /**
     * True for a request every real of the farm must see (RADIUS Accounting-On/Off, which tells each
     * accounting server that the client's sessions are gone): a copy, prepared by
     * {@link #prepareRequest} for each, goes to every real that serves its bound clients; the first
     * answer is relayed to the client, the others are absorbed. Called after {@link #classify}.
     */
    default boolean fanOut(ByteBuf request) throws DecodeException {
        return false;
    }

    /**
     * The client's own transaction id of a request, with whatever else makes a retransmission
     * recognisable (a RADIUS request authenticator, hashed in): a request from the same client with
     * the same value is a retransmission and goes to the same real with the same director id.
     */
    long clientTransactionId(ByteBuf request) throws DecodeException;

    /**
     * Rewrites a request for {@code real}: writes {@code transactionId} (and re-signs where the
     * protocol needs it).
     *
     * @return what {@link #prepareResponse} needs later (e.g. the original authenticator), or null
     */
    Object prepareRequest(ByteBuf request, long transactionId, RealServer real) throws DecodeException;

    /**
     * {@link #prepareRequest(ByteBuf, long, RealServer)} for plug-ins that also need the client the
     * request came from (a RADIUS client's shared secret). The director calls this one; by default
     * it ignores the client.
     */
    default Object prepareRequest(ByteBuf request, long transactionId, RealServer real, InetSocketAddress client)
            throws DecodeException {
        return prepareRequest(request, transactionId, real);
    }

    /** The transaction id of an answer from a real (the director's, as written by prepareRequest). */
    long responseTransactionId(ByteBuf response) throws DecodeException;

    /**
     * Rewrites an answer for the client: the client's own transaction id back (and re-signing).
     *
     * @param context what {@link #prepareRequest} returned for this transaction
     */
    void prepareResponse(ByteBuf response, long clientTransactionId, Object context) throws DecodeException;

    /**
     * The real a request must go to regardless of stickiness and predictor — the real holding the
     * session a GTP Update or Delete belongs to — or null to select as usual. Called before selection;
     * the real is used whatever its state (FAILED, OUTOFSERVICE, ...: the session is there and nowhere
     * else), so a plug-in whose routing could go elsewhere returns null for a real that does not serve.
     */
    default StickyBinding route(ByteBuf request) throws DecodeException {
        return null;
    }

    /**
     * Looks at an answer before it is relayed (cause codes, session learning) and may rewrite it in
     * place. Called before {@link #prepareResponse}.
     *
     * @param real    the real that answered
     * @param context what {@link #prepareRequest} returned for this transaction
     */
    default ResponseVerdict inspectResponse(ByteBuf response, RealServer real, Object context) throws DecodeException {
        return ResponseVerdict.RELAY;
    }

    /**
     * Offline runs only (what-if): turns an answer captured for the client's request into the answer
     * the simulated {@code real} would have sent for the forwarded request — what the real signs or
     * numbers with its own secret and the director's transaction id — so that {@link #inspectResponse}
     * and {@link #prepareResponse} treat it as a live answer. By default the answer is used as
     * captured (GTP, Mobile IP, R6: nothing in an answer depends on the hop).
     *
     * @param context what {@link #prepareRequest} returned for the forwarded request
     */
    default void simulateAnswerOf(ByteBuf answer, long transactionId, RealServer real, Object context)
            throws DecodeException {
    }

    /**
     * How many other reals a request answered with {@link ResponseVerdict#RETRY_ELSEWHERE} may be
     * resent to. Above 0 the director keeps a reference to each pending request's bytes until its
     * answer, so that it can resend them.
     */
    default int reassignLimit() {
        return 0;
    }
}
