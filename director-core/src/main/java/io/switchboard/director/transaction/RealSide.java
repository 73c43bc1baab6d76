package io.switchboard.director.transaction;

import java.net.InetSocketAddress;
import io.netty.buffer.ByteBuf;
import io.switchboard.director.real.RealServer;

/**
 * The director sockets toward the reals as the transaction engine uses them: opened and closed as
 * the id spaces widen and shrink ({@link IdSpaces}), and written to. A live lane has Netty channels
 * behind it (flushed once per read burst); what-if has the capture's reals, which answer with the
 * capture's answers.
 */
public interface RealSide {

    /** Opens director socket {@code index} (0 at start; the others in order, as ids run out). */
    void open(int index);

    /** Whether socket {@code index} may close now (a live socket that is still binding may not). */
    default boolean closable(int index) {
        return true;
    }

    /** Closes socket {@code index}, retired with nothing pending on it. */
    void close(int index);

    /**
     * Sends a request, prepared for {@code real}, on director socket {@code socket}; takes ownership of
     * {@code datagram}.
     *
     * @param transactionId the id written into it (the director's, or the client's where the plug-in
     *                      keeps it): an answer to it carries it
     * @param client        whose request it is: without client NAT it leaves from this address
     */
    void toReal(ByteBuf datagram, RealServer real, int socket, long transactionId, InetSocketAddress client);
}
