package io.switchboard.codec.gtp.v2;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpBytes;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes GTPv2-C messages into {@link GtpV2Message} and encodes them back. Borrows buffers: reads
 * at absolute offsets without moving the reader index, appends at the writer index, never retains
 * or releases.
 */
public final class GtpV2Codec {

    private static final byte[] EMPTY = new byte[0];

    private GtpV2Codec() {
    }

    /** Decodes the first message at the reader index (a piggybacked one that follows is not read). */
    public static GtpV2Message decode(ByteBuf buf) throws DecodeException {
        return decode(buf, buf.readerIndex());
    }

    public static GtpV2Message decode(ByteBuf buf, int offset) throws DecodeException {
        GtpV2Header header = new GtpV2Header().wrap(buf, offset);
        GtpV2MessageType type = header.messageType();
        List<GtpV2Ie> ies = List.of();
        byte[] opaque = EMPTY;
        if (type.isKnown()) {
            ies = GtpV2Ies.decode(buf, header.bodyOffset(), header.endOffset());
        } else {
            opaque = GtpBytes.copy(buf, header.bodyOffset(), header.endOffset() - header.bodyOffset());
        }
        return new DefaultGtpV2Message(header.flags(), type, header.hasTeid() ? header.teid() : 0,
                header.sequence(), header.spareOctet(), ies, opaque);
    }

    /**
     * Decodes every message of the datagram at the reader index: the first, then while the P flag is
     * set the one that follows (TS 29.274 §5.5.1). A P flag with nothing after it means the datagram
     * was cut short: truncated.
     */
    public static List<GtpV2Message> decodeAll(ByteBuf buf) throws DecodeException {
        List<GtpV2Message> messages = new ArrayList<>(2);
        GtpV2Header header = new GtpV2Header();
        int offset = buf.readerIndex();
        while (true) {
            header.wrap(buf, offset);
            messages.add(decode(buf, offset));
            if (!header.piggybacked()) {
                return messages;
            }
            // Each message is at least 8 octets long, so this loop ends with the datagram.
            offset = header.endOffset();
        }
    }

    /** Appends the encoded message; the length field is computed, the flags are written as given. */
    public static void encode(GtpV2Message message, ByteBuf out) {
        int start = out.writerIndex();
        out.writeByte(message.flags());
        out.writeByte(message.type().value());
        out.writeShort(0);
        if (message.hasTeid()) {
            out.writeInt((int) message.teid());
        }
        out.writeMedium(message.sequence());
        out.writeByte(message.spareOctet());
        GtpV2Ies.encode(message.ies(), out);
        out.writeBytes(message.opaqueBody());
        out.setShort(start + 2, out.writerIndex() - start - 4);
    }

    /** Appends the messages one after the other, as a piggybacking datagram carries them. */
    public static void encodeAll(List<? extends GtpV2Message> messages, ByteBuf out) {
        for (GtpV2Message message : messages) {
            encode(message, out);
        }
    }
}
