package io.switchboard.codec.mip;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One registration extension, kept as bytes so that re-encoding is exact. {@code subType} is the
 * second octet of a long-header extension (RFC 5944 §1.10) and -1 for the usual Type/Length header;
 * {@code data} is what follows the header.
 */
public record MipExtension(int type, int subType, byte[] data) {

    public MipExtension {
        if (type < 0 || type > 255) {
            throw new IllegalArgumentException("extension type out of range: " + type);
        }
        boolean longHeader = MipExtensionType.hasLongHeader(type);
        if (longHeader ? subType < 0 || subType > 255 : subType != -1) {
            throw new IllegalArgumentException("extension " + type + (longHeader ? " needs" : " has no") + " sub-type");
        }
        if (data.length > (longHeader ? 0xFFFF : 0xFF)) {
            throw new IllegalArgumentException("extension " + type + " data too long: " + data.length);
        }
        data = data.clone();
    }

    /** An extension with the Type/Length header. */
    public static MipExtension of(int type, byte[] data) {
        return new MipExtension(type, -1, data);
    }

    /** MN-NAI (RFC 2794 §2): Type 131, Length, then the NAI itself — RFC 2794 defines no sub-type. */
    public static MipExtension nai(String nai) {
        return of(MipExtensionType.MN_NAI.value(), nai.getBytes(StandardCharsets.UTF_8));
    }

    /** An authentication extension (32, 33, 34): SPI (4), authenticator (RFC 5944 §3.5.2-§3.5.4). */
    public static MipExtension authentication(MipExtensionType type, int spi, byte[] authenticator) {
        byte[] data = new byte[4 + authenticator.length];
        data[0] = (byte) (spi >>> 24);
        data[1] = (byte) (spi >>> 16);
        data[2] = (byte) (spi >>> 8);
        data[3] = (byte) spi;
        System.arraycopy(authenticator, 0, data, 4, authenticator.length);
        return of(type.value(), data);
    }

    /** The first extension of {@code type} in {@code extensions}, or null. */
    public static MipExtension first(java.util.List<MipExtension> extensions, MipExtensionType type) {
        for (MipExtension e : extensions) {
            if (e.type() == type.value()) {
                return e;
            }
        }
        return null;
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    public MipExtensionType extensionType() {
        return MipExtensionType.valueOf(type);
    }

    /** Header plus data on the wire. */
    public int wireLength() {
        return (subType >= 0 ? 4 : 2) + data.length;
    }

    /** The SPI of an authentication extension (32, 33, 34, 36), or -1 if this is not one or is too short. */
    public long spi() {
        if (!MipExtensionType.isAuthentication(type) || data.length < 4) {
            return -1;
        }
        return ((data[0] & 0xffL) << 24) | ((data[1] & 0xff) << 16) | ((data[2] & 0xff) << 8) | (data[3] & 0xff);
    }

    /** The authenticator of an authentication extension (after the SPI), or null. */
    public byte[] authenticator() {
        return spi() < 0 ? null : Arrays.copyOfRange(data, 4, data.length);
    }

    /** The NAI of an MN-NAI extension, or null. */
    public String nai() {
        return type == MipExtensionType.MN_NAI.value() ? new String(data, StandardCharsets.UTF_8) : null;
    }

    byte[] rawData() {
        return data;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MipExtension other && other.type == type && other.subType == subType
                && Arrays.equals(other.data, data);
    }

    @Override
    public int hashCode() {
        return (31 * type + subType) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return MipExtensionType.valueOf(type).name() + (subType >= 0 ? "/" + subType : "") + "="
                + HexFormat.of().formatHex(data);
    }
}
