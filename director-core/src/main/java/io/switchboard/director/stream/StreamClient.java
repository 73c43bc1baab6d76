package io.switchboard.director.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.net.InetSocketAddress;

/**
 * The engine's end of a client's connection, after the plug-in's handlers: each request they pass
 * on goes to the loop's {@link StreamLane}, which writes the answers back on this connection.
 */
final class StreamClient extends SimpleChannelInboundHandler<ByteBuf> {

    private final StreamLane lane;
    private InetSocketAddress peer;

    StreamClient(StreamLane lane) {
        this.lane = lane;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        peer = (InetSocketAddress) ctx.channel().remoteAddress();
        lane.connected(peer, ctx.channel());
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf request) {
        lane.request(request, peer);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        lane.closed(peer, ctx.channel());
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
