package io.switchboard.director.radius.radsec;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.VirtualServerListener;
import io.switchboard.director.radius.radsec.RadsecMeters.Side;
import io.switchboard.director.real.Farms;
import io.switchboard.director.udp.UdpDirectorVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.VertxInternal;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RADIUS virtual server that also accepts RadSec (RFC 6614): its UDP director, and a TLS listener
 * on TCP (2083 by default) whose connections are served on Vert.x's event loops, each loop's by a
 * {@link RadsecLane}. Draining, in-flight counts and reloads cover both.
 */
public final class RadsecListener extends VerticleBase implements VirtualServerListener {

    private static final Logger LOG = LoggerFactory.getLogger(RadsecListener.class);

    private volatile VirtualServer virtualServer;
    private final Farms farms;
    private final Ticker ticker;
    private final RadsecTransport transport;
    private final UdpDirectorVerticle udp;
    private final Map<EventLoop, RadsecLane> lanes = new ConcurrentHashMap<>();
    private Channel server;
    private volatile InetSocketAddress radsecAddress;

    public RadsecListener(VirtualServer virtualServer, Farms farms, Ticker ticker, RadsecTransport transport) {
        this.virtualServer = virtualServer;
        this.farms = farms;
        this.ticker = ticker;
        this.transport = transport;
        this.udp = new UdpDirectorVerticle(virtualServer, farms, ticker);
    }

    @Override
    public InetSocketAddress localAddress() {
        return udp.localAddress();
    }

    /** Where RadSec clients connect (with the real port when the configuration said 0); null before start. */
    public InetSocketAddress radsecAddress() {
        return radsecAddress;
    }

    @Override
    public Future<?> start() throws Exception {
        udp.init(vertx, context);
        return udp.start().compose(v -> bind());
    }

    private Future<Void> bind() {
        VertxInternal internal = (VertxInternal) vertx;
        EventLoopGroup group = internal.nettyEventLoopGroup();
        InetSocketAddress address = transport.options().listenOn(virtualServer.config().listen()).socketAddress();
        ServerBootstrap bootstrap = new ServerBootstrap().group(group.next(), group)
                .channelFactory(() -> (ServerChannel) internal.transport().serverChannelFactory(false).newChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        RadsecLane lane = lanes.computeIfAbsent(ch.eventLoop(),
                                loop -> new RadsecLane(virtualServer, transport, farms, loop, ticker));
                        ch.pipeline().addLast(transport.tls().server().newHandler(ch.alloc()),
                                new RadiusFramer(() -> transport.meters().framingError(Side.CLIENT)),
                                new ClientConnection(transport, lane));
                    }
                });
        Promise<Void> bound = Promise.promise();
        bootstrap.bind(address).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                bound.fail(new IllegalStateException("virtual server " + virtualServer.name()
                        + ": cannot bind RadSec on " + address + ": " + f.cause().getMessage(), f.cause()));
                return;
            }
            server = f.channel();
            radsecAddress = new InetSocketAddress(address.getAddress(),
                    ((InetSocketAddress) server.localAddress()).getPort());
            LOG.info("virtual server {}: RadSec (RADIUS over TLS) listening on {}", virtualServer.name(), radsecAddress);
            bound.complete();
        });
        return bound.future();
    }

    /**
     * The UDP lanes and the RadSec lanes serve {@code next}; refused when the RadSec settings changed
     * (another listener address or other TLS files need the listener bound again: a restart).
     */
    @Override
    public Future<Void> replace(VirtualServer next, long retireByNanos) {
        if (!Objects.equals(RadsecOptions.of(next.config()), transport.options())) {
            return Future.failedFuture(new UnsupportedOperationException("virtual server " + next.name()
                    + ": its radsec settings changed: they take effect at a restart"));
        }
        return udp.replace(next, retireByNanos).compose(v -> {
            virtualServer = next;
            return onLanes(lane -> {
                lane.replace(next, retireByNanos);
                return 0;
            });
        }).mapEmpty();
    }

    @Override
    public Future<Integer> inFlight() {
        return udp.inFlight().compose(n -> onLanes(RadsecLane::inFlight).map(m -> n + m));
    }

    @Override
    public Future<Integer> unsettled(long quietNanos) {
        return udp.unsettled(quietNanos).compose(n -> onLanes(RadsecLane::inFlight).map(m -> n + m));
    }

    @Override
    public Future<Integer> retiring() {
        return udp.retiring().compose(n -> onLanes(RadsecLane::retiringCount).map(m -> n + m));
    }

    /** Runs {@code count} on each lane's own loop; the sum. */
    private Future<Integer> onLanes(java.util.function.ToIntFunction<RadsecLane> count) {
        List<Future<Integer>> counts = new ArrayList<>();
        for (Map.Entry<EventLoop, RadsecLane> e : lanes.entrySet()) {
            Promise<Integer> p = Promise.promise();
            Callable<Integer> task = () -> count.applyAsInt(e.getValue());
            e.getKey().submit(task).addListener(f -> {
                if (f.isSuccess()) {
                    p.complete((Integer) f.getNow());
                } else {
                    p.complete(0);
                }
            });
            counts.add(p.future());
        }
        return Future.all(counts).map(all -> counts.stream().mapToInt(Future::result).sum());
    }

    @Override
    public Future<?> stop() throws Exception {
        if (server != null) {
            server.close();
        }
        return onLanes(lane -> {
            lane.close();
            return 0;
        }).compose(v -> udp.stop());
    }
}
