package io.switchboard.director.radius.radsec;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoop;
import io.netty.channel.IoEventLoop;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.switchboard.director.spi.RealStreams;
import io.switchboard.director.spi.RealView;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import javax.net.ssl.SSLException;

/**
 * RADIUS over TLS for one virtual server: its TLS contexts and counters, the clients its listener
 * identifies ({@link RadsecPeers}), and the connections its lanes open to the reals whose
 * {@code transport} is {@code radsec} ({@link RealStreams}: the engine decides, these only carry).
 */
public final class RadsecTransport implements RealStreams {

    /** RFC 6614 §2.3: the shared secret of every RADIUS/TLS hop is the fixed string "radsec". */
    public static final String SECRET = "radsec";
    public static final byte[] SECRET_BYTES = SECRET.getBytes(StandardCharsets.US_ASCII);

    private final String name;
    private final RadsecOptions options;
    private final RadsecTls tls;
    private final RadsecMeters meters;
    private final RadsecPeers peers;
    private final Predicate<RealView> carried;

    /**
     * @param carried which reals are reached by RadSec (their {@code transport})
     * @throws IllegalStateException when the TLS files cannot be read (they could when configured)
     */
    public RadsecTransport(String name, RadsecOptions options, RadsecPeers peers, Predicate<RealView> carried,
            MeterRegistry registry) {
        this.name = name;
        this.options = options;
        try {
            this.tls = RadsecTls.load(options.tls());
        } catch (SSLException e) {
            throw new IllegalStateException("virtual server " + name + ": radsec.tls: " + e.getMessage(), e);
        }
        this.meters = new RadsecMeters(registry, name);
        this.peers = peers;
        this.carried = carried;
    }

    @Override
    public boolean carries(RealView real) {
        return carried.test(real);
    }

    @Override
    public Lane open(EventLoop loop, Answers answers) {
        return new RealConnections(this, loop, answers);
    }

    public String name() {
        return name;
    }

    public RadsecOptions options() {
        return options;
    }

    public RadsecTls tls() {
        return tls;
    }

    public RadsecMeters meters() {
        return meters;
    }

    public RadsecPeers peers() {
        return peers;
    }

    /** The TCP channel type that registers on {@code loop} (Vert.x's loops are epoll or NIO). */
    static Class<? extends SocketChannel> socketChannel(EventLoop loop) {
        return loop instanceof IoEventLoop io && io.isIoType(EpollIoHandler.class) ? EpollSocketChannel.class
                : NioSocketChannel.class;
    }
}
