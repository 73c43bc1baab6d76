package io.switchboard.director.radius.radsec;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.spi.ClientStreams;
import io.switchboard.director.spi.FarmView;
import io.switchboard.director.spi.RealStreams;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.transport.Transports;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import javax.net.ssl.SSLException;

/**
 * RADIUS over TLS for one virtual server: its TLS contexts and counters; the clients that connect
 * ({@link ClientStreams}: the engine listens and serves, this makes each connection's pipeline and
 * identifies the peer, {@link RadsecPeers}); and the connections its lanes open to the reals whose
 * {@code transport} is {@code radsec} ({@link RealStreams}: the engine decides, these only carry).
 */
public final class RadsecTransport implements RealStreams, ClientStreams {

    /** RFC 6614 §2.3: the shared secret of every RADIUS/TLS hop is the fixed string "radsec". */
    public static final String SECRET = "radsec";
    public static final byte[] SECRET_BYTES = SECRET.getBytes(StandardCharsets.US_ASCII);

    private final String name;
    private final RadsecOptions options;
    private final RadsecTls tls;
    private final RadsecMeters meters;
    private final RadsecPeers peers;
    private final Predicate<RealView> carried;
    private final InetSocketAddress listenOn;

    /**
     * @param carried which reals are reached by RadSec (their {@code transport})
     * @throws IllegalStateException when the TLS files cannot be read (they could when configured)
     */
    public RadsecTransport(String name, RadsecOptions options, Endpoint virtualAddress, RadsecPeers peers,
            Predicate<RealView> carried, MeterRegistry registry) {
        this.name = name;
        this.options = options;
        this.listenOn = options.listenOn(virtualAddress).socketAddress();
        try {
            this.tls = RadsecTls.load(options.tls());
        } catch (SSLException e) {
            throw new IllegalStateException("virtual server " + name + ": radsec.tls: " + e.getMessage(), e);
        }
        this.meters = new RadsecMeters(registry, name);
        this.peers = peers;
        this.carried = carried;
    }

    /**
     * A virtual server's RadSec, or null when it has no {@code radsec:} block — refused then if its
     * farm has reals reached by RadSec: without the block there is no certificate to connect with, and
     * sending them datagrams would only make them look dead.
     */
    public static RadsecTransport of(String name, Optional<RadsecOptions> options, Endpoint virtualAddress,
            RadsecPeers peers, Predicate<RealView> carried, FarmView farm, MeterRegistry registry) {
        if (options.isPresent()) {
            return new RadsecTransport(name, options.get(), virtualAddress, peers, carried, registry);
        }
        for (RealView real : farm == null ? List.<RealView>of() : farm.reals()) {
            if (carried.test(real)) {
                throw new IllegalArgumentException("virtual server " + name + ": real " + real.id() + " of farm "
                        + farm.name() + " is reached by radsec: the virtual server needs a radsec: {tls: ...} block");
            }
        }
        return null;
    }

    @Override
    public boolean carries(RealView real) {
        return carried.test(real);
    }

    @Override
    public Lane open(EventLoop loop, Answers answers) {
        return new RealConnections(this, loop, answers);
    }

    /** The RadSec clients the virtual server accepts, or null with {@code listen: off}. */
    public ClientStreams clients() {
        return options.accepts() ? this : null;
    }

    @Override
    public InetSocketAddress listenOn() {
        return listenOn;
    }

    /** TLS, then the framing (RFC 6614 §2.5), then which client the peer is ({@link ClientConnection}). */
    @Override
    public void initChannel(Channel connection) {
        connection.pipeline().addLast(tls.server().newHandler(connection.alloc()),
                new RadiusFramer(() -> meters.framingError(RadsecMeters.Side.CLIENT)),
                new ClientConnection(this));
    }

    /** The connections of the virtual server this one replaced carry on here: their peers stay known. */
    @Override
    public void takeOver(ClientStreams previous) {
        if (previous instanceof RadsecTransport old) {
            peers.takeOver(old.peers);
        }
    }

    /** The listener's address and certificates: a reload that changes them needs a restart. */
    @Override
    public Object listenerSettings() {
        return List.of(listenOn, options);
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

    /** The TCP channel type that registers on {@code loop} (the node's {@code transport}). */
    static Class<? extends SocketChannel> socketChannel(EventLoop loop) {
        return Transports.of(loop).socketChannel();
    }
}
