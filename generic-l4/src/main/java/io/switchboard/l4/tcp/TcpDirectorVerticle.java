package io.switchboard.l4.tcp;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ServerChannel;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.transport.Transport;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.VirtualServerListener;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP director of one virtual server, in directed mode: it accepts connections on the virtual
 * address on Vert.x's event loops, picks a real for each and splices the two connections (see
 * {@link TcpSplice}).
 */
public final class TcpDirectorVerticle extends VerticleBase implements VirtualServerListener {

    private static final Logger LOG = LoggerFactory.getLogger(TcpDirectorVerticle.class);

    private final VirtualServer virtualServer;
    private final TcpOptions options;
    private final Ticker ticker;
    private final AtomicLong synWindowStart = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong synInWindow = new AtomicLong();
    private Channel server;
    private volatile InetSocketAddress localAddress;

    public TcpDirectorVerticle(VirtualServer virtualServer, TcpOptions options, Ticker ticker) {
        this.virtualServer = virtualServer;
        this.options = options;
        this.ticker = ticker;
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public Future<?> start() {
        VertxInternal internal = (VertxInternal) vertx;
        Transport transport = internal.transport();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(internal.acceptorEventLoopGroup(), internal.nettyEventLoopGroup())
                .channelFactory(() -> (ServerChannel) transport.serverChannelFactory(false).newChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel client) {
                        client.pipeline().addLast(new TcpSplice(virtualServer, options, transport, ticker,
                                TcpDirectorVerticle.this::admitSyn));
                    }
                });
        Promise<Void> bound = Promise.promise();
        InetSocketAddress address = virtualServer.config().listen().socketAddress();
        bootstrap.bind(address).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                bound.fail(new IllegalStateException("virtual server " + virtualServer.name() + ": cannot bind "
                        + address + "/tcp: " + f.cause().getMessage(), f.cause()));
                return;
            }
            server = f.channel();
            localAddress = new InetSocketAddress(address.getAddress(),
                    ((InetSocketAddress) server.localAddress()).getPort());
            LOG.info("virtual server {} (tcp) listening on {}", virtualServer.name(), localAddress);
            bound.complete();
        });
        return bound.future();
    }

    /** The SYN guard: at most {@code synLimit} new connections per interval (a fixed window). */
    boolean admitSyn() {
        if (options.synLimit().isEmpty()) {
            return true;
        }
        long now = ticker.nanos();
        long start = synWindowStart.get();
        if (start == Long.MIN_VALUE || now - start >= options.synInterval().toNanos()) {
            if (synWindowStart.compareAndSet(start, now)) {
                synInWindow.set(0);
            }
        }
        return synInWindow.incrementAndGet() <= options.synLimit().getAsInt();
    }

    @Override
    public Future<?> stop() {
        Promise<Void> closed = Promise.promise();
        if (server == null) {
            return Future.succeededFuture();
        }
        server.close().addListener(f -> closed.complete());
        return closed.future();
    }
}
