package io.switchboard.director.spi;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;

/**
 * Reals that a transaction plug-in reaches over connections of its own rather than by datagram (RADIUS
 * over TLS, RFC 6614): the engine still decides everything (the real, the transaction id, the timeout,
 * the failure accounting of an unanswered request); only the carrying differs. Each lane opens its own
 * {@link Lane} on its event loop, which keeps one connection per real and director socket (each
 * director socket is an id space of its own, as a datagram socket is), and hands the answers it reads
 * back on that loop, as a datagram socket does.
 */
public interface RealStreams {

    /** Whether {@code real} is reached through these streams rather than by datagram. */
    boolean carries(RealView real);

    /** One lane's connections, opened on {@code loop}; answers go to {@code answers} on that loop. */
    Lane open(EventLoop loop, Answers answers);

    /** Where a lane's connections hand what the reals answer. */
    interface Answers {
        /** An answer read from {@code from} on the connection of director socket {@code socket}. */
        void answer(ByteBuf answer, InetSocketAddress from, int socket);
    }

    /** One lane's connections toward the reals; used on the lane's event loop only. */
    interface Lane {
        /**
         * Sends a request prepared for {@code real} on the connection of director socket {@code socket}
         * (opened when there is none); takes ownership of {@code packet}. What cannot be sent is
         * released and counted by the streams: the engine sees it unanswered at its timeout.
         */
        void send(ByteBuf packet, RealView real, int socket);

        /** Flushes what was written since the last flush (the end of a read burst). */
        void flush();

        /** Closes every connection of the lane. */
        void close();
    }
}
