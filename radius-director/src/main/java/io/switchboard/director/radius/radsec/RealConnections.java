package io.switchboard.director.radius.radsec;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.switchboard.director.radius.radsec.RadsecMeters.Side;
import io.switchboard.director.spi.RealStreams;
import io.switchboard.director.spi.RealView;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lane's RadSec connections toward the reals: one per real and director socket (an id space of
 * 256 identifiers, as a datagram socket is), opened at the first request, kept, and opened again
 * when it drops — at once, then after a pause that doubles up to {@link #MAX_PAUSE_MILLIS} while it
 * keeps failing. What waits for the connection to come up is sent once it is up (at most
 * {@link #MAX_WAITING}); what cannot be sent is counted {@code not-sent} and released, and the
 * engine sees it unanswered at its timeout, which the real's failure detection counts as for a
 * datagram lost. Confined to the lane's event loop.
 */
final class RealConnections implements RealStreams.Lane {

    private static final Logger LOG = LoggerFactory.getLogger(RealConnections.class);
    static final int MAX_WAITING = 1024;
    static final long MIN_PAUSE_MILLIS = 250;
    static final long MAX_PAUSE_MILLIS = 30_000;

    private final RadsecTransport transport;
    private final EventLoop loop;
    private final RealStreams.Answers answers;
    private final Map<Long, Connection> connections = new HashMap<>();
    private boolean closed;

    RealConnections(RadsecTransport transport, EventLoop loop, RealStreams.Answers answers) {
        this.transport = transport;
        this.loop = loop;
        this.answers = answers;
    }

    @Override
    public void send(ByteBuf packet, RealView real, int socket) {
        Connection c = connections.computeIfAbsent(((long) real.slot() << 32) | socket,
                k -> new Connection(real.address(), socket));
        c.send(packet);
    }

    @Override
    public void flush() {
        for (Connection c : connections.values()) {
            c.flush();
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Connection c : connections.values()) {
            c.close();
        }
        connections.clear();
    }

    /** Connections up now (for tests). */
    long up() {
        return connections.values().stream().filter(c -> c.up).count();
    }

    /** The connection of one real and director socket. */
    private final class Connection {

        private final InetSocketAddress real;
        private final int socket;
        private final ArrayDeque<ByteBuf> waiting = new ArrayDeque<>();
        private Channel channel;
        private boolean up;
        private boolean dirty;
        /** Consecutive failures to connect, for the pause before the next try. */
        private int failures;
        /** True from a failed connection until the pause before the next try is over. */
        private boolean pausing;

        Connection(InetSocketAddress real, int socket) {
            this.real = real;
            this.socket = socket;
        }

        void send(ByteBuf packet) {
            if (up) {
                transport.meters().packet(Side.REAL, "sent");
                channel.write(packet, channel.voidPromise());
                dirty = true;
                return;
            }
            if (channel == null && !pausing) {
                connect();
            }
            if (pausing || waiting.size() >= MAX_WAITING) {
                packet.release();
                transport.meters().packet(Side.REAL, "not-sent");
                return;
            }
            waiting.add(packet);
        }

        void flush() {
            if (dirty) {
                dirty = false;
                channel.flush();
            }
        }

        private void connect() {
            ChannelFuture f = new Bootstrap().group(loop).channel(RadsecTransport.socketChannel(loop))
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            SslHandler ssl = transport.tls().client().newHandler(ch.alloc(),
                                    real.getAddress().getHostAddress(), real.getPort());
                            ch.pipeline().addLast(ssl,
                                    new RadiusFramer(() -> transport.meters().framingError(Side.REAL)),
                                    new Reader());
                        }
                    }).connect(real);
            channel = f.channel();
            f.addListener(done -> {
                if (!done.isSuccess()) {
                    transport.meters().connection(Side.REAL, "failed");
                    LOG.warn("virtual server {}: RadSec real {} cannot be reached: {}", transport.name(), real,
                            done.cause().toString());
                }
            });
            channel.closeFuture().addListener(done -> ended());
        }

        /** The TLS handshake ended: send what waited, or give up on it. */
        private void handshake(SslHandshakeCompletionEvent event) {
            if (!event.isSuccess()) {
                transport.meters().handshakeFailed(Side.REAL);
                LOG.warn("virtual server {}: TLS with RadSec real {} failed: {}", transport.name(), real,
                        event.cause().toString());
                channel.close();
                return;
            }
            up = true;
            failures = 0;
            transport.meters().connection(Side.REAL, "opened");
            while (!waiting.isEmpty()) {
                send(waiting.poll());
            }
            flush();
        }

        /** The connection closed (or never opened): what waited is lost; the next request opens it again. */
        private void ended() {
            if (up) {
                transport.meters().connection(Side.REAL, "dropped");
                LOG.warn("virtual server {}: RadSec connection to {} dropped; reconnecting", transport.name(), real);
            } else {
                failures++;
            }
            up = false;
            dirty = false;
            channel = null;
            while (!waiting.isEmpty()) {
                waiting.poll().release();
                transport.meters().packet(Side.REAL, "not-sent");
            }
            if (closed) {
                return;
            }
            if (failures == 0) {
                connect(); // it was up: the reals' next requests need it at once
                return;
            }
            pausing = true;
            long pause = Math.min(MAX_PAUSE_MILLIS, MIN_PAUSE_MILLIS << Math.min(failures - 1, 10));
            loop.schedule(() -> {
                pausing = false;
                if (!closed && channel == null) {
                    connect();
                }
            }, pause, TimeUnit.MILLISECONDS);
        }

        void close() {
            while (!waiting.isEmpty()) {
                waiting.poll().release();
            }
            if (channel != null) {
                channel.close();
            }
        }

        /** The real's answers, each handed to the engine as a datagram from the real on this socket would be. */
        private final class Reader extends SimpleChannelInboundHandler<ByteBuf> {

            @Override
            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf answer) {
                transport.meters().packet(Side.REAL, "received");
                answers.answer(answer, real, socket);
            }

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
                if (event instanceof SslHandshakeCompletionEvent handshake) {
                    handshake(handshake);
                }
                super.userEventTriggered(ctx, event);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                LOG.debug("virtual server {}: RadSec connection to {}: {}", transport.name(), real, cause.toString());
                ctx.close();
            }
        }
    }
}
