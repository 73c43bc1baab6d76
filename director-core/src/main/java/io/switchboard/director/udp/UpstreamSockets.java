package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.transaction.RealSide;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A lane's director sockets toward the reals, as the transaction engine opens and closes them (its
 * id spaces decide when: one socket per id space). A socket that is still binding keeps what is sent
 * on it until it is bound; one that cannot be bound drops what waited, counted as
 * {@code send-failed}. Writes are flushed once per read burst. Used on the lane's event loop only.
 */
final class UpstreamSockets implements RealSide {

    /** What the sockets hand over: an answer from {@code sender} on director socket {@code socket}. */
    interface Receiver {
        void answer(ByteBuf answer, InetSocketAddress sender, int socket);
    }

    private final LaneContext lane;
    private final Receiver receiver;
    private final List<Channel> sockets = new ArrayList<>();
    /** Datagrams written to a socket that is still binding (null once it is bound). */
    private final List<List<DatagramPacket>> binding = new ArrayList<>();
    /** Which sockets have writes waiting for the end of the read burst. */
    private final List<Boolean> queued = new ArrayList<>();
    private boolean anyQueued;
    private ChannelFuture first;
    /** With {@code client-nat: false}, the sockets requests leave from instead (null otherwise). */
    private final ClientAddressSockets clientAddresses;

    UpstreamSockets(LaneContext lane, Receiver receiver) {
        this.lane = lane;
        this.receiver = receiver;
        this.clientAddresses = lane.virtualServer.config().clientNat() ? null : new ClientAddressSockets(lane, receiver);
    }

    /**
     * Binds socket {@code index} on the lane's loop. Until it is bound, what is sent on it waits in
     * {@link #binding}; a socket that cannot be bound drops what waited and takes nothing more. The
     * first socket's bind is what {@link #first()} returns.
     */
    @Override
    public void open(int index) {
        List<DatagramPacket> waiting = new ArrayList<>();
        ChannelFuture bound = bind(index);
        set(sockets, index, bound.channel());
        set(binding, index, waiting);
        set(queued, index, false);
        bound.addListener(f -> {
            binding.set(index, null);
            if (!f.isSuccess()) {
                lane.log.warn("virtual server {}: director socket {} toward the reals cannot be bound: {}",
                        lane.virtualServer.name(), index, f.cause().toString());
                for (DatagramPacket packet : waiting) {
                    packet.release();
                    lane.metrics.dropped(EngineDrops.SEND_FAILED);
                }
                return;
            }
            lane.metrics.upstreamSockets(1, index > 0);
            Channel socket = sockets.get(index);
            for (DatagramPacket packet : waiting) {
                lane.tapOut(socket, packet.recipient(), packet.content());
                socket.write(packet, socket.voidPromise());
            }
            socket.flush();
        });
        if (index == 0) {
            first = bound;
        }
    }

    /** The first socket's bind, once {@link #open open(0)} was called. */
    ChannelFuture first() {
        return first;
    }

    private static <T> void set(List<T> list, int index, T value) {
        while (list.size() <= index) {
            list.add(null);
        }
        list.set(index, value);
    }

    private ChannelFuture bind(int index) {
        return lane.bootstrap.get()
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        lane.tapIn(packet.sender(), ctx.channel(), packet.content());
                        receiver.answer(packet.content(), packet.sender(), index);
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        // Answers relayed, and requests resent elsewhere after a refusal.
                        lane.flushRelays();
                        flush();
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        lane.log.warn("virtual server {}: socket toward the reals failed: {}",
                                lane.virtualServer.name(), cause.toString());
                    }
                })
                .bind(0);
    }

    @Override
    public boolean closable(int index) {
        return binding.get(index) == null;
    }

    @Override
    public void close(int index) {
        Channel socket = sockets.get(index);
        if (socket.isActive()) {
            lane.metrics.upstreamSockets(-1, index > 0);
        }
        socket.close();
        sockets.set(index, null);
        queued.set(index, false);
    }

    /** Sends on socket {@code index}; takes {@code datagram}. */
    @Override
    public void toReal(ByteBuf datagram, RealServer real, int index, long transactionId, InetSocketAddress client) {
        InetSocketAddress to = real.address();
        if (clientAddresses != null) {
            clientAddresses.send(datagram, to, client);
            return;
        }
        List<DatagramPacket> waiting = binding.get(index);
        if (waiting != null) {
            waiting.add(new DatagramPacket(datagram, to));
            return;
        }
        Channel socket = sockets.get(index);
        if (!socket.isOpen()) {
            datagram.release();
            lane.metrics.dropped(EngineDrops.SEND_FAILED);
            return;
        }
        lane.tapOut(socket, to, datagram);
        socket.write(new DatagramPacket(datagram, to), socket.voidPromise());
        if (!queued.get(index)) {
            queued.set(index, true);
            anyQueued = true;
        }
    }

    void flush() {
        if (clientAddresses != null) {
            clientAddresses.flush();
        }
        if (!anyQueued) {
            return;
        }
        anyQueued = false;
        for (int i = 0; i < sockets.size(); i++) {
            if (queued.get(i)) {
                queued.set(i, false);
                sockets.get(i).flush();
            }
        }
    }

    /** Closes the client-address sockets idle for longer than the virtual server's {@code idle}. */
    void housekeep(long now) {
        if (clientAddresses != null) {
            clientAddresses.housekeep(now);
        }
    }

    /** Closes every socket and releases what waited for one to bind. */
    void closeAll() {
        if (clientAddresses != null) {
            clientAddresses.closeAll();
        }
        for (int i = 0; i < sockets.size(); i++) {
            Channel socket = sockets.get(i);
            if (socket != null) {
                if (socket.isActive()) {
                    lane.metrics.upstreamSockets(-1, i > 0);
                }
                socket.close();
                sockets.set(i, null);
            }
            if (binding.get(i) != null) {
                binding.get(i).forEach(DatagramPacket::release);
                binding.set(i, null);
            }
        }
    }
}
