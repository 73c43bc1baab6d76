package io.switchboard.director.transport;

import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.IoEventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.UnixChannelOption;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringSocketChannel;
import io.switchboard.director.config.TransportKind;
import io.vertx.core.transport.Transport;
import java.util.Optional;

/**
 * The one place that maps the {@code transport} choice to Netty and Vert.x: the node builds Vert.x
 * with {@link #vertx}, and every channel a director opens on one of its event loops takes its class
 * and its Linux options from {@link #of(EventLoop)}, that is from the loop it runs on, so that a
 * loop never gets a channel of another transport.
 *
 * <p>What the directors use of epoll, and io_uring's equivalent in Netty 4.2.18 (so no combination
 * is refused): {@code SO_REUSEPORT} with one socket per loop ({@link UnixChannelOption#SO_REUSEPORT},
 * both); batched reads (epoll: recvmmsg of {@code MAX_DATAGRAM_PAYLOAD_SIZE} slots; io_uring: as many
 * recvmsg submissions as slots, completed together); {@code IP_TRANSPARENT} for {@code client-nat:
 * false} (both). NIO has none of them: one socket per virtual server, and {@code client-nat: false}
 * is refused there ({@link #ipTransparent} is empty).
 */
public enum Transports {
    EPOLL(TransportKind.EPOLL, Transport.EPOLL, EpollDatagramChannel.class, EpollSocketChannel.class,
            EpollChannelOption.IP_TRANSPARENT, EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE),
    IO_URING(TransportKind.IO_URING, Transport.IO_URING, IoUringDatagramChannel.class, IoUringSocketChannel.class,
            IoUringChannelOption.IP_TRANSPARENT, IoUringChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE),
    NIO(TransportKind.NIO, Transport.NIO, NioDatagramChannel.class, NioSocketChannel.class, null, null);

    private final TransportKind kind;
    private final Transport vertx;
    private final Class<? extends DatagramChannel> datagramChannel;
    private final Class<? extends SocketChannel> socketChannel;
    private final ChannelOption<Boolean> ipTransparent;
    private final ChannelOption<Integer> maxDatagramPayloadSize;

    Transports(TransportKind kind, Transport vertx, Class<? extends DatagramChannel> datagramChannel,
            Class<? extends SocketChannel> socketChannel, ChannelOption<Boolean> ipTransparent,
            ChannelOption<Integer> maxDatagramPayloadSize) {
        this.kind = kind;
        this.vertx = vertx;
        this.datagramChannel = datagramChannel;
        this.socketChannel = socketChannel;
        this.ipTransparent = ipTransparent;
        this.maxDatagramPayloadSize = maxDatagramPayloadSize;
    }

    public static Transports of(TransportKind kind) {
        return switch (kind) {
            case EPOLL -> EPOLL;
            case IO_URING -> IO_URING;
            case NIO -> NIO;
        };
    }

    /** The transport of the loop a channel is to be registered on. */
    public static Transports of(EventLoop loop) {
        if (loop instanceof IoEventLoop io) {
            if (io.isIoType(EpollIoHandler.class)) {
                return EPOLL;
            }
            if (io.isIoType(IoUringIoHandler.class)) {
                return IO_URING;
            }
        }
        return NIO;
    }

    public TransportKind kind() {
        return kind;
    }

    public String configName() {
        return kind.configName();
    }

    /** Whether this host can run it (NIO always can). */
    public boolean available() {
        return switch (this) {
            case EPOLL -> Epoll.isAvailable();
            case IO_URING -> IoUring.isAvailable();
            case NIO -> true;
        };
    }

    /** Why it cannot run here (the native library's or the kernel's reason); null when it can. */
    public Throwable unavailabilityCause() {
        return switch (this) {
            case EPOLL -> Epoll.unavailabilityCause();
            case IO_URING -> IoUring.unavailabilityCause();
            case NIO -> null;
        };
    }

    public Class<? extends DatagramChannel> datagramChannel() {
        return datagramChannel;
    }

    public Class<? extends SocketChannel> socketChannel() {
        return socketChannel;
    }

    /** One socket per event loop on the virtual address ({@code SO_REUSEPORT}, socket(7)): native only. */
    public boolean reusePort() {
        return this != NIO;
    }

    /** {@link UnixChannelOption#SO_REUSEPORT}: the same option object for epoll and io_uring. */
    public static ChannelOption<Boolean> soReusePort() {
        return UnixChannelOption.SO_REUSEPORT;
    }

    /** ip(7) {@code IP_TRANSPARENT}; empty on NIO, which cannot set it. */
    public Optional<ChannelOption<Boolean>> ipTransparent() {
        return Optional.ofNullable(ipTransparent);
    }

    /** The slot size of batched reads (one buffer cut into datagram slots); empty on NIO. */
    public Optional<ChannelOption<Integer>> maxDatagramPayloadSize() {
        return Optional.ofNullable(maxDatagramPayloadSize);
    }

    /**
     * The transport a node is to run: the configured one, which must be available, or without a
     * {@code transport} key epoll where available, else NIO.
     *
     * @throws IllegalStateException naming the key and the host's reason when the configured one is not available
     */
    public static Transports forNode(Optional<TransportKind> configured) {
        problem(configured).ifPresent(message -> {
            throw new IllegalStateException(message);
        });
        return configured.map(Transports::of).orElse(EPOLL.available() ? EPOLL : NIO);
    }

    /**
     * For tools that run a configuration on loopback (what-if, replay): its transport where this host
     * has it, else the default; the transport changes no decision, so a capture replays anywhere.
     */
    public static Transports preferred(Optional<TransportKind> configured) {
        return configured.map(Transports::of).filter(Transports::available)
                .orElse(EPOLL.available() ? EPOLL : NIO);
    }

    /** Vert.x on {@code options} with this transport. */
    public io.vertx.core.Vertx newVertx(io.vertx.core.VertxOptions options) {
        return io.vertx.core.Vertx.builder().with(options.setPreferNativeTransport(this != NIO))
                .withTransport(vertx).build();
    }

    /** Why a node cannot start with {@code configured} on this host; empty when it can. */
    public static Optional<String> problem(Optional<TransportKind> configured) {
        if (configured.isEmpty()) {
            return Optional.empty();
        }
        Transports t = of(configured.get());
        if (t.available()) {
            return Optional.empty();
        }
        Throwable cause = t.unavailabilityCause();
        return Optional.of("transport: " + t.configName() + " is not available on this host ("
                + (cause == null ? "not Linux" : cause.getMessage()) + ")"
                + (t == IO_URING ? "; check /proc/sys/kernel/io_uring_disabled and the container's seccomp profile"
                        : "") + "; write transport: " + (t == IO_URING && EPOLL.available() ? "epoll" : "nio")
                + " or leave the key out");
    }

    /** Vert.x's transport for {@link io.vertx.core.VertxBuilder#withTransport}. */
    public Transport vertx() {
        return vertx;
    }
}
