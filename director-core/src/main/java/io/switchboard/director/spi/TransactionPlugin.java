package io.switchboard.director.spi;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;

/**
 * A plug-in for protocols whose answers carry the request's transaction id (GTP sequence numbers,
 * RADIUS identifiers, ...). The director multiplexes all clients toward a real over one socket per
 * event loop, so it allocates its own transaction ids per real — requests from different clients
 * never collide at a real — writes them into the request, and restores the client's own in the
 * answer. The plug-in decides about each request once ({@link #decide}: its key, the client's
 * transaction id, where it goes), and knows where the ids live in the bytes and what else must
 * change with them (RADIUS authenticators). All methods work in place on buffers the director owns,
 * without moving reader indexes, retaining or releasing.
 *
 * @param <C> what the plug-in keeps of a request for its answer ({@link #prepareRequest} returns it;
 *            {@link #inspectResponse} and {@link #prepareResponse} get it back), {@code Void} if nothing
 */
public interface TransactionPlugin<C> extends DatagramPlugin {

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
     * Rewrites a request for {@code real}: writes {@code transactionId} (and re-signs where the
     * protocol needs it). With {@link #reassignLimit()} above 0 it is called again on the bytes it
     * prepared when a refused request is resent to another real, and must then prepare them anew.
     *
     * @param client the client the request came from (a RADIUS client's shared secret)
     * @return what {@link #prepareResponse} needs later (e.g. the original authenticator), or null
     */
    C prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client)
            throws DecodeException;

    /**
     * {@link #prepareRequest(ByteBuf, long, RealView, InetSocketAddress)} of a request {@link #decide}
     * keyed by {@code key} ({@link Decision.Direct#key}), which the engine calls: a plug-in whose
     * context keeps the key (RADIUS: for the State it relays and the VSA it correlates) overrides this
     * one so as not to read the key from the bytes a second time, per request.
     */
    default C prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client,
            StickyKey key) throws DecodeException {
        return prepareRequest(request, transactionId, real, client);
    }

    /** The transaction id of an answer from a real (the director's, as written by prepareRequest). */
    long responseTransactionId(ByteBuf response) throws DecodeException;

    /**
     * Rewrites an answer for the client: the client's own transaction id back (and re-signing). It
     * may lengthen the answer in place by up to {@link #responseGrowth()} octets.
     *
     * @param context what {@link #prepareRequest} returned for this transaction
     */
    void prepareResponse(ByteBuf response, long clientTransactionId, C context) throws DecodeException;

    /**
     * How many octets {@link #prepareResponse} may add to an answer (RADIUS inserts a
     * Message-Authenticator of 18 against BlastRADIUS). Above 0 the engine hands it each answer to a
     * pending request in a buffer with that much room, copying one that has none (with recvmmsg an
     * answer is a slice of the batch buffer exactly as long as the datagram); a failure indication
     * for a triggering request (GTP only) gets none. 0 by default: the others rewrite in place.
     */
    default int responseGrowth() {
        return 0;
    }

    /**
     * Looks at an answer before it is relayed (cause codes, session learning) and may rewrite it in
     * place. Called before {@link #prepareResponse}.
     *
     * @param real    the real that answered
     * @param context what {@link #prepareRequest} returned for this transaction
     */
    default ResponseVerdict inspectResponse(ByteBuf response, RealView real, C context) throws DecodeException {
        return ResponseVerdict.RELAY;
    }

    /**
     * A datagram from a real to a director socket that answers nothing pending, when the plug-in
     * knows what it is: a real's own request ({@link Decision.RealRequest}; in {@code gtp-inspect} a
     * PGW's request triggered by a requester's Command, sent where the Command came from, TS 29.274
     * §4.2.2) or something to relay as it is ({@link Decision.RelayTo}: a Failure Indication).
     * Borrows the datagram and may rewrite it in place.
     *
     * @return the decision, or null to count it as unmatched
     * @throws DecodeException it is counted as unmatched
     */
    default Decision fromReal(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        return null;
    }

    /**
     * The plug-in's part in requests that reals send to peers ({@link Decision.RealRequest}), or
     * null when its reals send none through the director.
     */
    default RealRequests<?> realRequests() {
        return null;
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
    default void simulateAnswerOf(ByteBuf answer, long transactionId, RealView real, C context)
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

    /**
     * The reals this plug-in reaches over a stream of its own (RADIUS over TLS, RFC 6614) instead of
     * the lane's datagram sockets, or null (the default) when every real is reached by datagram.
     */
    default RealStreams realStreams() {
        return null;
    }

    /**
     * The clients that reach this plug-in's virtual server over connections of its own (RADIUS over
     * TLS), or null (the default) when they send datagrams only. Asked once the plug-in is attached.
     */
    default ClientStreams clientStreams() {
        return null;
    }

    /**
     * The answer to a request for new work ({@code Decision.Direct} without {@code session}) that the
     * director refused for lack of resources ({@code overload:}), or null (the default) to discard it
     * silently, counted as {@code dropped{overload}} (a RADIUS server's way, RFC 2865 §2). GTP answers
     * a create with cause "No resources available" toward the requester's TEID. Borrows
     * {@code request}; the answer is the caller's.
     */
    default io.netty.buffer.ByteBuf overloadAnswer(ByteBuf request, io.netty.buffer.ByteBufAllocator alloc)
            throws DecodeException {
        return null;
    }

    /**
     * The answer the plug-in gives the client itself once the request is on its way to a real (RADIUS
     * {@code acct local-ack}: the director acknowledges an Accounting-Request, RFC 2866 §4.2), in a
     * buffer of {@code alloc} the engine sends and releases; null (the default) when the real's answer
     * is the client's. When there is one, the real's answer still goes through {@link #prepareResponse}
     * (verified, learnt from) and is then absorbed, not relayed a second time.
     *
     * @param context what {@link #prepareRequest} returned for this request
     */
    default ByteBuf acknowledgment(C context, io.netty.buffer.ByteBufAllocator alloc) {
        return null;
    }
}
