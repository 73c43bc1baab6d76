package io.switchboard.codec.gtp.v2;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpBytes;

/**
 * A zero-copy view of a GTPv2-C header (TS 29.274 §5.1) for the hot path. {@link #wrap} checks the
 * lengths once; the accessors then read from the buffer without copying or moving its reader index.
 * Reusable; borrows the buffer (no retain, no release).
 *
 * <pre>
 * octet 1      version (3) | P | T | MP | spare (2)
 * octet 2      message type
 * octets 3-4   length: octets after the first 4
 * octets 5-8   TEID (only when T = 1)
 * next 3       sequence number
 * next 1       spare (message priority in the high nibble when MP = 1)
 * </pre>
 *
 * With P = 1 a second ("piggybacked") message follows this one in the same datagram (TS 29.274
 * §5.5.1, e.g. Create Bearer Request after Create Session Response): {@link #nextMessageOffset()}.
 */
public final class GtpV2Header {

    public static final int LENGTH_WITHOUT_TEID = 8;
    public static final int LENGTH_WITH_TEID = 12;
    static final int FLAG_P = 0x10;
    static final int FLAG_T = 0x08;

    private ByteBuf buf;
    private int offset;
    /**
     * The flags and message type octets, read once by {@link #wrap}: the director asks for them
     * many times per packet, and each read of a received datagram goes through a slice of a pooled
     * buffer. Rewrites change sequence numbers, TEIDs and IEs, never these two octets.
     */
    private int flags;
    private int type;

    public static GtpV2Header of(ByteBuf buf) throws DecodeException {
        return new GtpV2Header().wrap(buf, buf.readerIndex());
    }

    /**
     * Points this view at the message at absolute {@code offset}: version 2, the declared length
     * covering at least the rest of the header, and within the readable bytes. A piggybacked message
     * is not checked here; wrap another view at {@link #nextMessageOffset()}.
     */
    public GtpV2Header wrap(ByteBuf buf, int offset) throws DecodeException {
        // The version first, from one octet, so that a short message of another version is
        // counted as unsupported-version rather than truncated.
        GtpBytes.require(buf, offset, 1, "GTPv2 header");
        int flags = buf.getUnsignedByte(offset);
        int version = flags >> 5;
        if (version != 2) {
            throw GtpBytes.unsupportedVersion(version, 2);
        }
        GtpBytes.require(buf, offset, 4, "GTPv2 header");
        int headerLength = (flags & FLAG_T) != 0 ? LENGTH_WITH_TEID : LENGTH_WITHOUT_TEID;
        int length = buf.getUnsignedShort(offset + 2);
        if (length < headerLength - 4) {
            throw GtpBytes.malformed("GTPv2 length " + length + " shorter than its header");
        }
        GtpBytes.require(buf, offset, 4 + length, "GTPv2 message");
        this.buf = buf;
        this.offset = offset;
        this.flags = flags;
        this.type = buf.getUnsignedByte(offset + 1);
        return this;
    }

    public ByteBuf buffer() {
        return buf;
    }

    public int offset() {
        return offset;
    }

    public int flags() {
        return flags;
    }

    public int version() {
        return flags() >> 5;
    }

    /** P flag: another message follows this one in the datagram. */
    public boolean piggybacked() {
        return (flags() & FLAG_P) != 0;
    }

    /** T flag: the header carries a TEID. */
    public boolean hasTeid() {
        return (flags() & FLAG_T) != 0;
    }

    public int messageTypeValue() {
        return type;
    }

    public GtpV2MessageType messageType() {
        return GtpV2MessageType.of(messageTypeValue());
    }

    /** The length field: octets after the first 4. */
    public int length() {
        return buf.getUnsignedShort(offset + 2);
    }

    public int totalLength() {
        return 4 + length();
    }

    /** The TEID, or -1 when the T flag is clear. */
    public long teid() {
        return hasTeid() ? buf.getUnsignedInt(offset + 4) : -1;
    }

    private int sequenceOffset() {
        return offset + (hasTeid() ? 8 : 4);
    }

    /** The 24-bit sequence number. */
    public int sequence() {
        return buf.getUnsignedMedium(sequenceOffset());
    }

    /** The octet after the sequence number (spare, or message priority in its high nibble). */
    public int spareOctet() {
        return buf.getUnsignedByte(sequenceOffset() + 3);
    }

    public int headerLength() {
        return hasTeid() ? LENGTH_WITH_TEID : LENGTH_WITHOUT_TEID;
    }

    /** Absolute offset of the first IE. */
    public int bodyOffset() {
        return offset + headerLength();
    }

    /** Absolute offset just past this message. */
    public int endOffset() {
        return offset + totalLength();
    }

    /** Offset of the piggybacked message when P is set and bytes follow, else -1. */
    public int nextMessageOffset() {
        return piggybacked() && buf.writerIndex() > endOffset() ? endOffset() : -1;
    }

    /** Rewrites the TEID in place; the message must carry one (T flag set). */
    public void setTeid(long teid) {
        if (!hasTeid()) {
            throw new IllegalStateException("GTPv2 message without TEID");
        }
        buf.setInt(offset + 4, (int) teid);
    }

    /** Rewrites the 24-bit sequence number in place. */
    public void setSequence(int sequence) {
        buf.setMedium(sequenceOffset(), sequence);
    }
}
