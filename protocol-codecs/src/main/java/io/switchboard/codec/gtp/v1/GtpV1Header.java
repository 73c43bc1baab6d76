package io.switchboard.codec.gtp.v1;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpBytes;

/**
 * A zero-copy view of a GTPv1 header (TS 29.060 §6) for the hot path. {@link #wrap} checks every
 * length once; after that the accessors read straight from the buffer at fixed offsets, never move
 * its reader index and never copy. One instance can be reused for every datagram on an event loop.
 * The view borrows the buffer: it neither retains nor releases it.
 *
 * <pre>
 * octet 1     version (3) | PT | spare | E | S | PN
 * octet 2     message type
 * octets 3-4  length: octets after the first 8 (optional fields, extension headers and IEs)
 * octets 5-8  TEID
 * octets 9-10 sequence number   \
 * octet 11    N-PDU number       } present when any of E, S, PN is set (GTP-C always sets S)
 * octet 12    next extension type/
 * </pre>
 */
public final class GtpV1Header {

    /** Mandatory part, TS 29.060 §6. */
    public static final int MINIMUM_LENGTH = 8;
    static final int FLAG_PT = 0x10;
    static final int FLAG_E = 0x04;
    static final int FLAG_S = 0x02;
    static final int FLAG_PN = 0x01;

    private ByteBuf buf;
    private int offset;
    /**
     * The flags and message type octets, read once by {@link #wrap}: the director asks for them
     * many times per packet, and each read of a received datagram goes through a slice of a pooled
     * buffer. Rewrites change sequence numbers, TEIDs and IEs, never these two octets.
     */
    private int flags;
    private int type;
    private int bodyOffset;

    /** Wraps the message at the reader index of {@code buf}. */
    public static GtpV1Header of(ByteBuf buf) throws DecodeException {
        return new GtpV1Header().wrap(buf, buf.readerIndex());
    }

    /**
     * Points this view at the message starting at absolute {@code offset} and checks it: version 1,
     * PT 1 (GTP, not GTP'), the declared length within the readable bytes, the optional fields and
     * the extension header chain within the declared length.
     */
    public GtpV1Header wrap(ByteBuf buf, int offset) throws DecodeException {
        // The version first, from one octet, so that a short message of another version is
        // counted as unsupported-version rather than truncated.
        GtpBytes.require(buf, offset, 1, "GTPv1 header");
        int flags = buf.getUnsignedByte(offset);
        int version = flags >> 5;
        if (version != 1) {
            throw GtpBytes.unsupportedVersion(version, 1);
        }
        if ((flags & FLAG_PT) == 0) {
            throw GtpBytes.malformed("GTPv1 header with PT=0 (GTP')");
        }
        GtpBytes.require(buf, offset, MINIMUM_LENGTH, "GTPv1 header");
        int length = buf.getUnsignedShort(offset + 2);
        GtpBytes.require(buf, offset, MINIMUM_LENGTH + length, "GTPv1 message");
        int end = offset + MINIMUM_LENGTH + length;
        int body = offset + MINIMUM_LENGTH;
        if ((flags & (FLAG_E | FLAG_S | FLAG_PN)) != 0) {
            if (length < 4) {
                throw GtpBytes.malformed("GTPv1 length " + length + " leaves no room for the optional fields");
            }
            body += 4;
            if ((flags & FLAG_E) != 0) {
                // TS 29.060 §6.1: each extension header is a length in 4-octet units (never 0), its
                // content, and the type of the next one; 0 ends the chain.
                int next = buf.getUnsignedByte(offset + 11);
                while (next != 0) {
                    GtpBytes.requireWithin(body, 1, end, "GTPv1 extension header");
                    int units = buf.getUnsignedByte(body);
                    if (units == 0) {
                        throw GtpBytes.malformed("GTPv1 extension header of length 0 at offset " + body);
                    }
                    GtpBytes.requireWithin(body, units * 4, end, "GTPv1 extension header");
                    body += units * 4;
                    next = buf.getUnsignedByte(body - 1);
                }
            }
        }
        this.buf = buf;
        this.offset = offset;
        this.flags = flags;
        this.type = buf.getUnsignedByte(offset + 1);
        this.bodyOffset = body;
        return this;
    }

    public ByteBuf buffer() {
        return buf;
    }

    /** Absolute offset of the first octet of the message. */
    public int offset() {
        return offset;
    }

    public int flags() {
        return flags;
    }

    public int version() {
        return flags() >> 5;
    }

    public boolean hasExtensionHeaders() {
        return (flags() & FLAG_E) != 0;
    }

    public boolean hasSequence() {
        return (flags() & FLAG_S) != 0;
    }

    public boolean hasNpduNumber() {
        return (flags() & FLAG_PN) != 0;
    }

    /** Whether octets 9-12 are present (any of E, S, PN). */
    public boolean hasOptionalFields() {
        return (flags() & (FLAG_E | FLAG_S | FLAG_PN)) != 0;
    }

    public int messageTypeValue() {
        return type;
    }

    public GtpV1MessageType messageType() {
        return GtpV1MessageType.of(messageTypeValue());
    }

    /** The length field: octets after the first 8. */
    public int length() {
        return buf.getUnsignedShort(offset + 2);
    }

    /** Octets of the whole message, header included. */
    public int totalLength() {
        return MINIMUM_LENGTH + length();
    }

    public long teid() {
        return buf.getUnsignedInt(offset + 4);
    }

    /** The sequence number, or -1 when the S flag is clear. */
    public int sequence() {
        return hasSequence() ? buf.getUnsignedShort(offset + 8) : -1;
    }

    /** The N-PDU number, or -1 when the PN flag is clear. */
    public int npduNumber() {
        return hasNpduNumber() ? buf.getUnsignedByte(offset + 10) : -1;
    }

    /** The first extension header type, 0 when there is none. */
    public int nextExtensionType() {
        return hasExtensionHeaders() ? buf.getUnsignedByte(offset + 11) : 0;
    }

    /** Absolute offset of the first information element (after optional fields and extension headers). */
    public int bodyOffset() {
        return bodyOffset;
    }

    /** Absolute offset just past the message. */
    public int endOffset() {
        return offset + totalLength();
    }

    /** Rewrites the header TEID in place. */
    public void setTeid(long teid) {
        buf.setInt(offset + 4, (int) teid);
    }

    /** Rewrites the sequence number in place; the message must carry one (S flag set). */
    public void setSequence(int sequence) {
        if (!hasSequence()) {
            throw new IllegalStateException("GTPv1 message without sequence number");
        }
        buf.setShort(offset + 8, sequence);
    }
}
