package io.switchboard.director.gtp.demo;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2Message;
import java.net.DatagramPacket;

/** GTPv2-C messages to and from datagram bytes, for the demo's simulators (blocking sockets). */
final class GtpV2Datagrams {

    private GtpV2Datagrams() {
    }

    static byte[] bytes(GtpV2Message message) {
        ByteBuf out = Unpooled.buffer();
        try {
            GtpV2Codec.encode(message, out);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    static GtpV2Message decode(DatagramPacket in) throws DecodeException {
        return GtpV2Codec.decode(Unpooled.wrappedBuffer(in.getData(), in.getOffset(), in.getLength()));
    }
}
