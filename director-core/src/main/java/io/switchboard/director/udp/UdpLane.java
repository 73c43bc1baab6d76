package io.switchboard.director.udp;

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
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.Farms;
import io.switchboard.director.sticky.StickyKey;
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
    private final int maxDatagram;
    /** The plug-in when it answers some requests itself, else null. */
    private final LocalResponder responder;
    /** The plug-in when it relays some datagrams between peers, else null. */
    private final PeerRelay peerRelay;
    /** {@link DatagramPlugin#lengthensRequests()}: each request is copied into a buffer that can grow. */
    private final boolean lengthensRequests;
    private ScheduledFuture<?> housekeeping;

    UdpLane(VirtualServer virtualServer, Farms farms, EventLoop loop, Ticker ticker, Supplier<Bootstrap> bootstrap) {
        this.lane = new LaneContext(virtualServer, loop, ticker, bootstrap,
                new RateLimitedLog(LOG, Duration.ofSeconds(10), ticker));
        this.upstream = virtualServer.plugin() instanceof TransactionPlugin plugin
                ? new TransactionUpstream(lane, plugin, farms)
                : new FlowUpstream(lane);
        this.maxDatagram = virtualServer.config().maxDatagram();
        this.responder = virtualServer.plugin() instanceof LocalResponder r ? r : null;
        this.peerRelay = virtualServer.plugin() instanceof PeerRelay r ? r : null;
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

    /** Steps 2 and 3 of the packet path for one datagram sent to the virtual address. */
    private void request(ByteBuf datagram, InetSocketAddress client) {
        lane.metrics.received();
        if (!lane.virtualServer.inService()) {
            lane.drop(EngineDrops.OUT_OF_SERVICE, client, null);
            return;
        }
        if (datagram.readableBytes() > maxDatagram) {
            lane.drop(DropReason.OVERSIZED, client, null);
            return;
        }
        StickyKey key;
        try {
            ByteBuf answer = responder == null ? null
                    : responder.answerLocally(datagram, client, lane.virtualAddress.alloc());
            if (answer != null) {
                lane.metrics.answeredLocally();
                lane.tapOut(lane.virtualAddress, client, answer);
                lane.virtualAddress.write(new DatagramPacket(answer, client), lane.virtualAddress.voidPromise());
                lane.markRelayQueued();
                return;
            }
            InetSocketAddress peer = peerRelay == null ? null : peerRelay.relayTarget(datagram, client);
            if (peer != null) {
                lane.relay(datagram.retain(), peer);
                return;
            }
            key = lane.virtualServer.plugin().classify(datagram, client);
        } catch (DecodeException e) {
            lane.drop(e.reason(), client, e.getMessage());
            return;
        }
        upstream.forward(datagram, client, key, lane.ticker.nanos());
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
