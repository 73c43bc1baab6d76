package io.switchboard.codec.asn.r6;

import java.util.Arrays;
import java.util.HexFormat;

/** One top-level TLV, kept as its raw value (compound TLVs included) so that re-encoding is exact. */
public record R6Tlv(int type, byte[] value) {

    public R6Tlv {
        if (type < 0 || type > 0xFFFF || value.length > 0xFFFF) {
            throw new IllegalArgumentException("R6 TLV type or length out of range");
        }
        value = value.clone();
    }

    @Override
    public byte[] value() {
        return value.clone();
    }

    public int wireLength() {
        return R6View.TLV_HEADER_LENGTH + value.length;
    }

    byte[] rawValue() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof R6Tlv other && other.type == type && Arrays.equals(other.value, value);
    }

    @Override
    public int hashCode() {
        return 31 * type + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "TLV " + type + "=" + HexFormat.of().formatHex(value);
    }
}
