package io.switchboard.codec.gtp.v1;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.gtp.GtpApn;
import io.switchboard.codec.gtp.GtpTbcd;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * One GTPv1 (and GSM 09.60 GTPv0) information element. The common ones are typed records; every
 * other element, and any element whose bytes the typed record could not reproduce exactly, is a
 * {@link Raw} so that decode then encode gives the original bytes.
 */
public sealed interface GtpV1Ie {

    /** The wire type code. */
    int type();

    /** Writes the value octets only (no type, no length). */
    void writeValue(ByteBuf out);

    /** Cause, TS 29.060 §7.7.1 (GSM 09.60 §7.9.1): 128 request accepted, 192 and up rejections. */
    record Cause(int value) implements GtpV1Ie {
        public int type() {
            return 1;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(value);
        }
    }

    /** IMSI, TS 29.060 §7.7.2: 8 octets TBCD, digits as a string. */
    record Imsi(String digits) implements GtpV1Ie {
        public Imsi {
            if (digits.length() > 16) {
                throw new IllegalArgumentException("an IMSI IE holds at most 16 TBCD digits: " + digits);
            }
        }

        public int type() {
            return 2;
        }

        public void writeValue(ByteBuf out) {
            out.writeBytes(GtpTbcd.encode(digits, 8));
        }
    }

    /** Recovery, TS 29.060 §7.7.11: the sender's restart counter. */
    record Recovery(int restartCounter) implements GtpV1Ie {
        public int type() {
            return 14;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(restartCounter);
        }
    }

    /** Tunnel Endpoint Identifier Data I, TS 29.060 §7.7.13 (v1 only). */
    record TeidDataI(long teid) implements GtpV1Ie {
        public int type() {
            return 16;
        }

        public void writeValue(ByteBuf out) {
            out.writeInt((int) teid);
        }
    }

    /** Tunnel Endpoint Identifier Control Plane, TS 29.060 §7.7.14 (v1 only). */
    record TeidControlPlane(long teid) implements GtpV1Ie {
        public int type() {
            return 17;
        }

        public void writeValue(ByteBuf out) {
            out.writeInt((int) teid);
        }
    }

    /** NSAPI, TS 29.060 §7.7.17: 4 spare bits then the NSAPI (v1 only). */
    record Nsapi(int nsapi) implements GtpV1Ie {
        public int type() {
            return 20;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(nsapi & 0x0F);
        }
    }

    /**
     * End User Address, TS 29.060 §7.7.27: PDP type organisation (0 ETSI, 1 IETF) and number (IETF:
     * 0x21 IPv4, 0x57 IPv6, 0x8D IPv4v6), then the address, empty when the GGSN is to allocate one.
     */
    record EndUserAddress(int pdpTypeOrganisation, int pdpTypeNumber, byte[] address) implements GtpV1Ie {
        public int type() {
            return 128;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(0xF0 | pdpTypeOrganisation & 0x0F);
            out.writeByte(pdpTypeNumber);
            out.writeBytes(address);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof EndUserAddress e && e.pdpTypeOrganisation == pdpTypeOrganisation
                    && e.pdpTypeNumber == pdpTypeNumber && Arrays.equals(e.address, address);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * pdpTypeOrganisation + pdpTypeNumber) + Arrays.hashCode(address);
        }

        @Override
        public String toString() {
            return "EndUserAddress[org=" + pdpTypeOrganisation + ", type=" + pdpTypeNumber
                    + ", address=" + GtpV1Ie.hex(address) + "]";
        }
    }

    /** Access Point Name, TS 29.060 §7.7.30, as a dotted string. */
    record Apn(String name) implements GtpV1Ie {
        public int type() {
            return 131;
        }

        public void writeValue(ByteBuf out) {
            out.writeBytes(GtpApn.encode(name));
        }
    }

    /** GSN Address, TS 29.060 §7.7.32: IPv4 (4 octets) or IPv6 (16 octets). */
    record GsnAddress(InetAddress address) implements GtpV1Ie {
        public GsnAddress {
            java.util.Objects.requireNonNull(address, "address");
        }

        public int type() {
            return 133;
        }

        public void writeValue(ByteBuf out) {
            out.writeBytes(address.getAddress());
        }
    }

    /**
     * MSISDN, TS 29.060 §7.7.33 (TS 29.002 ISDN-AddressString): one octet of extension, nature of
     * address and numbering plan (0x91 = international, E.164), then TBCD digits.
     */
    record Msisdn(int addressType, String digits) implements GtpV1Ie {
        public int type() {
            return 134;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(addressType);
            out.writeBytes(GtpTbcd.encode(digits));
        }
    }

    /** Any other element, or one kept byte for byte: its type and value octets. */
    record Raw(int type, byte[] value) implements GtpV1Ie {
        public void writeValue(ByteBuf out) {
            out.writeBytes(value);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Raw r && r.type == type && Arrays.equals(r.value, value);
        }

        @Override
        public int hashCode() {
            return 31 * type + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "Raw[type=" + GtpV1IeType.of(type) + ", value=" + GtpV1Ie.hex(value) + "]";
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            s.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return s.toString();
    }
}
