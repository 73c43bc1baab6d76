package io.switchboard.director.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.Intake;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * One virtual server's engine on a lane: the lane's socket seen from that server ({@link
 * LaneContext}), its {@link Intake} and its {@link Upstream} toward the reals. A lane runs one;
 * after a reload replaced the virtual server it runs the new one, and the old one beside it until
 * the old has answered what it holds ({@link UdpLane}). Confined to the lane's event loop.
 */
final class LaneEngine {

    final LaneContext context;
    final Upstream upstream;
    final Intake intake;
    /** {@link io.switchboard.director.spi.DatagramPlugin#lengthensRequests()}: each request is copied into a buffer that can grow. */
    final boolean lengthensRequests;
    /** When a replaced engine is closed with whatever it still holds (ticker time); unused while it serves. */
    long retireBy;

    LaneEngine(VirtualServer virtualServer, Farms farms, EventLoop loop, Ticker ticker, Supplier<Bootstrap> bootstrap,
            RateLimitedLog log) {
        this.context = new LaneContext(virtualServer, loop, ticker, bootstrap, log);
        this.upstream = virtualServer.plugin() instanceof TransactionPlugin<?> plugin
                ? new TransactionUpstream(context, plugin, farms)
                : new FlowUpstream(context);
        this.intake = new Intake(new EngineScope(virtualServer, ticker, log, EngineEvents.NONE));
        this.lengthensRequests = virtualServer.plugin().lengthensRequests();
    }

    /** Binds the upstream side on the lane's bound socket; call on the lane's loop. */
    Future<?> start(Channel virtualAddress) {
        context.virtualAddress = virtualAddress;
        return upstream.start();
    }

    /** Classifies a datagram sent to the virtual address: the request to direct, or null when dealt with. */
    Decision.Direct admit(ByteBuf datagram, InetSocketAddress client) {
        return intake.admit(datagram, client, context.virtualAddress.alloc(), context);
    }

    /** Whether this engine and {@code other} speak the same protocol, so that their transaction ids are one. */
    boolean sameService(LaneEngine other) {
        return context.virtualServer.config().service().equals(other.context.virtualServer.config().service());
    }

    /** Sends what the engine queued: toward the reals, and back to the clients. */
    void flush() {
        upstream.flush();
        context.flushRelays();
    }

    void housekeep(long now) {
        upstream.housekeep(now);
        context.virtualServer.plugin().housekeep(now);
        // Expiry may resend a request elsewhere or relay a refusal.
        flush();
    }

    /** Closes the sockets toward the reals (the lane's own socket stays). */
    void close() {
        upstream.close();
    }
}
