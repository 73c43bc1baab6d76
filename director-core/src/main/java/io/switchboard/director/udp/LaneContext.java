package io.switchboard.director.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;
import io.switchboard.codec.DropReason;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.metrics.VirtualServerMetrics;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/** What an {@link Upstream} shares with its lane: the virtual server, its socket, clock and counters. */
final class LaneContext {

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
     * Queues an answer to a client on the virtual address; takes ownership of {@code answer}. It
     * leaves at the next {@link #flushRelays()}, at the end of the read burst that produced it, so a
     * burst of answers goes out in one sendmmsg where the transport has it.
     */
    void relay(ByteBuf answer, InetSocketAddress client) {
        metrics.relayed();
        tapOut(virtualAddress, client, answer);
        virtualAddress.write(new DatagramPacket(answer, client), virtualAddress.voidPromise());
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

    /** Something else was queued on the virtual address (a local answer): flush it with the relays. */
    void markRelayQueued() {
        relaysQueued = true;
    }

    void flushRelays() {
        if (relaysQueued) {
            relaysQueued = false;
            virtualAddress.flush();
        }
    }

    void drop(DropReason reason, InetSocketAddress client, String detail) {
        metrics.dropped(reason);
        log.warn("virtual server {}: dropped datagram from {}: {}{}", virtualServer.name(), client, reason,
                detail == null ? "" : " (" + detail + ")");
    }
}
