package io.switchboard.director.udp;

import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.spi.DatagramPlugin;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.Intake;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One event loop's share of a UDP virtual server: the virtual-address socket bound on that loop and
 * the {@link Upstream} toward the reals for the clients the kernel hashed to it. Everything here is
 * touched only by that loop's thread, so nothing is locked.
 */
final class UdpLane {

    private static final Logger LOG = LoggerFactory.getLogger(UdpLane.class);
    private static final long HOUSEKEEPING_MILLIS = 20;

    private final LaneContext lane;
    private final Upstream upstream;
    private final Intake intake;
    /** {@link DatagramPlugin#lengthensRequests()}: each request is copied into a buffer that can grow. */
    private final boolean lengthensRequests;
    private ScheduledFuture<?> housekeeping;

    UdpLane(VirtualServer virtualServer, Farms farms, EventLoop loop, Ticker ticker, Supplier<Bootstrap> bootstrap) {
        this.lane = new LaneContext(virtualServer, loop, ticker, bootstrap,
                new RateLimitedLog(LOG, Duration.ofSeconds(10), ticker));
        this.upstream = virtualServer.plugin() instanceof TransactionPlugin<?> plugin
                ? new TransactionUpstream(lane, plugin, farms)
                : new FlowUpstream(lane);
        this.intake = new Intake(new EngineScope(virtualServer, ticker, lane.log, EngineEvents.NONE));
        this.lengthensRequests = virtualServer.plugin().lengthensRequests();
    }

    ChannelHandler virtualAddressHandler() {
        return new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                lane.tapIn(packet.sender(), ctx.channel(), packet.content());
                if (!lengthensRequests) {
                    request(packet.content(), packet.sender());
                    return;
                }
                ByteBuf growable = ctx.alloc().buffer(packet.content().readableBytes());
                try {
                    request(growable.writeBytes(packet.content(), packet.content().readerIndex(),
                            packet.content().readableBytes()), packet.sender());
                } finally {
                    growable.release(); // what request() keeps (a resend, a relay) it retained
                }
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                // The end of a read burst: what it queued toward the reals (and local answers) leaves now.
                upstream.flush();
                lane.flushRelays();
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                lane.log.warn("virtual server {}: socket error: {}", lane.virtualServer.name(), cause.toString());
            }
        };
    }

    /** Binds the upstream side; call on the lane's loop once the virtual address is bound. */
    Future<?> start(Channel virtualAddress) {
        lane.virtualAddress = virtualAddress;
        housekeeping = lane.loop.scheduleAtFixedRate(() -> {
            long now = lane.ticker.nanos();
            upstream.housekeep(now);
            lane.virtualServer.plugin().housekeep(now);
            // Expiry may resend a request elsewhere or relay a refusal.
            upstream.flush();
            lane.flushRelays();
        }, HOUSEKEEPING_MILLIS, HOUSEKEEPING_MILLIS, TimeUnit.MILLISECONDS);
        return upstream.start();
    }

    /** Steps 2 and 3 of the packet path for one datagram sent to the virtual address, then the upstream. */
    private void request(ByteBuf datagram, InetSocketAddress client) {
        Decision.Direct request = intake.admit(datagram, client, lane.virtualAddress.alloc(), lane);
        if (request != null) {
            upstream.forward(datagram, client, request, lane.ticker.nanos());
        }
    }

    /** Requests of this lane waiting for their answer, counted on its own loop. */
    io.netty.util.concurrent.Future<Integer> inFlight() {
        return lane.loop.submit(upstream::inFlight);
    }

    /** Closes the lane's sockets on its own loop. */
    Future<?> close() {
        return lane.loop.submit(() -> {
            if (housekeeping != null) {
                housekeeping.cancel(false);
            }
            upstream.close();
            if (lane.virtualAddress != null) {
                lane.virtualAddress.close();
            }
        });
    }
}
