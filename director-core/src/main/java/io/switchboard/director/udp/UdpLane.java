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
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.Decision;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One event loop's share of a UDP virtual server: the virtual-address socket bound on that loop and
 * the {@link LaneEngine} that serves the clients the kernel hashed to it — and, after a reload
 * replaced the virtual server, the replaced engines until they have answered what they hold: they
 * keep their sockets toward the reals and relay the answers through the same client socket.
 * Everything here is touched only by that loop's thread, so nothing is locked.
 */
final class UdpLane {

    private static final Logger LOG = LoggerFactory.getLogger(UdpLane.class);
    private static final long HOUSEKEEPING_MILLIS = 20;

    private final Farms farms;
    private final EventLoop loop;
    private final Ticker ticker;
    private final Supplier<Bootstrap> bootstrap;
    private final RateLimitedLog log;
    private Channel virtualAddress;
    private LaneEngine current;
    /** Engines of replaced virtual servers, oldest first, until nothing is in flight or their deadline. */
    private final List<LaneEngine> retiring = new ArrayList<>();
    /** When the socket last read a datagram (ticker time). */
    private long lastReceived;
    private ScheduledFuture<?> housekeeping;

    UdpLane(VirtualServer virtualServer, Farms farms, EventLoop loop, Ticker ticker, Supplier<Bootstrap> bootstrap) {
        this.farms = farms;
        this.loop = loop;
        this.ticker = ticker;
        this.bootstrap = bootstrap;
        this.log = new RateLimitedLog(LOG, Duration.ofSeconds(10), ticker);
        this.current = new LaneEngine(virtualServer, farms, loop, ticker, bootstrap, log);
    }

    ChannelHandler virtualAddressHandler() {
        return new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                LaneEngine engine = current;
                engine.context.tapIn(packet.sender(), ctx.channel(), packet.content());
                if (!engine.lengthensRequests) {
                    request(engine, packet.content(), packet.sender());
                    return;
                }
                ByteBuf growable = ctx.alloc().buffer(packet.content().readableBytes());
                try {
                    request(engine, growable.writeBytes(packet.content(), packet.content().readerIndex(),
                            packet.content().readableBytes()), packet.sender());
                } finally {
                    growable.release(); // what request() keeps (a resend, a relay) it retained
                }
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                // The end of a read burst: what it queued toward the reals (and local answers) leaves now.
                current.flush();
                for (LaneEngine old : retiring) {
                    old.flush();
                }
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                log.warn("virtual server {}: socket error: {}", current.context.virtualServer.name(), cause.toString());
            }
        };
    }

    /** Binds the upstream side; call on the lane's loop once the virtual address is bound. */
    Future<?> start(Channel virtualAddress) {
        this.virtualAddress = virtualAddress;
        lastReceived = ticker.nanos();
        housekeeping = loop.scheduleAtFixedRate(this::housekeep, HOUSEKEEPING_MILLIS, HOUSEKEEPING_MILLIS,
                TimeUnit.MILLISECONDS);
        return current.start(virtualAddress);
    }

    private void housekeep() {
        long now = ticker.nanos();
        current.housekeep(now);
        for (Iterator<LaneEngine> it = retiring.iterator(); it.hasNext(); ) {
            LaneEngine old = it.next();
            old.housekeep(now);
            int left = old.upstream.inFlight();
            if (left == 0 || now - old.retireBy >= 0) {
                if (left > 0) {
                    log.warn("virtual server {}: the replaced configuration closed with {} request(s) unanswered",
                            old.context.virtualServer.name(), left);
                }
                old.close();
                it.remove();
            }
        }
    }

    /**
     * Steps 2 and 3 of the packet path for one datagram sent to the virtual address, then the
     * upstream: a client's retransmission of a request a replaced engine still has pending goes to
     * that engine (the same real, the same director id), anything else to the current one.
     */
    private void request(LaneEngine engine, ByteBuf datagram, InetSocketAddress client) {
        long now = ticker.nanos();
        lastReceived = now;
        Decision.Direct request = engine.admit(datagram, client);
        if (request == null) {
            return;
        }
        for (LaneEngine old : retiring) {
            if (old.sameService(engine) && old.upstream.resendPending(datagram, client, request, now)) {
                return;
            }
        }
        engine.upstream.forward(datagram, client, request, now);
    }

    /**
     * Serves {@code next} on this lane's socket from now on: its engine opens its sockets toward the
     * reals, then takes every datagram read after; the engine it replaces retires, closed once
     * nothing is in flight or at {@code retireBy}. {@code reconfigure} adapts the socket first (its
     * receive buffers to a new maximum datagram).
     */
    Future<Void> replace(VirtualServer next, long retireBy, Consumer<Channel> reconfigure) {
        Promise<Void> replaced = loop.newPromise();
        loop.execute(() -> {
            LaneEngine engine = new LaneEngine(next, farms, loop, ticker, bootstrap, log);
            engine.start(virtualAddress).addListener(started -> {
                if (!started.isSuccess()) {
                    engine.close();
                    replaced.setFailure(started.cause());
                    return;
                }
                reconfigure.accept(virtualAddress);
                current.retireBy = retireBy;
                retiring.add(current);
                current = engine;
                replaced.setSuccess(null);
            });
        });
        return replaced;
    }

    /** Requests of this lane waiting for their answer, over its engines, counted on its own loop. */
    Future<Integer> inFlight() {
        return loop.submit(this::pending);
    }

    /** Requests in flight, and one more if a datagram arrived within the last {@code quietNanos}. */
    Future<Integer> unsettled(long quietNanos) {
        return loop.submit(() -> pending() + (ticker.nanos() - lastReceived < quietNanos ? 1 : 0));
    }

    private int pending() {
        int n = current.upstream.inFlight();
        for (LaneEngine old : retiring) {
            n += old.upstream.inFlight();
        }
        return n;
    }

    /** Replaced engines still answering, counted on the lane's loop. */
    Future<Integer> retiring() {
        return loop.submit(retiring::size);
    }

    /** Closes the lane's sockets on its own loop. */
    Future<?> close() {
        return loop.submit(() -> {
            if (housekeeping != null) {
                housekeeping.cancel(false);
            }
            current.close();
            retiring.forEach(LaneEngine::close);
            retiring.clear();
            if (virtualAddress != null) {
                virtualAddress.close();
            }
        });
    }
}
