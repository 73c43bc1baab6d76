package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.Future;
import io.switchboard.director.spi.Decision;
import java.net.InetSocketAddress;

/**
 * How a lane reaches the reals and matches their answers: per-client flows for protocols without
 * transaction ids ({@link FlowUpstream}), or one multiplexed socket with director-allocated ids
 * ({@link TransactionUpstream}). Confined to the lane's event loop.
 */
interface Upstream {

    /** Binds what must exist before the first request. */
    Future<?> start();

    /**
     * Steps 4 to 7 for a classified request: choose the real, remember the request, send it.
     * Borrows {@code datagram}; retains it to send.
     */
    void forward(ByteBuf datagram, InetSocketAddress client, Decision.Direct request, long nowNanos);

    /**
     * Resends a client's retransmission of a request this upstream has pending, to the same real
     * under the same id: true when it was one. Asked of a replaced virtual server's upstream while
     * it retires; the one that serves asks itself in {@link #forward}.
     */
    default boolean resendPending(ByteBuf datagram, InetSocketAddress client, Decision.Direct request, long nowNanos) {
        return false;
    }

    /** Sends what {@link #forward} queued; called at the end of each read burst. */
    default void flush() {
    }

    /** Expires overdue requests and idle state. */
    void housekeep(long nowNanos);

    /** Requests waiting for their answer (a draining node waits for them). */
    int inFlight();

    void close();
}
