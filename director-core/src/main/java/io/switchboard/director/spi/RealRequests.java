package io.switchboard.director.spi;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.shared.Codec;

/**
 * A plug-in's part in the requests that reals send to peers through the director, the other
 * direction of a transaction (a PGW's Update / Delete Bearer Request to the MME of its session, a
 * GGSN's Update PDP Context Request to the SGSN). The plug-in reads such a request once and decides
 * {@link Decision.RealRequest} (the peer, the real's own id, its context); the engine gives it a
 * director id of its own toward the peers, recognises the real's retransmissions, waits for the
 * peer's answer (on any node of a cluster: the pending request is in a table the nodes share),
 * expires it, and has the plug-in restore the answer for the real. Declared by
 * {@link TransactionPlugin#realRequests()}.
 *
 * <p>Ids toward peers live in id spaces ({@code space}: the GTP version, whose sequence numbers have
 * different widths); the engine puts this node's cluster slot in their top bits, so two nodes that
 * relay from one director address never use one id for two requests.
 *
 * @param <R> what the plug-in keeps of a relayed request for its answer; written to the nodes'
 *            shared table, so it has a {@link #codec()}
 */
public interface RealRequests<R> {

    /** Width of the director's ids toward peers in {@code space}. */
    int directorIdBits(int space);

    /**
     * The director id toward the peer of a real's request that answers the peer's own request, sent
     * under {@code clientTransactionId} ({@link Decision.RealRequest#answers}): a Command's triggered
     * request goes under the Command's own sequence number (TS 29.274 §7.6).
     */
    long idAnswering(long clientTransactionId);

    /**
     * Whether a real's request ({@code context}) answers the client's outstanding request whose
     * id it carries ({@code requestContext}, what {@code TransactionPlugin.prepareRequest} returned
     * for it): gtp-inspect's answers only a Command of the same session. True by default.
     */
    default boolean answers(Object requestContext, R context) {
        return true;
    }

    /** {@code R} as bytes between nodes (a wire constant). */
    Codec<R> codec();

    /**
     * Rewrites a real's request for the peer: the director's id ({@code directorId}) and what else
     * names the real's side (the peer's own TEID). Called again, with the same id, for the real's
     * retransmissions.
     */
    void prepareRequest(ByteBuf request, long directorId, R context) throws DecodeException;

    /**
     * Rewrites the peer's answer for the real: the real's own id back ({@code realId}), and does
     * what the answer means (an accepted Delete ends the session).
     *
     * @throws DecodeException the answer cannot go back (its session is gone): dropped and counted
     */
    void prepareAnswer(ByteBuf answer, long realId, R context) throws DecodeException;
}
