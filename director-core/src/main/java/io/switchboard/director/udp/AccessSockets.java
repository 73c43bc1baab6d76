package io.switchboard.director.udp;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.RawUnixChannelOption;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.VirtualServer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Interface awareness (IOS {@code access INTERFACE}): a virtual server with {@code access} serves
 * only the datagrams that arrive on those interfaces.
 *
 * <p>The mechanism is {@code SO_BINDTODEVICE} (socket(7)) on each virtual-address socket, before it
 * is bound: the kernel then delivers to it only datagrams received on that device, and its answers
 * leave through that device. Chosen over the alternatives because it keeps the one virtual address
 * and the existing lanes: {@code IP_PKTINFO} would have every lane read the ingress interface of each
 * datagram and filter in Java (a per-datagram ancillary-data parse on the hot path, and recvmmsg
 * through Netty gives no control messages), and per-interface addresses would change the address the
 * clients use, which IOS's {@code access} does not. Neither JDK 17 nor Netty's {@code
 * EpollChannelOption} names the option, but Netty's epoll channels take any socket option as a
 * {@link RawUnixChannelOption} (level, name, raw value), which is how it is set here: no JNA.
 *
 * <p>Semantics the configuration follows: one device per socket, so {@code n} interfaces take
 * {@code n} sockets per event loop (all {@code SO_REUSEPORT} within one device, {@code SO_REUSEADDR}
 * across devices, which Linux allows for sockets bound to different devices, udp_lib_lport_inuse);
 * Linux only (the binder refuses the key elsewhere, and the listener refuses it without the epoll
 * transport); since Linux 5.7 no privilege is needed to bind an unbound socket to a device (before,
 * {@code CAP_NET_RAW}; the error then names the interface and the cause).
 *
 * <p>A datagram arriving on another interface finds no device-bound socket. So that it is counted
 * (the kernel would only count it in {@code UdpNoPorts} and answer ICMP port unreachable), one more
 * socket, on no device and without {@code SO_REUSEPORT}, is bound on the same address and port: the
 * kernel's UDP lookup scores a socket bound to the arriving device above one bound to none
 * (compute_score in net/ipv4/udp.c), so this catch-all receives only what no allowed interface
 * took, and counts it as {@code dropped{reason=not-access-interface}}.
 */
public final class AccessSockets {

    /** {@code SOL_SOCKET} and {@code SO_BINDTODEVICE} of asm-generic/socket.h (x86, arm64, ...). */
    private static final int SOL_SOCKET = 1;
    private static final int SO_BINDTODEVICE = 25;
    /** {@code IFNAMSIZ}: the name and its terminating NUL, zero-padded. */
    private static final int IFNAMSIZ = 16;
    static final RawUnixChannelOption BIND_TO_DEVICE =
            new RawUnixChannelOption("SO_BINDTODEVICE", SOL_SOCKET, SO_BINDTODEVICE, IFNAMSIZ);

    private AccessSockets() {
    }

    /**
     * Binds {@code channel} (a datagram or listening socket not yet bound to an address) to
     * {@code device}. The TCP director's listeners use it too, one per interface; a connection
     * through another interface finds no listener and the kernel answers it with a reset (no
     * catch-all listener there: beside listening sockets it would need SO_REUSEPORT, and the
     * kernel's listener lookup returns the first reuseport group that scores, which may be its).
     *
     * @throws ChannelException when the transport is not epoll, or the kernel refuses (no such
     *                          device, not permitted)
     */
    public static <C extends Channel> C bindToDevice(C channel, String device) {
        if (!(channel instanceof io.netty.channel.unix.UnixChannel)) {
            channel.unsafe().closeForcibly();
            throw new ChannelException("access: needs Linux with the native epoll transport (SO_BINDTODEVICE);"
                    + " the transport here is " + channel.getClass().getSimpleName());
        }
        byte[] name = device.getBytes(StandardCharsets.US_ASCII);
        if (name.length >= IFNAMSIZ) {
            throw new ChannelException("access: interface name '" + device + "' longer than 15 octets");
        }
        ByteBuffer value = ByteBuffer.allocate(IFNAMSIZ);
        value.put(name).position(0);
        try {
            channel.config().setOption(BIND_TO_DEVICE, value);
        } catch (ChannelException e) {
            channel.unsafe().closeForcibly();
            throw new ChannelException("access: cannot bind a socket to interface " + device + " (SO_BINDTODEVICE): "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
        }
        return channel;
    }

    /** The catch-all socket's handler: counts each datagram against the virtual server served now. */
    static ChannelHandler refusing(Supplier<VirtualServer> served) {
        return new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                served.get().metrics().dropped(EngineDrops.NOT_ACCESS_INTERFACE);
            }
        };
    }
}
