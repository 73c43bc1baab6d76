package io.switchboard.director.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.transport.Transports;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * {@code client-nat: false}: a lane's sockets bound to its clients' own addresses and ports with
 * {@code IP_TRANSPARENT} (Linux ip(7); needs CAP_NET_ADMIN), one per client, so that a real sees the
 * client as the source of its requests, as IOS SLB's {@code no nat client} let it. The real answers the
 * client's address; the director host's policy routing (docs/transparent.md) delivers that answer
 * locally, where the kernel finds the socket bound to the client's address and port, and the answer is
 * handed to the engine as one on director socket 0 (the engine keeps one id space in this mode). A
 * socket idle for the virtual server's {@code idle} is closed. Used on the lane's event loop only.
 */
final class ClientAddressSockets {

    private final LaneContext lane;
    private final UpstreamSockets.Receiver receiver;
    private final long idleNanos;
    private final Map<InetSocketAddress, ClientSocket> byClient = new HashMap<>();
    private final List<ClientSocket> queued = new ArrayList<>();

    private static final class ClientSocket {
        final ChannelFuture bound;
        /** What was sent before the bind completed (null once it did). */
        List<DatagramPacket> waiting = new ArrayList<>();
        long lastUsed;
        boolean queued;

        ClientSocket(ChannelFuture bound) {
            this.bound = bound;
        }
    }

    ClientAddressSockets(LaneContext lane, UpstreamSockets.Receiver receiver) {
        this.lane = lane;
        this.receiver = receiver;
        this.idleNanos = lane.virtualServer.config().idle().toNanos();
    }

    /** Sends {@code datagram} to {@code to} from {@code client}'s own address; takes it. */
    void send(ByteBuf datagram, InetSocketAddress to, InetSocketAddress client) {
        ClientSocket socket = byClient.get(client);
        if (socket == null) {
            socket = open(client);
            byClient.put(client, socket);
        }
        socket.lastUsed = lane.ticker.nanos();
        DatagramPacket packet = new DatagramPacket(datagram, to);
        if (socket.waiting != null) {
            socket.waiting.add(packet);
            return;
        }
        Channel channel = socket.bound.channel();
        if (!socket.bound.isSuccess() || !channel.isOpen()) {
            packet.release();
            lane.metrics.dropped(EngineDrops.SEND_FAILED);
            return;
        }
        lane.tapOut(channel, to, datagram);
        channel.write(packet, channel.voidPromise());
        if (!socket.queued) {
            socket.queued = true;
            queued.add(socket);
        }
    }

    private ClientSocket open(InetSocketAddress client) {
        Bootstrap bootstrap = lane.bootstrap.get();
        // ip(7) IP_TRANSPARENT: bind to an address that is not the host's and receive what is routed
        // locally to it (epoll or io_uring; ConfigBinder refuses client-nat: false on NIO).
        Transports.of(lane.loop).ipTransparent().ifPresent(o -> bootstrap.option(o, true));
        ChannelFuture bound = bootstrap
                // The lane bootstrap's 4 MiB buffers are for the shared sockets.
                .option(ChannelOption.SO_RCVBUF, 256 << 10)
                .option(ChannelOption.SO_SNDBUF, 256 << 10)
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        lane.tapIn(packet.sender(), ctx.channel(), packet.content());
                        receiver.answer(packet.content(), packet.sender(), 0);
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        lane.flushRelays();
                        flush();
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        lane.log.warn("virtual server {}: socket on behalf of {} failed: {}",
                                lane.virtualServer.name(), client, cause.toString());
                    }
                })
                .bind(client);
        ClientSocket socket = new ClientSocket(bound);
        bound.addListener(f -> {
            List<DatagramPacket> waiting = socket.waiting;
            socket.waiting = null;
            if (!f.isSuccess()) {
                lane.log.warn("virtual server {}: cannot bind the client's address {} (client-nat: false needs"
                        + " CAP_NET_ADMIN and the epoll or io_uring transport): {}", lane.virtualServer.name(), client,
                        f.cause().toString());
                waiting.forEach(p -> {
                    p.release();
                    lane.metrics.dropped(EngineDrops.SEND_FAILED);
                });
                byClient.remove(client, socket);
                return;
            }
            Channel channel = bound.channel();
            for (DatagramPacket packet : waiting) {
                lane.tapOut(channel, packet.recipient(), packet.content());
                channel.write(packet, channel.voidPromise());
            }
            channel.flush();
        });
        return socket;
    }

    /** Flushes the sockets written to since the last flush. */
    void flush() {
        for (ClientSocket socket : queued) {
            socket.queued = false;
            socket.bound.channel().flush();
        }
        queued.clear();
    }

    /** Closes the sockets of clients idle for longer than the virtual server's {@code idle}. */
    void housekeep(long now) {
        for (Iterator<ClientSocket> it = byClient.values().iterator(); it.hasNext(); ) {
            ClientSocket socket = it.next();
            if (socket.waiting == null && now - socket.lastUsed > idleNanos) {
                it.remove();
                socket.bound.channel().close();
            }
        }
    }

    void closeAll() {
        for (ClientSocket socket : byClient.values()) {
            if (socket.waiting != null) {
                socket.waiting.forEach(DatagramPacket::release);
                socket.waiting = null;
            }
            socket.bound.channel().close();
        }
        byClient.clear();
        queued.clear();
    }
}
