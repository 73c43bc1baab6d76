package io.switchboard.director.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.transaction.ClientSide;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * What an {@link Upstream} shares with its lane: the virtual server, its socket (the engine's
 * {@link ClientSide}), clock, counters and log.
 */
final class LaneContext implements ClientSide {

    final VirtualServer virtualServer;
    final VirtualServerMetrics metrics;
    final EventLoop loop;
    final Ticker ticker;
    final Supplier<Bootstrap> bootstrap;
    final RateLimitedLog log;
    Channel virtualAddress;
    private boolean relaysQueued;

    LaneContext(VirtualServer virtualServer, EventLoop loop, Ticker ticker, Supplier<Bootstrap> bootstrap,
            RateLimitedLog log) {
        this.virtualServer = virtualServer;
        this.metrics = virtualServer.metrics();
        this.loop = loop;
        this.ticker = ticker;
        this.bootstrap = bootstrap;
        this.log = log;
    }

    /**
     * Queues a datagram from the virtual address (an answer, a relay to a peer, a local answer); takes
     * ownership of it. It leaves at the next {@link #flushRelays()}, at the end of the read burst that
     * produced it, so a burst of answers goes out in one sendmmsg where the transport has it. Counted
     * by the engine.
     */
    @Override
    public void toClient(ByteBuf datagram, InetSocketAddress to) {
        tapOut(virtualAddress, to, datagram);
        virtualAddress.write(new DatagramPacket(datagram, to), virtualAddress.voidPromise());
        relaysQueued = true;
    }

    /** Debug capture: a datagram {@code socket} received from {@code from}. One null check when off. */
    void tapIn(InetSocketAddress from, Channel socket, ByteBuf datagram) {
        DatagramTap tap = virtualServer.tap();
        if (tap != null) {
            tap.tap(from, (InetSocketAddress) socket.localAddress(), datagram);
        }
    }

    /** Debug capture: a datagram {@code socket} sends to {@code to}. One null check when off. */
    void tapOut(Channel socket, InetSocketAddress to, ByteBuf datagram) {
        DatagramTap tap = virtualServer.tap();
        if (tap != null) {
            tap.tap((InetSocketAddress) socket.localAddress(), to, datagram);
        }
    }

    void flushRelays() {
        if (relaysQueued) {
            relaysQueued = false;
            virtualAddress.flush();
        }
    }
}
