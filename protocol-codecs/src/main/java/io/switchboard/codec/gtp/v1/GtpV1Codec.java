package io.switchboard.codec.gtp.v1;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpBytes;
import java.util.List;

/**
 * Decodes a GTPv1 message into a {@link GtpV1Message} and encodes one back. Both borrow the buffer:
 * decoding reads at absolute offsets without moving the reader index, encoding appends at the
 * writer index; neither retains nor releases.
 */
public final class GtpV1Codec {

    private static final byte[] EMPTY = new byte[0];

    private GtpV1Codec() {
    }

    /** Decodes the message at the reader index. Bytes past its declared length are ignored. */
    public static GtpV1Message decode(ByteBuf buf) throws DecodeException {
        return decode(buf, buf.readerIndex());
    }

    public static GtpV1Message decode(ByteBuf buf, int offset) throws DecodeException {
        GtpV1Header header = new GtpV1Header().wrap(buf, offset);
        boolean optional = header.hasOptionalFields();
        int sequence = optional ? buf.getUnsignedShort(offset + 8) : 0;
        int npdu = optional ? buf.getUnsignedByte(offset + 10) : 0;
        int nextExtension = optional ? buf.getUnsignedByte(offset + 11) : 0;
        byte[] extensions = header.hasExtensionHeaders()
                ? GtpBytes.copy(buf, offset + 12, header.bodyOffset() - offset - 12)
                : EMPTY;
        GtpV1MessageType type = header.messageType();
        List<GtpV1Ie> ies = List.of();
        byte[] opaque = EMPTY;
        if (type.isKnown()) {
            ies = GtpV1Ies.decode(buf, header.bodyOffset(), header.endOffset());
        } else {
            opaque = GtpBytes.copy(buf, header.bodyOffset(), header.endOffset() - header.bodyOffset());
        }
        return new DefaultGtpV1Message(header.flags(), type, header.teid(), sequence, npdu, nextExtension,
                extensions, ies, opaque);
    }

    /** Appends the encoded message at the writer index of {@code out}; the length field is computed. */
    public static void encode(GtpV1Message message, ByteBuf out) {
        int start = out.writerIndex();
        int flags = message.flags();
        byte[] extensions = message.extensionHeaders();
        out.writeByte(flags);
        out.writeByte(message.type().value());
        out.writeShort(0);
        out.writeInt((int) message.teid());
        if ((flags & (GtpV1Header.FLAG_E | GtpV1Header.FLAG_S | GtpV1Header.FLAG_PN)) != 0) {
            out.writeShort(message.sequence());
            out.writeByte(message.npduNumber());
            out.writeByte(message.nextExtensionType());
            out.writeBytes(extensions);
        }
        GtpV1Ies.encode(message.ies(), out);
        out.writeBytes(message.opaqueBody());
        out.setShort(start + 2, out.writerIndex() - start - GtpV1Header.MINIMUM_LENGTH);
    }
}
