package io.switchboard.director.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.Future;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.Flow;
import io.switchboard.director.transaction.FlowEngine;
import io.switchboard.director.transport.Transports;
import java.net.InetSocketAddress;

/**
 * Upstream for protocols without transaction ids (generic UDP): the lane's {@link FlowEngine}, which
 * decides, with one director socket per client flow toward its real, bound here.
 */
final class FlowUpstream implements Upstream, FlowEngine.FlowSide<ChannelFuture> {

    private final LaneContext lane;
    private final FlowEngine<ChannelFuture> engine;

    FlowUpstream(LaneContext lane) {
        this.lane = lane;
        this.engine = new FlowEngine<>(new EngineScope(lane.virtualServer, lane.ticker, lane.log, EngineEvents.NONE),
                this, lane);
    }

    @Override
    public Future<?> start() {
        return lane.loop.newSucceededFuture(null);
    }

    @Override
    public void forward(ByteBuf datagram, InetSocketAddress client, Decision.Direct request, long now) {
        engine.request(datagram, client, request.key(), now);
    }

    /**
     * A flow's socket: on an ephemeral port of the director's, or, with {@code client-nat: false}, on
     * the client's own address and port with {@code IP_TRANSPARENT} (ip(7)), so that the real sees the
     * client; its answers come back by the host's routing (docs/transparent.md).
     */
    @Override
    public ChannelFuture open(Flow<ChannelFuture> flow) {
        Bootstrap bootstrap = lane.bootstrap.get();
        if (!lane.virtualServer.config().clientNat()) {
            // ConfigBinder refuses client-nat: false on NIO, which has no IP_TRANSPARENT.
            Transports.of(lane.loop).ipTransparent().ifPresent(o -> bootstrap.option(o, true));
        }
        return bootstrap
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        lane.tapIn(packet.sender(), ctx.channel(), packet.content());
                        engine.answer(flow, packet.content(), packet.sender());
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        lane.flushRelays();
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        lane.log.warn("virtual server {}: socket toward {} failed: {}", lane.virtualServer.name(),
                                flow.real().id(), cause.toString());
                    }
                })
                .bind(lane.virtualServer.config().clientNat() ? new InetSocketAddress(0) : flow.client());
    }

    /** Sends once the flow's socket is bound; until then the datagram waits, in order. */
    @Override
    public void send(Flow<ChannelFuture> flow, ByteBuf datagram) {
        DatagramPacket out = new DatagramPacket(datagram, flow.real().address());
        ChannelFuture bound = flow.socket();
        if (bound.isDone()) {
            write(flow, out);
        } else {
            bound.addListener(f -> write(flow, out));
        }
    }

    private void write(Flow<ChannelFuture> flow, DatagramPacket out) {
        ChannelFuture bound = flow.socket();
        Channel channel = bound.channel();
        if (bound.isSuccess() && channel.isActive()) {
            lane.tapOut(channel, out.recipient(), out.content());
            channel.writeAndFlush(out, channel.voidPromise());
        } else {
            out.release();
            lane.log.warn("virtual server {}: no socket toward {}: {}", lane.virtualServer.name(), flow.real().id(),
                    bound.cause() == null ? "closed" : bound.cause().toString());
        }
    }

    @Override
    public void close(Flow<ChannelFuture> flow) {
        flow.socket().channel().close();
    }

    @Override
    public void housekeep(long now) {
        engine.housekeep(now);
    }

    @Override
    public int inFlight() {
        return engine.inFlight();
    }

    @Override
    public void close() {
        engine.close();
    }
}
