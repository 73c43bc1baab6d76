package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.gtp.GtpMessageView;

/**
 * The messages the director writes itself, from the virtual address: Echo Responses carrying its own
 * Recovery (restart counter), and Version Not Supported.
 */
final class GtpLocalAnswers {

    /** TS 29.060 §7.7.11 / GSM 09.60 §7.9.12: Recovery, TV, one octet. */
    private static final int V1_RECOVERY = 14;
    /** TS 29.274 §8.5: Recovery, TLV. */
    private static final int V2_RECOVERY = 3;
    private static final int ECHO_RESPONSE = 2;
    private static final int VERSION_NOT_SUPPORTED = 3;

    private GtpLocalAnswers() {
    }

    /** The Echo Response to the Echo Request the view is wrapped around, in its version. */
    static ByteBuf echoResponse(GtpMessageView request, int recovery, ByteBufAllocator alloc) {
        switch (request.version()) {
            case 0: {
                // GSM 09.60 §7.4.2: the request's header with type 2, then Recovery.
                ByteBuf in = request.v0().buffer();
                int at = request.v0().offset();
                ByteBuf out = alloc.buffer(22);
                out.writeBytes(in, at, 20);
                out.setByte(1, ECHO_RESPONSE);
                out.setShort(2, 2);
                out.writeByte(V1_RECOVERY).writeByte(recovery);
                return out;
            }
            case 1: {
                // TS 29.060 §7.2.2: TEID 0, the request's sequence number, Recovery.
                ByteBuf out = alloc.buffer(14);
                out.writeByte(0x32).writeByte(ECHO_RESPONSE).writeShort(6).writeInt(0)
                        .writeShort(request.sequence()).writeByte(0).writeByte(0);
                out.writeByte(V1_RECOVERY).writeByte(recovery);
                return out;
            }
            default: {
                // TS 29.274 §7.1.2: no TEID, the request's sequence number, Recovery (type 3, length 1).
                ByteBuf out = alloc.buffer(13);
                out.writeByte(0x40).writeByte(ECHO_RESPONSE).writeShort(9).writeMedium(request.sequence()).writeByte(0);
                out.writeByte(V2_RECOVERY).writeShort(1).writeByte(0).writeByte(recovery);
                return out;
            }
        }
    }

    /**
     * Version Not Supported (TS 29.060 §7.2.3, TS 29.274 §7.1.3, GSM 09.60 §7.4.3): a bare header of
     * the highest version this virtual server serves, with the offending message's sequence number
     * when it could be read (else 0).
     */
    static ByteBuf versionNotSupported(int version, int sequence, ByteBufAllocator alloc) {
        int seq = Math.max(0, sequence);
        switch (version) {
            case 0: {
                ByteBuf out = alloc.buffer(20);
                out.writeByte(0x1e).writeByte(VERSION_NOT_SUPPORTED).writeShort(0).writeShort(seq & 0xFFFF)
                        .writeShort(0).writeByte(0xff).writeMedium(0xffffff).writeLong(0);
                return out;
            }
            case 1: {
                ByteBuf out = alloc.buffer(12);
                out.writeByte(0x32).writeByte(VERSION_NOT_SUPPORTED).writeShort(4).writeInt(0)
                        .writeShort(seq & 0xFFFF).writeByte(0).writeByte(0);
                return out;
            }
            default: {
                ByteBuf out = alloc.buffer(8);
                out.writeByte(0x40).writeByte(VERSION_NOT_SUPPORTED).writeShort(4).writeMedium(seq & 0xFFFFFF)
                        .writeByte(0);
                return out;
            }
        }
    }
}
