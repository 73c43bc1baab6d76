package io.switchboard.director.stream;

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
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.ClientStreams;
import io.switchboard.director.spi.TransactionPlugin;
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
 * A virtual server whose plug-in also takes clients over connections ({@link ClientStreams}: RADIUS
 * over TLS): its UDP director, and a TCP listener whose connections are served on Vert.x's event
 * loops, each loop's by a {@link StreamLane}. The plug-in makes each connection's pipeline; the
 * lanes serve what it passes on. Draining, in-flight counts and reloads cover both.
 */
public final class StreamListener extends VerticleBase implements VirtualServerListener {

    private static final Logger LOG = LoggerFactory.getLogger(StreamListener.class);

    private volatile VirtualServer virtualServer;
    private final Farms farms;
    private final Ticker ticker;
    /** The plug-in's part; a reload hands the listener to the replacing plug-in's. */
    private volatile ClientStreams streams;
    private final UdpDirectorVerticle udp;
    private final Map<EventLoop, StreamLane> lanes = new ConcurrentHashMap<>();
    private Channel server;
    private volatile InetSocketAddress streamAddress;

    public StreamListener(VirtualServer virtualServer, Farms farms, Ticker ticker, ClientStreams streams) {
        this.virtualServer = virtualServer;
        this.farms = farms;
        this.ticker = ticker;
        this.streams = streams;
        this.udp = new UdpDirectorVerticle(virtualServer, farms, ticker);
    }

    @Override
    public InetSocketAddress localAddress() {
        return udp.localAddress();
    }

    /** Where the clients connect (with the real port when the configuration said 0); null before start. */
    public InetSocketAddress streamAddress() {
        return streamAddress;
    }

    @Override
    public Future<?> start() throws Exception {
        udp.init(vertx, context);
        // A listener that cannot bind gives back the UDP sockets it bound first.
        return udp.start().compose(v -> bind().recover(e -> udp.stop().transform(stopped -> Future.failedFuture(e))));
    }

    private Future<Void> bind() {
        VertxInternal internal = (VertxInternal) vertx;
        EventLoopGroup group = internal.nettyEventLoopGroup();
        InetSocketAddress address = streams.listenOn();
        ServerBootstrap bootstrap = new ServerBootstrap().group(group.next(), group)
                .channelFactory(() -> (ServerChannel) internal.transport().serverChannelFactory(false).newChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        StreamLane lane = lanes.computeIfAbsent(ch.eventLoop(),
                                loop -> new StreamLane(virtualServer, farms, loop, ticker));
                        streams.initChannel(ch);
                        ch.pipeline().addLast(new StreamClient(lane));
                    }
                });
        Promise<Void> bound = Promise.promise();
        bootstrap.bind(address).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                bound.fail(new IllegalStateException("virtual server " + virtualServer.name()
                        + ": cannot listen for connections on " + address + ": " + f.cause().getMessage(), f.cause()));
                return;
            }
            server = f.channel();
            streamAddress = new InetSocketAddress(address.getAddress(),
                    ((InetSocketAddress) server.localAddress()).getPort());
            LOG.info("virtual server {} ({}) accepting connections on {}", virtualServer.name(),
                    virtualServer.config().service(), streamAddress);
            bound.complete();
        });
        return bound.future();
    }

    /**
     * The UDP lanes and the stream lanes serve {@code next}; refused when the listener's settings
     * changed (another address, other certificates need the listener bound again: a restart).
     */
    @Override
    public Future<Void> replace(VirtualServer next, long retireByNanos) {
        ClientStreams nextStreams = next.plugin() instanceof TransactionPlugin<?> plugin ? plugin.clientStreams() : null;
        if (nextStreams == null || !Objects.equals(nextStreams.listenerSettings(), streams.listenerSettings())) {
            return Future.failedFuture(new UnsupportedOperationException("virtual server " + next.name()
                    + ": the settings of its connection listener changed: they take effect at a restart"));
        }
        return udp.replace(next, retireByNanos).compose(v -> {
            // Before the stream lanes hand the connections' next requests to the new plug-in.
            nextStreams.takeOver(streams);
            streams = nextStreams;
            virtualServer = next;
            return onLanes(lane -> {
                lane.replace(next, retireByNanos);
                return 0;
            });
        }).mapEmpty();
    }

    @Override
    public Future<Integer> inFlight() {
        return udp.inFlight().compose(n -> onLanes(StreamLane::inFlight).map(m -> n + m));
    }

    @Override
    public Future<Integer> unsettled(long quietNanos) {
        return udp.unsettled(quietNanos).compose(n -> onLanes(StreamLane::inFlight).map(m -> n + m));
    }

    @Override
    public Future<Integer> retiring() {
        return udp.retiring().compose(n -> onLanes(StreamLane::retiringCount).map(m -> n + m));
    }

    /** Runs {@code count} on each lane's own loop; the sum. */
    private Future<Integer> onLanes(java.util.function.ToIntFunction<StreamLane> count) {
        List<Future<Integer>> counts = new ArrayList<>();
        for (Map.Entry<EventLoop, StreamLane> e : lanes.entrySet()) {
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
