package io.switchboard.director.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.transport.Transport;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.VirtualServerListener;
import io.switchboard.director.real.Farms;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The generic UDP director: runs one virtual server's protocol plug-in over Netty on Vert.x's own
 * event loops. With the native epoll transport it binds one {@code SO_REUSEPORT} socket on the
 * virtual address per event loop, so the kernel spreads clients over every core; each socket and
 * everything it touches (flows, pending requests) stays on its own loop (a {@link UdpLane}).
 * Elsewhere (NIO) one socket serves.
 */
public final class UdpDirectorVerticle extends VerticleBase implements VirtualServerListener {

    private static final Logger LOG = LoggerFactory.getLogger(UdpDirectorVerticle.class);

    /** Datagrams read per recvmmsg call. */
    static final int RECVMMSG_BATCH = 32;

    private final VirtualServer virtualServer;
    private final Farms farms;
    private final Ticker ticker;
    private final List<UdpLane> lanes = new ArrayList<>();
    private volatile InetSocketAddress localAddress;

    public UdpDirectorVerticle(VirtualServer virtualServer, Farms farms, Ticker ticker) {
        this.virtualServer = virtualServer;
        this.farms = farms;
        this.ticker = ticker;
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    public int lanes() {
        return lanes.size();
    }

    @Override
    public Future<?> start() {
        VertxInternal internal = (VertxInternal) vertx;
        Transport transport = internal.transport();
        EventLoopGroup group = internal.nettyEventLoopGroup();
        boolean reusePort = vertx.isNativeTransportEnabled() && Epoll.isAvailable();
        List<EventLoop> loops = new ArrayList<>();
        for (EventExecutor executor : group) {
            loops.add((EventLoop) executor);
            if (!reusePort) {
                break;
            }
        }
        Promise<Void> bound = Promise.promise();
        bindLane(transport, loops, 0, virtualServer.config().listen().socketAddress(), reusePort, bound);
        return bound.future().onSuccess(v -> LOG.info("virtual server {} ({}) listening on {} with {} socket(s){}",
                virtualServer.name(), virtualServer.config().service(), localAddress, lanes.size(),
                reusePort ? " (epoll, SO_REUSEPORT)" : ""));
    }

    /** Binds lane {@code index}; the first one fixes the port the others share. */
    private void bindLane(Transport transport, List<EventLoop> loops, int index, InetSocketAddress address,
            boolean reusePort, Promise<Void> done) {
        if (index == loops.size()) {
            done.complete();
            return;
        }
        EventLoop loop = loops.get(index);
        UdpLane lane = new UdpLane(virtualServer, farms, loop, ticker, () -> newBootstrap(transport, loop, reusePort));
        Bootstrap bootstrap = newBootstrap(transport, loop, reusePort).handler(lane.virtualAddressHandler());
        bootstrap.bind(address).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                done.fail(new IllegalStateException("virtual server " + virtualServer.name()
                        + ": cannot bind " + address + ": " + f.cause().getMessage(), f.cause()));
                return;
            }
            lanes.add(lane);
            InetSocketAddress actual = (InetSocketAddress) f.channel().localAddress();
            if (index == 0) {
                localAddress = new InetSocketAddress(address.getAddress(), actual.getPort());
            }
            lane.start(f.channel()).addListener(started -> {
                if (started.isSuccess()) {
                    bindLane(transport, loops, index + 1, localAddress, reusePort, done);
                } else {
                    done.fail(started.cause());
                }
            });
        });
    }

    private Bootstrap newBootstrap(Transport transport, EventLoop loop, boolean reusePort) {
        // One byte more than allowed, so that an oversized datagram is seen, not truncated.
        int slot = Math.min(65_508, virtualServer.config().maxDatagram() + 1);
        Bootstrap b = new Bootstrap()
                .group(loop)
                .channelFactory(() -> (Channel) transport.datagramChannel())
                .option(ChannelOption.SO_RCVBUF, 4 << 20)
                .option(ChannelOption.SO_SNDBUF, 4 << 20);
        if (reusePort) {
            // recvmmsg: one system call reads up to RECVMMSG_BATCH datagrams, each into its own slot
            // of one buffer (docs/architecture.md: datagram batching is the lever past the bare relay).
            b.option(EpollChannelOption.SO_REUSEPORT, true)
                    .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, slot)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(slot * RECVMMSG_BATCH));
        } else {
            b.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(slot));
        }
        return b;
    }

    @Override
    public Future<Integer> inFlight() {
        List<Future<Integer>> counts = new ArrayList<>();
        for (UdpLane lane : lanes) {
            Promise<Integer> p = Promise.promise();
            lane.inFlight().addListener(f -> p.complete(f.isSuccess() ? (Integer) f.getNow() : 0));
            counts.add(p.future());
        }
        return Future.all(counts).map(all -> counts.stream().mapToInt(Future::result).sum());
    }

    @Override
    public Future<?> stop() {
        List<Future<Void>> closing = new ArrayList<>();
        for (UdpLane lane : lanes) {
            Promise<Void> p = Promise.promise();
            lane.close().addListener(f -> p.complete());
            closing.add(p.future());
        }
        return Future.all(closing);
    }
}
