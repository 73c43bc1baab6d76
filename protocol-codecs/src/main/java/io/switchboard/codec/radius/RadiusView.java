package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import java.nio.charset.StandardCharsets;

/**
 * A flyweight over one RADIUS packet in a {@link ByteBuf} (RFC 2865 §3). {@link #wrap} checks every
 * length once, so that the accessors can then read without checks and without allocating; attributes
 * are addressed by their offset from the first octet of the packet:
 *
 * <pre>{@code
 * for (int a = view.firstAttribute(); a >= 0; a = view.nextAttribute(a)) {
 *     if (view.attributeType(a) == 31) ...
 * }
 * }</pre>
 *
 * The view borrows the buffer: it never retains, releases or moves its indices. Octets beyond the
 * Length field are padding and are ignored (RFC 2865 §3).
 */
public final class RadiusView {

    public static final int HEADER_LENGTH = 20;          // RFC 2865 §3: code, identifier, length, authenticator
    public static final int MIN_LENGTH = 20;             // RFC 2865 §3
    public static final int MAX_LENGTH = 4096;           // RFC 2865 §3
    public static final int AUTHENTICATOR_OFFSET = 4;
    public static final int AUTHENTICATOR_LENGTH = 16;
    public static final int MESSAGE_AUTHENTICATOR_LENGTH = 18; // RFC 3579 §3.2: type, length, 16-octet HMAC-MD5
    public static final int VSA_HEADER_LENGTH = 6;       // RFC 2865 §5.26: type, length, vendor id (4)

    /** Raised when an attribute's length is below 2 or runs past the packet (RFC 2865 §5). */
    public static final DropReason BAD_ATTRIBUTE = DropReason.of("radius-bad-attribute");

    private final ByteBuf buf;
    private final int base;
    private final int length;

    private RadiusView(ByteBuf buf, int base, int length) {
        this.buf = buf;
        this.base = base;
        this.length = length;
    }

    /** Views the packet that starts at {@code buf.readerIndex()}; checks header and every attribute length. */
    public static RadiusView wrap(ByteBuf buf) throws DecodeException {
        int base = buf.readerIndex();
        int readable = buf.readableBytes();
        if (readable < HEADER_LENGTH) {
            throw DecodeException.truncated("RADIUS header", 0, HEADER_LENGTH, readable);
        }
        int length = buf.getUnsignedShort(base + 2);
        if (length < MIN_LENGTH || length > MAX_LENGTH) {
            throw new DecodeException(DropReason.MALFORMED, "RADIUS length " + length + " outside 20..4096");
        }
        if (length > readable) {
            throw DecodeException.truncated("RADIUS packet", 0, length, readable);
        }
        int offset = HEADER_LENGTH;
        while (offset < length) {
            if (length - offset < 2) {
                throw new DecodeException(BAD_ATTRIBUTE, "RADIUS attribute header cut at offset " + offset);
            }
            int type = buf.getUnsignedByte(base + offset);
            int attributeLength = buf.getUnsignedByte(base + offset + 1);
            if (attributeLength < 2) {
                throw new DecodeException(BAD_ATTRIBUTE,
                        "RADIUS attribute " + type + " length " + attributeLength + " at offset " + offset);
            }
            if (offset + attributeLength > length) {
                throw new DecodeException(BAD_ATTRIBUTE, "RADIUS attribute " + type + " at offset " + offset
                        + " runs " + (offset + attributeLength - length) + " bytes past the packet");
            }
            // RFC 3579 §3.2: the HMAC is 16 octets; a different length cannot be verified or re-signed.
            if (type == RadiusAttributeType.MESSAGE_AUTHENTICATOR.value()
                    && attributeLength != MESSAGE_AUTHENTICATOR_LENGTH) {
                throw new DecodeException(BAD_ATTRIBUTE, "Message-Authenticator length " + attributeLength);
            }
            offset += attributeLength;
        }
        return new RadiusView(buf, base, length);
    }

    /** The borrowed buffer; offsets of this view are relative to {@link #base()}. */
    public ByteBuf buffer() {
        return buf;
    }

    /** Index in {@link #buffer()} of the packet's first octet. */
    public int base() {
        return base;
    }

    public int code() {
        return buf.getUnsignedByte(base);
    }

    public int identifier() {
        return buf.getUnsignedByte(base + 1);
    }

    /** The Length field: the packet without padding. */
    public int length() {
        return length;
    }

    /** A copy of the 16-octet authenticator. */
    public byte[] authenticator() {
        byte[] out = new byte[AUTHENTICATOR_LENGTH];
        buf.getBytes(base + AUTHENTICATOR_OFFSET, out);
        return out;
    }

    /** Rewrites the identifier in place (the authenticators must then be re-computed). */
    public void rewriteIdentifier(int identifier) {
        buf.setByte(base + 1, identifier);
    }

    // ---- attributes, by offset from the first octet of the packet ----

    /** Offset of the first attribute, or -1 if there is none. */
    public int firstAttribute() {
        return length > HEADER_LENGTH ? HEADER_LENGTH : -1;
    }

    /** Offset of the attribute after the one at {@code offset}, or -1 at the end. */
    public int nextAttribute(int offset) {
        int next = offset + attributeLength(offset);
        return next < length ? next : -1;
    }

    /** Type of the attribute (or vendor sub-attribute) at {@code offset}. */
    public int attributeType(int offset) {
        return buf.getUnsignedByte(base + offset);
    }

    /** Length of the attribute (or vendor sub-attribute) at {@code offset}, header included. */
    public int attributeLength(int offset) {
        return buf.getUnsignedByte(base + offset + 1);
    }

    /** Offset of the value of the attribute (or vendor sub-attribute) at {@code offset}. */
    public int valueOffset(int offset) {
        return offset + 2;
    }

    public int valueLength(int offset) {
        return attributeLength(offset) - 2;
    }

    /** A copy of the value of the attribute at {@code offset}. */
    public byte[] value(int offset) {
        byte[] out = new byte[valueLength(offset)];
        buf.getBytes(base + offset + 2, out);
        return out;
    }

    /** The value of the attribute at {@code offset} as UTF-8 text (RFC 2865 §5 "text"). */
    public String text(int offset) {
        return buf.toString(base + offset + 2, valueLength(offset), StandardCharsets.UTF_8);
    }

    /** Offset of the first attribute of {@code type}, or -1. */
    public int find(int type) {
        for (int a = firstAttribute(); a >= 0; a = nextAttribute(a)) {
            if (attributeType(a) == type) {
                return a;
            }
        }
        return -1;
    }

    // ---- Vendor-Specific (RFC 2865 §5.26) ----

    /** The Vendor-Id of the Vendor-Specific attribute at {@code offset}, or -1 if it is not one. */
    public int vendorId(int offset) {
        if (attributeType(offset) != RadiusAttributeType.VENDOR_SPECIFIC.value()
                || attributeLength(offset) < VSA_HEADER_LENGTH) {
            return -1;
        }
        return buf.getInt(base + offset + 2);
    }

    /**
     * Offset of the first sub-attribute of the Vendor-Specific attribute at {@code vsa}, or -1. Vendors
     * that follow the RFC 2865 §5.26 recommendation use 1-octet vendor-type and vendor-length, which is
     * what this walks; a sub-attribute that does not fit ends the walk, since the layout is only
     * a recommendation.
     */
    public int firstVendorSubAttribute(int vsa) {
        if (vendorId(vsa) < 0) {
            return -1;
        }
        return fittingSubAttribute(vsa, vsa + VSA_HEADER_LENGTH);
    }

    /** Offset of the sub-attribute after {@code sub} inside the Vendor-Specific attribute {@code vsa}, or -1. */
    public int nextVendorSubAttribute(int vsa, int sub) {
        return fittingSubAttribute(vsa, sub + attributeLength(sub));
    }

    private int fittingSubAttribute(int vsa, int sub) {
        int end = vsa + attributeLength(vsa);
        if (sub + 2 > end) {
            return -1;
        }
        int subLength = attributeLength(sub);
        return subLength >= 2 && sub + subLength <= end ? sub : -1;
    }

    /** Whether the sub-attributes of the VSA at {@code vsa} exactly fill it in the RFC 2865 §5.26 layout. */
    public boolean vendorSubAttributesWellFormed(int vsa) {
        if (vendorId(vsa) < 0) {
            return false;
        }
        int end = vsa + attributeLength(vsa);
        int sub = vsa + VSA_HEADER_LENGTH;
        while (sub < end) {
            if (fittingSubAttribute(vsa, sub) < 0) {
                return false;
            }
            sub += attributeLength(sub);
        }
        return sub == end && end > vsa + VSA_HEADER_LENGTH;
    }

    /** Offset of the first sub-attribute {@code vendorType} of vendor {@code vendorId}, or -1. */
    public int findVendor(int vendorId, int vendorType) {
        for (int a = firstAttribute(); a >= 0; a = nextAttribute(a)) {
            if (vendorId(a) == vendorId) {
                for (int s = firstVendorSubAttribute(a); s >= 0; s = nextVendorSubAttribute(a, s)) {
                    if (attributeType(s) == vendorType) {
                        return s;
                    }
                }
            }
        }
        return -1;
    }

    // ---- the attributes a director keys on ----

    /** User-Name (RFC 2865 §5.1), or null. */
    public String userName() {
        return textOf(RadiusAttributeType.USER_NAME.value());
    }

    /** Calling-Station-Id (RFC 2865 §5.31), or null. */
    public String callingStationId() {
        return textOf(RadiusAttributeType.CALLING_STATION_ID.value());
    }

    /** Acct-Session-Id (RFC 2866 §5.5), or null. */
    public String acctSessionId() {
        return textOf(RadiusAttributeType.ACCT_SESSION_ID.value());
    }

    /** A copy of State (RFC 2865 §5.24), or null. */
    public byte[] state() {
        int a = find(RadiusAttributeType.STATE.value());
        return a < 0 ? null : value(a);
    }

    /**
     * Framed-IP-Address (RFC 2865 §5.8) as an unsigned 32-bit value, or -1 if absent or not 4 octets.
     * A long so that the absent case needs no allocation.
     */
    public long framedIpAddress() {
        int a = find(RadiusAttributeType.FRAMED_IP_ADDRESS.value());
        return a < 0 || attributeLength(a) != 6 ? -1 : buf.getUnsignedInt(base + a + 2);
    }

    /** Octets of {@link #ipv6Prefix}: the 16 of the prefix, then its length in bits. */
    public static final int IPV6_PREFIX_LENGTH = 17;

    /**
     * The IPv6 prefix the attribute at {@code offset} carries in the layout of RFC 3162 §2.3
     * (Framed-IPv6-Prefix; also RFC 4818 §3 Delegated-IPv6-Prefix): Reserved (1), Prefix-Length (1,
     * 0..128), then the Prefix, up to 16 octets, at least those that hold Prefix-Length bits. Returned
     * as {@link #IPV6_PREFIX_LENGTH} octets: the prefix padded to 16 with zeros and its bits past
     * Prefix-Length cleared (RFC 3162 §2.3: they "must be zero"; a sender that sets them still means
     * the same prefix), then Prefix-Length. So one prefix has one form however many octets the
     * sender used (a /64 may come in 8 or 16). Null when the value is shorter than 2 or longer than
     * 18 octets (Length 4..20, RFC 3162 §2.3), Prefix-Length exceeds 128, or the Prefix is too short
     * for it. Reserved is not checked (RFC 8044 §3.11: ignored on receipt).
     */
    public byte[] ipv6Prefix(int offset) {
        int length = valueLength(offset);
        if (length < 2 || length > 18) {
            return null;
        }
        int bits = buf.getUnsignedByte(base + offset + 3);
        int octets = length - 2;
        if (bits > 128 || octets * 8 < bits) {
            return null;
        }
        byte[] out = new byte[IPV6_PREFIX_LENGTH];
        buf.getBytes(base + offset + 4, out, 0, octets);
        for (int i = 0; i < 16; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            out[i] &= (byte) (0xff00 >> keep);
        }
        out[16] = (byte) bits;
        return out;
    }

    /** The first well-formed Framed-IPv6-Prefix (RFC 3162 §2.3) as {@link #ipv6Prefix} has it, or null. */
    public byte[] framedIpv6Prefix() {
        return ipv6PrefixOf(RadiusAttributeType.FRAMED_IPV6_PREFIX.value());
    }

    /** The first well-formed Delegated-IPv6-Prefix (RFC 4818 §3) as {@link #ipv6Prefix} has it, or null. */
    public byte[] delegatedIpv6Prefix() {
        return ipv6PrefixOf(RadiusAttributeType.DELEGATED_IPV6_PREFIX.value());
    }

    private byte[] ipv6PrefixOf(int type) {
        for (int a = firstAttribute(); a >= 0; a = nextAttribute(a)) {
            if (attributeType(a) == type) {
                byte[] prefix = ipv6Prefix(a);
                if (prefix != null) {
                    return prefix;
                }
            }
        }
        return null;
    }

    /** Acct-Status-Type (RFC 2866 §5.1), or -1 if absent or not 4 octets. See {@link RadiusAcctStatusType}. */
    public long acctStatusType() {
        int a = find(RadiusAttributeType.ACCT_STATUS_TYPE.value());
        return a < 0 || attributeLength(a) != 6 ? -1 : buf.getUnsignedInt(base + a + 2);
    }

    private String textOf(int type) {
        int a = find(type);
        return a < 0 ? null : text(a);
    }

    @Override
    public String toString() {
        return "RadiusView(" + RadiusCode.valueOf(code()) + ", id=" + identifier() + ", length=" + length + ")";
    }
}
