package io.switchboard.director.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
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
import io.switchboard.director.transport.Transports;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The generic UDP director: runs one virtual server's protocol plug-in over Netty on Vert.x's own
 * event loops. With a native transport (epoll or io_uring, the node's {@code transport}) it binds one
 * {@code SO_REUSEPORT} socket on the virtual address per event loop, so the kernel spreads clients
 * over every core; each socket and everything it touches (flows, pending requests) stays on its own
 * loop (a {@link UdpLane}). On NIO one socket serves.
 */
public final class UdpDirectorVerticle extends VerticleBase implements VirtualServerListener {

    private static final Logger LOG = LoggerFactory.getLogger(UdpDirectorVerticle.class);

    /** Datagrams read per recvmmsg call (epoll) or recvmsg submissions per read (io_uring). */
    static final int RECVMMSG_BATCH = 32;

    /** The virtual server served; a reload may replace it on the same sockets ({@link #replace}). */
    private volatile VirtualServer virtualServer;
    private final Farms farms;
    private final Ticker ticker;
    private final List<UdpLane> lanes = new ArrayList<>();
    private volatile InetSocketAddress localAddress;
    /** With access: the socket counting what other interfaces bring ({@link AccessSockets}). */
    private volatile Channel catchAll;

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
        Transports kind = Transports.of((EventLoop) group.iterator().next()); // next() would move the chooser
        boolean reusePort = kind.reusePort();
        List<String> access = virtualServer.config().access();
        if (!access.isEmpty() && kind != Transports.EPOLL) {
            return Future.failedFuture(new IllegalStateException("virtual server " + virtualServer.name()
                    + ": access " + access + " needs Linux with the epoll transport (SO_BINDTODEVICE)"));
        }
        List<EventLoop> loops = new ArrayList<>();
        for (EventExecutor executor : group) {
            loops.add((EventLoop) executor);
            if (!reusePort) {
                break;
            }
        }
        // One lane per event loop, and with access, per interface of it (one device per socket).
        List<Slot> slots = new ArrayList<>();
        for (String device : access.isEmpty() ? java.util.Collections.<String>singletonList(null) : access) {
            for (EventLoop loop : loops) {
                slots.add(new Slot(loop, device));
            }
        }
        Promise<Void> bound = Promise.promise();
        bindLane(transport, slots, 0, virtualServer.config().listen().socketAddress(), reusePort, bound);
        Future<Void> ready = access.isEmpty() ? bound.future()
                : bound.future().compose(v -> bindCatchAll(transport, loops.get(0)));
        return ready.onSuccess(v -> LOG.info("virtual server {} ({}) listening on {} with {} socket(s){}{}",
                virtualServer.name(), virtualServer.config().service(), localAddress, lanes.size(),
                reusePort ? " (" + kind.configName() + ", SO_REUSEPORT)" : " (" + kind.configName() + ")",
                access.isEmpty() ? "" : ", access " + access));
    }

    /** An event loop and the interface its virtual-address socket is bound to (null: none). */
    private record Slot(EventLoop loop, String device) {
    }

    /** Binds lane {@code index}; the first one fixes the port the others share. */
    private void bindLane(Transport transport, List<Slot> slots, int index, InetSocketAddress address,
            boolean reusePort, Promise<Void> done) {
        if (index == slots.size()) {
            done.complete();
            return;
        }
        EventLoop loop = slots.get(index).loop();
        String device = slots.get(index).device();
        UdpLane lane = new UdpLane(virtualServer, farms, loop, ticker, () -> newBootstrap(transport, loop, reusePort));
        Bootstrap bootstrap = newBootstrap(transport, loop, reusePort, device).handler(lane.virtualAddressHandler());
        bootstrap.bind(address).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                done.fail(new IllegalStateException("virtual server " + virtualServer.name()
                        + ": cannot bind " + address + (device == null ? "" : " on " + device) + ": "
                        + f.cause().getMessage(), f.cause()));
                return;
            }
            lanes.add(lane);
            InetSocketAddress actual = (InetSocketAddress) f.channel().localAddress();
            if (index == 0) {
                localAddress = new InetSocketAddress(address.getAddress(), actual.getPort());
            }
            lane.start(f.channel()).addListener(started -> {
                if (started.isSuccess()) {
                    bindLane(transport, slots, index + 1, localAddress, reusePort, done);
                } else {
                    done.fail(started.cause());
                }
            });
        });
    }

    /**
     * The socket on no device that receives what arrives on the other interfaces, to count it
     * ({@link AccessSockets}): without {@code SO_REUSEPORT}, so that it is never in a reuseport group
     * the kernel would pick before scoring the device-bound sockets.
     */
    private Future<Void> bindCatchAll(Transport transport, EventLoop loop) {
        Promise<Void> p = Promise.promise();
        new Bootstrap().group(loop).channelFactory(() -> (Channel) transport.datagramChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(AccessSockets.refusing(() -> virtualServer))
                .bind(localAddress).addListener((ChannelFuture f) -> {
                    if (f.isSuccess()) {
                        catchAll = f.channel();
                        p.complete();
                    } else {
                        p.fail(new IllegalStateException("virtual server " + virtualServer.name()
                                + ": cannot bind the catch-all socket of access on " + localAddress + ": "
                                + f.cause().getMessage(), f.cause()));
                    }
                });
        return p.future();
    }

    private Bootstrap newBootstrap(Transport transport, EventLoop loop, boolean reusePort) {
        return newBootstrap(transport, loop, reusePort, null);
    }

    /** @param device the interface a virtual-address socket is bound to (access), or null */
    private Bootstrap newBootstrap(Transport transport, EventLoop loop, boolean reusePort, String device) {
        int slot = slot(virtualServer.config().maxDatagram());
        Bootstrap b = new Bootstrap()
                .group(loop)
                .channelFactory(device == null ? () -> (Channel) transport.datagramChannel()
                        : () -> AccessSockets.bindToDevice((Channel) transport.datagramChannel(), device))
                .option(ChannelOption.SO_RCVBUF, 4 << 20)
                .option(ChannelOption.SO_SNDBUF, 4 << 20)
                .option(ChannelOption.RCVBUF_ALLOCATOR, allocator(slot, reusePort));
        if (reusePort) {
            b.option(Transports.soReusePort(), true);
            Transports.of(loop).maxDatagramPayloadSize().ifPresent(o -> b.option(o, slot));
        }
        if (device != null) {
            b.option(ChannelOption.SO_REUSEADDR, true); // beside the sockets of the other devices and the catch-all
        }
        return b;
    }

    /** One byte more than allowed, so that an oversized datagram is seen, not truncated. */
    private static int slot(int maxDatagram) {
        return Math.min(65_508, maxDatagram + 1);
    }

    /**
     * With recvmmsg (epoll), one system call reads up to RECVMMSG_BATCH datagrams, each into its own
     * slot of one buffer (docs/architecture.md: datagram batching is the lever past the bare relay);
     * io_uring cuts the same buffer into as many recvmsg submissions, completed in one ring pass.
     */
    private static FixedRecvByteBufAllocator allocator(int slot, boolean reusePort) {
        return new FixedRecvByteBufAllocator(reusePort ? slot * RECVMMSG_BATCH : slot);
    }

    /** A virtual-address socket's receive buffers made for another maximum datagram. */
    private static void resize(Channel socket, int maxDatagram) {
        int slot = slot(maxDatagram);
        var payload = Transports.of((EventLoop) socket.eventLoop()).maxDatagramPayloadSize();
        boolean reusePort = payload.isPresent(); // native: newBootstrap set it
        if (reusePort) {
            socket.config().setOption(payload.get(), slot);
        }
        socket.config().setRecvByteBufAllocator(allocator(slot, reusePort));
    }

    /**
     * Serves {@code next} on the bound sockets: each lane's engine is replaced on its loop, the
     * replaced ones answering what they hold until {@code retireByNanos}.
     */
    @Override
    public Future<Void> replace(VirtualServer next, long retireByNanos) {
        int maxDatagram = next.config().maxDatagram();
        boolean resize = maxDatagram != virtualServer.config().maxDatagram();
        virtualServer = next; // the new engines' sockets toward the reals are made for it
        List<Future<Void>> replaced = new ArrayList<>();
        for (UdpLane lane : lanes) {
            replaced.add(vertx(lane.replace(next, retireByNanos, socket -> {
                if (resize) {
                    resize(socket, maxDatagram);
                }
            })));
        }
        return Future.all(replaced).<Void>mapEmpty().onSuccess(v -> LOG.info(
                "virtual server {} ({}) reconfigured on {} with {} socket(s)", next.name(), next.config().service(),
                localAddress, lanes.size()));
    }

    @Override
    public Future<Integer> unsettled(long quietNanos) {
        return sum(lane -> lane.unsettled(quietNanos));
    }

    @Override
    public Future<Integer> retiring() {
        return sum(UdpLane::retiring);
    }

    private Future<Integer> sum(Function<UdpLane, io.netty.util.concurrent.Future<Integer>> count) {
        List<Future<Integer>> counts = new ArrayList<>();
        for (UdpLane lane : lanes) {
            counts.add(vertx(count.apply(lane)).otherwise(0));
        }
        return Future.all(counts).map(all -> counts.stream().mapToInt(Future::result).sum());
    }

    /** A Netty future as Vert.x's. */
    private static <T> Future<T> vertx(io.netty.util.concurrent.Future<T> netty) {
        Promise<T> p = Promise.promise();
        netty.addListener(f -> {
            if (f.isSuccess()) {
                p.complete(netty.getNow());
            } else {
                p.fail(f.cause());
            }
        });
        return p.future();
    }

    @Override
    public Future<Integer> inFlight() {
        return sum(UdpLane::inFlight);
    }

    @Override
    public Future<?> stop() {
        List<Future<Void>> closing = new ArrayList<>();
        if (catchAll != null) {
            Promise<Void> p = Promise.promise();
            catchAll.close().addListener(f -> p.complete());
            closing.add(p.future());
        }
        for (UdpLane lane : lanes) {
            Promise<Void> p = Promise.promise();
            lane.close().addListener(f -> p.complete());
            closing.add(p.future());
        }
        return Future.all(closing);
    }
}
