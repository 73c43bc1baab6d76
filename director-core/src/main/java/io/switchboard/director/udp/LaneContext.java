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

    LaneContext(VirtualServer virtualServer, EventLoop loop, Ticker ticker, Supplier<Bootstrap> bootstrap,
            RateLimitedLog log) {
        this.virtualServer = virtualServer;
        this.metrics = virtualServer.metrics();
        this.loop = loop;
        this.ticker = ticker;
        this.bootstrap = bootstrap;
        this.log = log;
    }

    /** Sends an answer to a client from the virtual address; takes ownership of {@code answer}. */
    void relay(ByteBuf answer, InetSocketAddress client) {
        metrics.relayed();
        virtualAddress.writeAndFlush(new DatagramPacket(answer, client), virtualAddress.voidPromise());
    }

    void drop(DropReason reason, InetSocketAddress client, String detail) {
        metrics.dropped(reason);
        log.warn("virtual server {}: dropped datagram from {}: {}{}", virtualServer.name(), client, reason,
                detail == null ? "" : " (" + detail + ")");
    }
}
