package io.switchboard.l4.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.switchboard.director.EngineDrops;
import io.vertx.core.spi.transport.Transport;
import io.switchboard.codec.DropReason;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Selection;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.RealServer;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import java.util.concurrent.TimeUnit;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.LoggerFactory;

/**
 * One client connection: admitted (access list, SYN guard), given a real (sticky, else the
 * predictor; a real that refuses the connection is skipped up to {@code reassign} times and counts
 * an in-band failure), then spliced both ways with back-pressure (read the next chunk only after the
 * previous one is written) and half-close carried across. While spliced, the connection is one of
 * the real's connections; it ends as an answered request when both sides are closed.
 */
final class TcpSplice extends ChannelInboundHandlerAdapter {

    private static final RateLimitedLog LOG =
            new RateLimitedLog(LoggerFactory.getLogger(TcpSplice.class), Duration.ofSeconds(10), Ticker.SYSTEM);
    static final DropReason SYN_GUARD = DropReason.of("syn-guard");
    static final DropReason CONNECT_FAILED = DropReason.of("connect-failed");

    private final VirtualServer virtualServer;
    private final TcpOptions options;
    private final Transport transport;
    private final Ticker ticker;
    private final BooleanSupplier synGuard;
    private final Set<RealServer> refused = new HashSet<>();
    private Channel client;
    private Channel backend;
    private RealServer real;
    /** Bytes and end of input the client sent before the backend connection was up. */
    private final java.util.List<Object> early = new java.util.ArrayList<>();
    private boolean earlyEndOfInput;

    TcpSplice(VirtualServer virtualServer, TcpOptions options, Transport transport, Ticker ticker,
            BooleanSupplier synGuard) {
        this.virtualServer = virtualServer;
        this.options = options;
        this.transport = transport;
        this.ticker = ticker;
        this.synGuard = synGuard;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        client = ctx.channel();
        InetSocketAddress from = (InetSocketAddress) client.remoteAddress();
        virtualServer.metrics().received();
        if (!options.allows(from.getAddress())) {
            refuse(EngineDrops.CLIENT_NOT_ALLOWED, from);
        } else if (!virtualServer.inService()) {
            refuse(EngineDrops.OUT_OF_SERVICE, from);
        } else if (!synGuard.getAsBoolean()) {
            refuse(SYN_GUARD, from);
        } else {
            StickyKey key;
            try {
                // A connection's key is its client's: the plug-in decides before a byte is read.
                Decision decision = virtualServer.plugin().decide(Unpooled.EMPTY_BUFFER, from, ctx.alloc());
                if (!(decision instanceof Decision.Direct direct)) {
                    refuse(DropReason.UNEXPECTED_MESSAGE, from);
                    return;
                }
                key = direct.key();
            } catch (io.switchboard.codec.DecodeException e) {
                refuse(e.reason(), from);
                return;
            }
            connect(key, from);
        }
    }

    private void refuse(DropReason reason, InetSocketAddress from) {
        virtualServer.metrics().dropped(reason);
        LOG.warn("virtual server {}: connection from {} refused: {}", virtualServer.name(), from, reason);
        client.close();
    }

    private void connect(StickyKey key, InetSocketAddress from) {
        Selection selection = virtualServer.selectorFor(from).select(key, ticker.nanos(), refused);
        if (selection == null) {
            refuse(refused.isEmpty() ? EngineDrops.NO_REAL_AVAILABLE : CONNECT_FAILED, from);
            return;
        }
        RealServer chosen = selection.real();
        chosen.requestForwarded();
        Bootstrap bootstrap = new Bootstrap()
                .group(client.eventLoop())
                .channelFactory(() -> transport.channelFactory(false).newChannel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new Relay(() -> client));
        bootstrap.connect(chosen.address()).addListener((ChannelFuture f) -> {
            if (f.isSuccess() && client.isActive()) {
                real = chosen;
                backend = f.channel();
                virtualServer.metrics().forwarded(selection.reason());
                // The client side sees every byte both ways (reads one way, writes the other), so
                // its all-idle event is the connection's idle timer.
                client.pipeline().addFirst(new IdleStateHandler(0, 0, options.idle().toMillis(), TimeUnit.MILLISECONDS));
                client.pipeline().addLast(new Relay(() -> backend));
                client.closeFuture().addListener(c -> closeWhenFlushed(backend));
                backend.closeFuture().addListener(c -> closeWhenFlushed(client));
                client.closeFuture().addListener(c -> backend.closeFuture().addListener(b -> {
                    chosen.requestAnswered();
                    keepBinding(key); // the binding's idle time runs from the end of the last connection
                }));
                scheduleKeepBinding(key);
                // What the client sent while we connected (epoll reads a peer's FIN and the bytes
                // before it even without a read request) goes first, then its end of input.
                early.forEach(backend::write);
                early.clear();
                backend.flush();
                if (earlyEndOfInput) {
                    halfClosed(client, backend);
                } else {
                    client.read();
                }
                backend.read();
            } else if (f.isSuccess()) {
                f.channel().close(); // the client left while we connected
                chosen.requestAnswered();
            } else {
                chosen.requestUnanswered(from.getAddress(), ticker.nanos());
                refused.add(chosen);
                if (refused.size() < options.reassign() && client.isActive()) {
                    connect(key, from);
                } else {
                    refuse(CONNECT_FAILED, from);
                }
            }
        });
    }

    /**
     * While the connection is open its binding is refreshed every half idle time, so that a
     * connection longer than the sticky idle time does not lose it to the sweep.
     */
    private void scheduleKeepBinding(StickyKey key) {
        StickyTable table = virtualServer.selector().sticky();
        if (table == null || virtualServer.config().sticky().isEmpty()) {
            return;
        }
        long period = Math.max(1, virtualServer.config().sticky().get().idle().toMillis() / 2);
        var task = client.eventLoop().scheduleAtFixedRate(() -> keepBinding(key), period, period, TimeUnit.MILLISECONDS);
        client.closeFuture().addListener(c -> task.cancel(false));
    }

    /** Refreshes the key's binding, or binds it again to this connection's real if it has expired. */
    private void keepBinding(StickyKey key) {
        StickyTable table = virtualServer.selector().sticky();
        if (table == null || real == null) {
            return;
        }
        long now = ticker.nanos();
        if (table.lookup(key, now) == null) {
            table.bindIfAbsent(key, real.binding(), now);
        }
    }

    /** Closes both sides now, counting why. */
    private void closeBoth(String why) {
        if (client.isActive() || (backend != null && backend.isActive())) {
            virtualServer.metrics().closed(why);
            client.close();
            if (backend != null) {
                backend.close();
            }
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (backend == null) {
            early.add(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        early.forEach(io.netty.util.ReferenceCountUtil::release);
        early.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            closeBoth("idle");
            return;
        }
        if (event instanceof ChannelInputShutdownEvent && backend == null) {
            earlyEndOfInput = true;
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    /**
     * {@code from} has ended its input: the end is carried to {@code to}; when {@code from}'s own
     * output is done too the connection is over, else the other side gets the delay time to finish.
     */
    private void halfClosed(Channel from, Channel to) {
        if (to instanceof DuplexChannel duplex && to.isActive()) {
            duplex.shutdownOutput();
        }
        if (from instanceof DuplexChannel self && self.isOutputShutdown()) {
            from.close();
        } else {
            from.eventLoop().schedule(() -> closeBoth("delay"), options.delay().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    static void closeWhenFlushed(Channel channel) {
        if (channel != null && channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("virtual server {}: client connection error: {}", virtualServer.name(), cause.toString());
        ctx.close();
    }

    /**
     * Copies what one side reads to the other, one chunk at a time, and carries half-close over; a
     * half-closed connection gets the delay time to finish.
     */
    final class Relay extends ChannelInboundHandlerAdapter {
        private final java.util.function.Supplier<Channel> peer;

        Relay(java.util.function.Supplier<Channel> peer) {
            this.peer = peer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel other = peer.get();
            if (other == null || !other.isActive()) {
                io.netty.util.ReferenceCountUtil.release(msg);
                ctx.close();
                return;
            }
            other.writeAndFlush(msg).addListener((ChannelFuture f) -> {
                if (f.isSuccess()) {
                    // Not after end of input: epoll refuses to re-arm a half-closed socket (ENOENT).
                    if (!(ctx.channel() instanceof DuplexChannel d && d.isInputShutdown())) {
                        ctx.channel().read();
                    }
                } else {
                    ctx.close();
                }
            });
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof ChannelInputShutdownEvent) {
                halfClosed(ctx.channel(), peer.get());
            }
            ctx.fireUserEventTriggered(event);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeWhenFlushed(peer.get());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
