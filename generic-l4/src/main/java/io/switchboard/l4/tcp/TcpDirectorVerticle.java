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
import io.switchboard.director.udp.AccessSockets;
import java.net.InetSocketAddress;
import java.util.List;
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
    /** The listeners: one, or with access one per interface. */
    private final List<Channel> servers = new java.util.concurrent.CopyOnWriteArrayList<>();
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
        List<String> access = virtualServer.config().access();
        if (!access.isEmpty() && !vertx.isNativeTransportEnabled()) {
            return Future.failedFuture(new IllegalStateException("virtual server " + virtualServer.name()
                    + ": access " + access + " needs Linux with the native epoll transport (SO_BINDTODEVICE)"));
        }
        // Interface awareness: one listener per interface (SO_BINDTODEVICE, see AccessSockets).
        List<String> devices = access.isEmpty() ? java.util.Collections.singletonList(null) : access;
        Promise<Void> bound = Promise.promise();
        bind(internal, transport, devices, 0, virtualServer.config().listen().socketAddress(), bound);
        return bound.future().onSuccess(v -> LOG.info("virtual server {} (tcp) listening on {}{}", virtualServer.name(),
                localAddress, access.isEmpty() ? "" : ", access " + access));
    }

    private void bind(VertxInternal internal, Transport transport, List<String> devices, int index,
            InetSocketAddress address, Promise<Void> done) {
        if (index == devices.size()) {
            done.complete();
            return;
        }
        String device = devices.get(index);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(internal.acceptorEventLoopGroup(), internal.nettyEventLoopGroup())
                .channelFactory(() -> {
                    ServerChannel channel = (ServerChannel) transport.serverChannelFactory(false).newChannel();
                    return device == null ? channel : AccessSockets.bindToDevice(channel, device);
                })
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
        bootstrap.bind(address).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                done.fail(new IllegalStateException("virtual server " + virtualServer.name() + ": cannot bind "
                        + address + "/tcp" + (device == null ? "" : " on " + device) + ": " + f.cause().getMessage(),
                        f.cause()));
                return;
            }
            servers.add(f.channel());
            if (index == 0) {
                localAddress = new InetSocketAddress(address.getAddress(),
                        ((InetSocketAddress) f.channel().localAddress()).getPort());
            }
            bind(internal, transport, devices, index + 1, localAddress, done);
        });
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
        List<Future<Void>> closing = new java.util.ArrayList<>();
        for (Channel server : servers) {
            Promise<Void> closed = Promise.promise();
            server.close().addListener(f -> closed.complete());
            closing.add(closed.future());
        }
        return Future.all(closing);
    }
}
