package io.switchboard.codec.gtp.v0;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpBytes;

/**
 * A zero-copy view of the 20-octet GTPv0 header (GSM 09.60 §6) for the hot path. {@link #wrap}
 * checks the lengths once; the accessors then read from the buffer without copying or moving its
 * reader index. Reusable; borrows the buffer.
 *
 * <pre>
 * octet 1       version (3) = 0 | PT = 1 | spare '111' | SNN
 * octet 2       message type
 * octets 3-4    length: octets after the 20-octet header
 * octets 5-6    sequence number
 * octets 7-8    flow label
 * octet 9       SNDCP N-PDU number
 * octets 10-12  spare (all ones)
 * octets 13-20  TID: IMSI (15 TBCD digits) and NSAPI (4 bits)
 * </pre>
 */
public final class GtpV0Header {

    public static final int LENGTH = 20;
    static final int TID_OFFSET = 12;
    private static final int FLAG_PT = 0x10;

    private ByteBuf buf;
    private int offset;

    public static GtpV0Header of(ByteBuf buf) throws DecodeException {
        return new GtpV0Header().wrap(buf, buf.readerIndex());
    }

    /** Points this view at the message at absolute {@code offset}: version 0, PT 1, the declared length readable. */
    public GtpV0Header wrap(ByteBuf buf, int offset) throws DecodeException {
        // The version first, from one octet, so that a short message of another version is
        // counted as unsupported-version rather than truncated.
        GtpBytes.require(buf, offset, 1, "GTPv0 header");
        int flags = buf.getUnsignedByte(offset);
        int version = flags >> 5;
        if (version != 0) {
            throw GtpBytes.unsupportedVersion(version, 0);
        }
        if ((flags & FLAG_PT) == 0) {
            throw GtpBytes.malformed("GTPv0 header with PT=0 (GTP')");
        }
        GtpBytes.require(buf, offset, LENGTH, "GTPv0 header");
        GtpBytes.require(buf, offset, LENGTH + buf.getUnsignedShort(offset + 2), "GTPv0 message");
        this.buf = buf;
        this.offset = offset;
        return this;
    }

    public ByteBuf buffer() {
        return buf;
    }

    public int offset() {
        return offset;
    }

    public int flags() {
        return buf.getUnsignedByte(offset);
    }

    public int version() {
        return flags() >> 5;
    }

    /** SNN: the SNDCP N-PDU number field is meaningful. */
    public boolean hasSndcpNpduNumber() {
        return (flags() & 0x01) != 0;
    }

    public int messageTypeValue() {
        return buf.getUnsignedByte(offset + 1);
    }

    public GtpV0MessageType messageType() {
        return GtpV0MessageType.of(messageTypeValue());
    }

    /** The length field: octets after the header. */
    public int length() {
        return buf.getUnsignedShort(offset + 2);
    }

    public int totalLength() {
        return LENGTH + length();
    }

    public int sequence() {
        return buf.getUnsignedShort(offset + 4);
    }

    public int flowLabel() {
        return buf.getUnsignedShort(offset + 6);
    }

    public int sndcpNpduNumber() {
        return buf.getUnsignedByte(offset + 8);
    }

    /** The 8 TID octets as one big-endian number, as they appear on the wire. */
    public long tid() {
        return buf.getLong(offset + TID_OFFSET);
    }

    /** The IMSI digits of the TID, read in the given order; stops at the first filler nibble. */
    public String imsi(GtpV0TidOrder order) {
        return GtpV0Tid.imsi(tid(), order);
    }

    /** The NSAPI of the TID, read in the given order. */
    public int nsapi(GtpV0TidOrder order) {
        return GtpV0Tid.nsapi(tid(), order);
    }

    public int bodyOffset() {
        return offset + LENGTH;
    }

    public int endOffset() {
        return offset + totalLength();
    }

    public void setSequence(int sequence) {
        buf.setShort(offset + 4, sequence);
    }

    public void setFlowLabel(int flowLabel) {
        buf.setShort(offset + 6, flowLabel);
    }

    /** Rewrites the TID in place (8 octets, wire order). */
    public void setTid(long tid) {
        buf.setLong(offset + TID_OFFSET, tid);
    }
}
