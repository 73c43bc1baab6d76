package io.switchboard.director.stream;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.RealStreams;
import io.switchboard.director.transaction.RealSide;
import io.switchboard.director.transport.Transports;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A stream lane's datagram sockets toward the reals, one per id space as the engine opens them: what
 * a request from a connected client needs to reach a real that takes datagrams (a RadSec NAS's
 * request to an AAA server that speaks only UDP). A socket
 * still binding keeps what is sent on it until it is bound. Confined to the lane's event loop.
 */
final class StreamDatagramReals implements RealSide {

    private final EventLoop loop;
    private final RealStreams.Answers answers;
    private final List<Channel> sockets = new ArrayList<>();
    /** Per socket: what waits for its bind (null once bound). */
    private final List<List<DatagramPacket>> binding = new ArrayList<>();
    private boolean dirty;

    StreamDatagramReals(EventLoop loop, RealStreams.Answers answers) {
        this.loop = loop;
        this.answers = answers;
    }

    @Override
    public void open(int index) {
        while (sockets.size() <= index) {
            sockets.add(null);
            binding.add(null);
        }
        List<DatagramPacket> waiting = new ArrayList<>();
        binding.set(index, waiting);
        ChannelFuture f = new Bootstrap().group(loop)
                .channel(Transports.of(loop).datagramChannel())
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        answers.answer(packet.content(), packet.sender(), index);
                    }
                }).bind(0);
        sockets.set(index, f.channel());
        f.addListener(done -> {
            binding.set(index, null);
            for (DatagramPacket packet : waiting) {
                if (done.isSuccess()) {
                    f.channel().write(packet, f.channel().voidPromise());
                } else {
                    packet.release();
                }
            }
            f.channel().flush();
        });
    }

    @Override
    public boolean closable(int index) {
        return binding.get(index) == null;
    }

    @Override
    public void close(int index) {
        Channel socket = sockets.set(index, null);
        if (socket != null) {
            socket.close();
        }
    }

    @Override
    public void toReal(ByteBuf datagram, RealServer real, int socket, long transactionId, InetSocketAddress client) {
        List<DatagramPacket> waiting = binding.get(socket);
        DatagramPacket packet = new DatagramPacket(datagram, real.address());
        if (waiting != null) {
            waiting.add(packet);
            return;
        }
        Channel channel = sockets.get(socket);
        if (channel == null || !channel.isOpen()) {
            packet.release();
            return;
        }
        channel.write(packet, channel.voidPromise());
        dirty = true;
    }

    void flush() {
        if (dirty) {
            dirty = false;
            for (Channel socket : sockets) {
                if (socket != null) {
                    socket.flush();
                }
            }
        }
    }

    void closeAll() {
        for (int i = 0; i < sockets.size(); i++) {
            close(i);
            List<DatagramPacket> waiting = binding.set(i, null);
            if (waiting != null) {
                waiting.forEach(DatagramPacket::release);
                waiting.clear(); // a bind still under way finds nothing to send
            }
        }
    }
}
