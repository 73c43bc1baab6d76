package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;

/**
 * Adding or replacing a vendor sub-attribute (RFC 2865 §5.26). This changes the packet length, so
 * unlike the in-place rewrites it copies the packet into an output buffer; sign the copy afterwards
 * with {@link RadiusAuthenticators}.
 */
public final class RadiusVendorAttributes {

    /** Largest sub-attribute value: 255 - (type, length, vendor id) - (vendor type, vendor length). */
    public static final int MAX_VALUE_LENGTH = 247;

    private RadiusVendorAttributes() {
    }

    /**
     * Writes {@code in} to {@code out} (at its writer index) with the sub-attribute {@code vendorType} of
     * {@code vendorId} set to {@code value}: every existing occurrence is removed (a Vendor-Specific
     * attribute left empty is dropped), the new one is written where the first occurrence was, or
     * appended if there was none. Vendor-Specific attributes that do not follow the recommended
     * sub-attribute layout are copied untouched. The Length field is updated; authenticators are not.
     *
     * @return the length of the written packet
     * @throws IllegalArgumentException if the value is too long or the result would exceed 4096 octets
     */
    public static int put(RadiusView in, int vendorId, int vendorType, byte[] value, ByteBuf out) {
        if (value.length > MAX_VALUE_LENGTH) {
            throw new IllegalArgumentException("vendor attribute value longer than 247 octets: " + value.length);
        }
        if (vendorType < 0 || vendorType > 255) {
            throw new IllegalArgumentException("vendor type out of range: " + vendorType);
        }
        int newVsaLength = RadiusView.VSA_HEADER_LENGTH + 2 + value.length;
        int length = RadiusView.HEADER_LENGTH;
        boolean replaced = false;
        for (int a = in.firstAttribute(); a >= 0; a = in.nextAttribute(a)) {
            int matching = matchingSubAttributeBytes(in, a, vendorId, vendorType);
            if (matching == 0) {
                length += in.attributeLength(a);
                continue;
            }
            if (!replaced) {
                length += newVsaLength;
                replaced = true;
            }
            int rest = in.attributeLength(a) - matching;
            if (rest > RadiusView.VSA_HEADER_LENGTH) {
                length += rest;
            }
        }
        if (!replaced) {
            length += newVsaLength;
        }
        if (length > RadiusView.MAX_LENGTH) {
            throw new IllegalArgumentException("RADIUS packet would be " + length + " octets, above 4096");
        }

        ByteBuf src = in.buffer();
        int base = in.base();
        out.ensureWritable(length);
        out.writeBytes(src, base, 2);
        out.writeShort(length);
        out.writeBytes(src, base + RadiusView.AUTHENTICATOR_OFFSET, RadiusView.AUTHENTICATOR_LENGTH);
        replaced = false;
        for (int a = in.firstAttribute(); a >= 0; a = in.nextAttribute(a)) {
            int matching = matchingSubAttributeBytes(in, a, vendorId, vendorType);
            if (matching == 0) {
                out.writeBytes(src, base + a, in.attributeLength(a));
                continue;
            }
            if (!replaced) {
                writeVsa(out, vendorId, vendorType, value);
                replaced = true;
            }
            int rest = in.attributeLength(a) - matching;
            if (rest > RadiusView.VSA_HEADER_LENGTH) {
                out.writeByte(RadiusAttributeType.VENDOR_SPECIFIC.value());
                out.writeByte(rest);
                out.writeInt(vendorId);
                for (int s = in.firstVendorSubAttribute(a); s >= 0; s = in.nextVendorSubAttribute(a, s)) {
                    if (in.attributeType(s) != vendorType) {
                        out.writeBytes(src, base + s, in.attributeLength(s));
                    }
                }
            }
        }
        if (!replaced) {
            writeVsa(out, vendorId, vendorType, value);
        }
        return length;
    }

    /** Octets taken by sub-attributes {@code vendorType} in the VSA at {@code a}, 0 if none or not well formed. */
    private static int matchingSubAttributeBytes(RadiusView in, int a, int vendorId, int vendorType) {
        if (in.vendorId(a) != vendorId || !in.vendorSubAttributesWellFormed(a)) {
            return 0;
        }
        int bytes = 0;
        for (int s = in.firstVendorSubAttribute(a); s >= 0; s = in.nextVendorSubAttribute(a, s)) {
            if (in.attributeType(s) == vendorType) {
                bytes += in.attributeLength(s);
            }
        }
        return bytes;
    }

    private static void writeVsa(ByteBuf out, int vendorId, int vendorType, byte[] value) {
        out.writeByte(RadiusAttributeType.VENDOR_SPECIFIC.value());
        out.writeByte(RadiusView.VSA_HEADER_LENGTH + 2 + value.length);
        out.writeInt(vendorId);
        out.writeByte(vendorType);
        out.writeByte(2 + value.length);
        out.writeBytes(value);
    }
}
