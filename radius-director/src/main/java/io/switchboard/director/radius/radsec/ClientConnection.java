package io.switchboard.director.radius.radsec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import io.switchboard.director.radius.radsec.RadsecMeters.Side;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RadSec client's connection, after TLS and framing: once the handshake verified its certificate
 * against the CA, the peer is identified as a configured client ({@link RadsecPeers}) or the
 * connection is closed; then every RADIUS packet it sends is passed on to the engine, which writes
 * the answers back through here. Nothing is passed on before the peer is known (RFC 6614 §2.3: the
 * TLS peer must be authenticated before it is a RADIUS client).
 */
final class ClientConnection extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);

    private final RadsecTransport transport;
    private InetSocketAddress peer;
    private boolean identified;

    ClientConnection(RadsecTransport transport) {
        this.transport = transport;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        peer = (InetSocketAddress) ctx.channel().remoteAddress();
        super.channelActive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof SslHandshakeCompletionEvent handshake) {
            if (!handshake.isSuccess()) {
                transport.meters().handshakeFailed(Side.CLIENT);
                LOG.warn("virtual server {}: TLS with RadSec client {} failed: {}", transport.name(), peer,
                        handshake.cause().toString());
                ctx.close();
                return;
            }
            identify(ctx);
        }
        super.userEventTriggered(ctx, event);
    }

    private void identify(ChannelHandlerContext ctx) {
        List<String> names;
        try {
            Certificate[] chain = ctx.pipeline().get(SslHandler.class).engine().getSession().getPeerCertificates();
            names = RadsecTls.names((X509Certificate) chain[0]);
        } catch (SSLPeerUnverifiedException e) {
            names = List.of(); // cannot be: the server requires a client certificate
        }
        String client = transport.peers().connected(peer, names);
        if (client == null) {
            transport.meters().connection(Side.CLIENT, "refused");
            LOG.warn("virtual server {}: RadSec peer {} (certificate names {}) is no configured client: closed",
                    transport.name(), peer, names);
            ctx.close();
            return;
        }
        identified = true;
        transport.meters().connection(Side.CLIENT, "opened");
        LOG.info("virtual server {}: RadSec client {} connected from {}", transport.name(), client, peer);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object packet) {
        if (!identified) {
            ReferenceCountUtil.release(packet);
            return;
        }
        transport.meters().packet(Side.CLIENT, "received");
        ctx.fireChannelRead(packet);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object answer, ChannelPromise promise) {
        if (answer instanceof ByteBuf) {
            transport.meters().packet(Side.CLIENT, "sent");
        }
        ctx.write(answer, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (identified) {
            identified = false;
            transport.peers().closed(peer);
            transport.meters().connection(Side.CLIENT, "closed");
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("virtual server {}: RadSec connection from {}: {}", transport.name(), peer, cause.toString());
        ctx.close();
    }
}
