package io.switchboard.director.radius.radsec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts a RadSec stream into RADIUS packets by their Length field (RFC 6614 §2.5: the packets follow
 * each other on the TLS stream, each framed by its own Length; RFC 2865 §3: 20 to 4096 octets). A
 * packet may arrive split over reads, several in one read. A Length out of range means the stream is
 * lost (nothing tells where the next packet starts): counted, and the connection closed.
 */
public final class RadiusFramer extends ByteToMessageDecoder {

    /** RFC 2865 §3: the header (code, identifier, length, authenticator). */
    static final int MIN_LENGTH = 20;
    /** RFC 2865 §3: the longest packet. */
    static final int MAX_LENGTH = 4096;

    private final Runnable framingError;
    private boolean lost;

    /** @param framingError counts a stream whose Length field was out of range */
    public RadiusFramer(Runnable framingError) {
        this.framingError = framingError;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (!lost && in.readableBytes() >= 4) {
            int length = in.getUnsignedShort(in.readerIndex() + 2);
            if (length < MIN_LENGTH || length > MAX_LENGTH) {
                lost = true;
                in.skipBytes(in.readableBytes());
                framingError.run();
                ctx.close();
                return;
            }
            if (in.readableBytes() < length) {
                return;
            }
            out.add(in.readRetainedSlice(length));
        }
        if (lost) {
            in.skipBytes(in.readableBytes());
        }
    }
}
