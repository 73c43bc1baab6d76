package io.switchboard.codec.asn.r6;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;

/**
 * A view of one WiMAX ASN R6 control message (NWG Stage 3 §5.3, UDP 2231) for the hot path.
 * {@link #wrap} checks the header and the framing of every top-level TLV once; the view borrows the
 * buffer and never moves its indices. Offsets are relative to the first octet of the message.
 *
 * <pre>
 *  0 version | 1 flags | 2 function type | 3 OP-ID (3 bits) + message type (5 bits)
 *  4 length (2, whole message) | 6 MSID (6) | 12 reserved (4) | 16 transaction id (2) | 18 reserved (2)
 *  20 TLVs: type (2), length (2, value only), value
 * </pre>
 */
public final class R6View {

    public static final int HEADER_LENGTH = 20;
    public static final int TLV_HEADER_LENGTH = 4;
    /** Flag 0x02: Source and Destination Identifier TLVs are present. */
    public static final int FLAG_SOURCE_DESTINATION_IDENTIFIERS = 0x02;
    /** Flag 0x01: reset the next expected transaction id. */
    public static final int FLAG_RESET_NEXT_EXPECTED_TRANSACTION_ID = 0x01;

    /** A TLV whose header or declared length runs past the message. */
    public static final DropReason BAD_TLV = DropReason.of("r6-bad-tlv");

    private final ByteBuf buf;
    private final int base;
    private final int length;

    private R6View(ByteBuf buf, int base, int length) {
        this.buf = buf;
        this.base = base;
        this.length = length;
    }

    /** Views the message at the reader index. Octets past the Length field are ignored. */
    public static R6View wrap(ByteBuf buf) throws DecodeException {
        int base = buf.readerIndex();
        int readable = buf.readableBytes();
        if (readable < HEADER_LENGTH) {
            throw DecodeException.truncated("R6 header", 0, HEADER_LENGTH, readable);
        }
        int length = buf.getUnsignedShort(base + 4);
        if (length < HEADER_LENGTH) {
            throw new DecodeException(DropReason.MALFORMED, "R6 length " + length + " shorter than the header");
        }
        if (length > readable) {
            throw DecodeException.truncated("R6 message", 0, length, readable);
        }
        int offset = HEADER_LENGTH;
        while (offset < length) {
            if (length - offset < TLV_HEADER_LENGTH) {
                throw new DecodeException(BAD_TLV, "R6 TLV header cut at offset " + offset);
            }
            int valueLength = buf.getUnsignedShort(base + offset + 2);
            if (offset + TLV_HEADER_LENGTH + valueLength > length) {
                throw new DecodeException(BAD_TLV, "R6 TLV " + buf.getUnsignedShort(base + offset) + " at offset "
                        + offset + " runs " + (offset + TLV_HEADER_LENGTH + valueLength - length) + " bytes past the message");
            }
            offset += TLV_HEADER_LENGTH + valueLength;
        }
        return new R6View(buf, base, length);
    }

    public ByteBuf buffer() {
        return buf;
    }

    public int base() {
        return base;
    }

    public int version() {
        return buf.getUnsignedByte(base);
    }

    public int flags() {
        return buf.getUnsignedByte(base + 1);
    }

    public int functionType() {
        return buf.getUnsignedByte(base + 2);
    }

    /** The three high bits of octet 3, see {@link R6OpId}. */
    public int opId() {
        return buf.getUnsignedByte(base + 3) >>> 5;
    }

    /** The five low bits of octet 3; its meaning depends on the function type and the {@link NwgRelease}. */
    public int messageType() {
        return buf.getUnsignedByte(base + 3) & 0x1F;
    }

    /** The Length field: the whole message, header included. */
    public int length() {
        return length;
    }

    /** The MSID, a 48-bit MAC address, as the low 48 bits of a long: the sticky key, without allocation. */
    public long msid() {
        return ((long) buf.getUnsignedShort(base + 6) << 32) | buf.getUnsignedInt(base + 8);
    }

    /** The MSID as aa:bb:cc:dd:ee:ff. */
    public String msidText() {
        return formatMsid(msid());
    }

    /** The 16-bit transaction id (its top bit is the direction bit in some releases; kept as is). */
    public int transactionId() {
        return buf.getUnsignedShort(base + 16);
    }

    /** Which MS_PreAttachment message this is under {@code release}, or null. */
    public R6PreAttachment preAttachment(NwgRelease release) {
        return release.preAttachment(functionType(), messageType());
    }

    // ---- TLVs by offset ----

    public int firstTlv() {
        return length > HEADER_LENGTH ? HEADER_LENGTH : -1;
    }

    public int nextTlv(int offset) {
        int next = offset + TLV_HEADER_LENGTH + tlvLength(offset);
        return next < length ? next : -1;
    }

    public int tlvType(int offset) {
        return buf.getUnsignedShort(base + offset);
    }

    /** Length of the TLV's value. */
    public int tlvLength(int offset) {
        return buf.getUnsignedShort(base + offset + 2);
    }

    public int tlvValueOffset(int offset) {
        return offset + TLV_HEADER_LENGTH;
    }

    /** Offset of the first top-level TLV of {@code type}, or -1. */
    public int findTlv(int type) {
        for (int t = firstTlv(); t >= 0; t = nextTlv(t)) {
            if (tlvType(t) == type) {
                return t;
            }
        }
        return -1;
    }

    static String formatMsid(long msid) {
        StringBuilder s = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            int octet = (int) (msid >>> shift) & 0xFF;
            s.append(Character.forDigit(octet >>> 4, 16)).append(Character.forDigit(octet & 0xF, 16));
            if (shift > 0) {
                s.append(':');
            }
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return "R6View(" + R6FunctionType.valueOf(functionType()) + ", " + R6OpId.name(opId()) + ", type "
                + messageType() + ", MSID " + msidText() + ", TID " + transactionId() + ")";
    }
}
