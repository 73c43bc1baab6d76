package io.switchboard.codec.radius;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One attribute of the full model: its type and raw value (RFC 2865 §5). Every attribute, known or not,
 * is kept as bytes so that encoding reproduces the input exactly.
 */
public record RadiusAttribute(int type, byte[] value) {

    public static final int MAX_VALUE_LENGTH = 253; // RFC 2865 §5: length octet counts type and length

    public RadiusAttribute {
        if (type < 0 || type > 255) {
            throw new IllegalArgumentException("attribute type out of range: " + type);
        }
        if (value.length > MAX_VALUE_LENGTH) {
            throw new IllegalArgumentException("attribute value longer than 253 octets: " + value.length);
        }
        value = value.clone();
    }

    public static RadiusAttribute text(RadiusAttributeType type, String text) {
        return new RadiusAttribute(type.value(), text.getBytes(StandardCharsets.UTF_8));
    }

    public static RadiusAttribute integer(RadiusAttributeType type, long value) {
        return new RadiusAttribute(type.value(), new byte[] {
                (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
    }

    /** A Vendor-Specific attribute holding one sub-attribute in the RFC 2865 §5.26 layout. */
    public static RadiusAttribute vendorSpecific(int vendorId, int vendorType, byte[] value) {
        if (value.length > MAX_VALUE_LENGTH - 6) {
            throw new IllegalArgumentException("vendor attribute value longer than 247 octets: " + value.length);
        }
        byte[] v = new byte[6 + value.length];
        v[0] = (byte) (vendorId >>> 24);
        v[1] = (byte) (vendorId >>> 16);
        v[2] = (byte) (vendorId >>> 8);
        v[3] = (byte) vendorId;
        v[4] = (byte) vendorType;
        v[5] = (byte) (value.length + 2);
        System.arraycopy(value, 0, v, 6, value.length);
        return new RadiusAttribute(RadiusAttributeType.VENDOR_SPECIFIC.value(), v);
    }

    @Override
    public byte[] value() {
        return value.clone();
    }

    public RadiusAttributeType attributeType() {
        return RadiusAttributeType.valueOf(type);
    }

    /** Octets on the wire: type, length, value. */
    public int wireLength() {
        return value.length + 2;
    }

    /** The Vendor-Id if this is a Vendor-Specific attribute with at least 4 value octets, else -1. */
    public int vendorId() {
        if (type != RadiusAttributeType.VENDOR_SPECIFIC.value() || value.length < 4) {
            return -1;
        }
        return (value[0] & 0xff) << 24 | (value[1] & 0xff) << 16 | (value[2] & 0xff) << 8 | (value[3] & 0xff);
    }

    public String asText() {
        return new String(value, StandardCharsets.UTF_8);
    }

    byte[] rawValue() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RadiusAttribute other && other.type == type && Arrays.equals(other.value, value);
    }

    @Override
    public int hashCode() {
        return 31 * type + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return RadiusAttributeType.valueOf(type).name() + "=" + HexFormat.of().formatHex(value);
    }
}
