package io.switchboard.codec.gtp.v0;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpBytes;
import io.switchboard.codec.gtp.v1.GtpV1Ie;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import java.net.InetAddress;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Decodes a GTPv0 message (GSM 09.60) into a {@link GtpV0Message} and encodes one back. Borrows
 * buffers: reads at absolute offsets without moving the reader index, appends at the writer index.
 */
public final class GtpV0Codec {

    /** GSM 09.60 §7.9 TV lengths, for the IE walker shared with GTPv1. */
    public static final IntUnaryOperator TV_LENGTHS = GtpV0IeType::tvLength;

    private static final byte[] EMPTY = new byte[0];

    private GtpV0Codec() {
    }

    public static GtpV0Message decode(ByteBuf buf) throws DecodeException {
        return decode(buf, buf.readerIndex());
    }

    public static GtpV0Message decode(ByteBuf buf, int offset) throws DecodeException {
        GtpV0Header header = new GtpV0Header().wrap(buf, offset);
        GtpV0MessageType type = header.messageType();
        List<GtpV1Ie> ies = List.of();
        byte[] opaque = EMPTY;
        if (type.isKnown()) {
            ies = GtpV1Ies.decode(buf, header.bodyOffset(), header.endOffset(), TV_LENGTHS, false);
        } else {
            opaque = GtpBytes.copy(buf, header.bodyOffset(), header.length());
        }
        return new DefaultGtpV0Message(header.flags(), type, header.sequence(), header.flowLabel(),
                header.sndcpNpduNumber(), buf.getUnsignedMedium(offset + 9), header.tid(), ies, opaque);
    }

    public static void encode(GtpV0Message message, ByteBuf out) {
        int start = out.writerIndex();
        out.writeByte(message.flags());
        out.writeByte(message.type().value());
        out.writeShort(0);
        out.writeShort(message.sequence());
        out.writeShort(message.flowLabel());
        out.writeByte(message.sndcpNpduNumber());
        out.writeMedium(message.spare());
        out.writeLong(message.tid());
        GtpV1Ies.encode(message.ies(), out);
        out.writeBytes(message.opaqueBody());
        out.setShort(start + 2, out.writerIndex() - start - GtpV0Header.LENGTH);
    }

    /**
     * Overwrites, in place, the {@code nth} GSN Address of a GTPv0 message with an address of the
     * same length; false if there is none of that length.
     */
    public static boolean setGsnAddress(ByteBuf buf, GtpV0Header header, int nth, InetAddress address)
            throws DecodeException {
        int ie = GtpV1Ies.indexOf(buf, header.bodyOffset(), header.endOffset(), GtpV0IeType.GSN_ADDRESS.value(), nth,
                TV_LENGTHS);
        byte[] bytes = address.getAddress();
        if (ie < 0 || buf.getUnsignedShort(ie + 1) != bytes.length) {
            return false;
        }
        buf.setBytes(ie + 3, bytes);
        return true;
    }
}
