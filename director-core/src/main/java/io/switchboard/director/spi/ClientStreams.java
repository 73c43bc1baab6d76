package io.switchboard.director.spi;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;

/**
 * Clients that reach a transaction plug-in's virtual server over connections (RADIUS over TLS, RFC
 * 6614) beside its datagrams. The engine listens, accepts, and serves what the connections carry
 * exactly as it serves datagrams — the same plug-in decision, the same selector, the same engine —
 * and writes each answer back on the connection its request came on; the plug-in only makes each
 * connection's pipeline (TLS, framing, which client the peer is).
 */
public interface ClientStreams {

    /** Where the virtual server accepts the connections. */
    InetSocketAddress listenOn();

    /**
     * Makes an accepted connection's pipeline. What it passes on (fires as read) must be whole
     * requests, one {@code ByteBuf} each, from a peer it accepted — a peer it does not accept it
     * closes; the engine's handler, added after it, takes them. What the engine writes on the
     * connection are whole answers, one {@code ByteBuf} each. The requests are known to the plug-in
     * by the connection's remote address ({@link DatagramPlugin#decide}'s sender).
     */
    void initChannel(Channel connection);

    /**
     * A reload replaced the virtual server on the same listener: the connections {@code previous}
     * (the replaced plug-in's) accepted are served by this plug-in from now on, and what {@code
     * previous} knew of their peers must carry over. Called before the first of their requests
     * reaches this plug-in.
     */
    void takeOver(ClientStreams previous);

    /**
     * What a reload must not change for the listener to serve the replacing virtual server on its
     * sockets (its address and certificates): compared with {@code equals}.
     */
    Object listenerSettings();
}
