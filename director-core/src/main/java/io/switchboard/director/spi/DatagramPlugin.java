package io.switchboard.director.spi;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.spi.Decision;
import java.net.InetSocketAddress;

/**
 * What a protocol plug-in tells the UDP director about a request: steps 2 and 3 of the packet
 * path. A pure function over the bytes: no sockets, no Vert.x, no cluster, so it also runs offline
 * over a capture. It borrows the buffer: it must not move its reader index, retain or release it.
 */
@FunctionalInterface
public interface DatagramPlugin {

    /**
     * The one question the engine asks of a datagram sent to the virtual address: what to do with it
     * ({@link Decision}): direct it (by its sticky key, which the consistent-hash predictor also
     * hashes; its transaction; where it must go), answer it from the virtual address, relay it to a
     * peer, or drop it. The plug-in reads the bytes once, here.
     *
     * @param alloc where a local answer is allocated
     * @throws DecodeException when the datagram is malformed or not a request this service directs;
     *                         the engine counts it under the exception's reason and drops it
     */
    Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException;

    /**
     * Called once by the engine when the virtual server is built, before any datagram: what the
     * plug-in may use besides the bytes (its sticky table, the farms, the clock). Does nothing by
     * default.
     */
    default void attach(PluginContext context) {
    }

    /**
     * The real, of this virtual server's farm (or a backup farm), restarted: a probe saw its restart
     * counter change (GTP Recovery), so it has lost every session it held, and whatever the plug-in
     * keeps for it (GTP sessions, load figures) goes too. Called off the event loops, once per
     * restart, when the probe is configured to purge ({@code purge-on-restart}); the engine itself
     * removes the sticky bindings to the real. Does nothing by default.
     */
    default void realRestarted(RealView real) {
    }

    /**
     * Called from every event loop's housekeeping of the virtual server (every few milliseconds, so
     * a plug-in rate-limits its own work): expiry of what the plug-in keeps (idle GTP sessions,
     * requests relayed between peers). Must not block. Does nothing by default.
     */
    default void housekeep(long nowNanos) {
    }

    /**
     * The virtual server stopped: the plug-in lets go of what it runs besides the event loops (a
     * thread of its own for work too long for them). Called when the director stops, after the
     * lanes did (again on a second stop: make it idempotent); must not block. Does nothing by default.
     */
    default void close() {
    }

    /**
     * Whether the plug-in may lengthen a request in place (RADIUS VSA correlation adds an attribute to
     * an Accounting-Start). The engine then hands it each request in a buffer that can grow: with
     * recvmmsg (the epoll transport) a datagram is a slice of the batch buffer exactly as long as the
     * datagram, which cannot. False by default: the others rewrite fields of fixed size, and the copy
     * is not free.
     */
    default boolean lengthensRequests() {
        return false;
    }
}
