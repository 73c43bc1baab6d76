package io.switchboard.codec.gtp.v2;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.gtp.GtpApn;
import io.switchboard.codec.gtp.GtpTbcd;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.Arrays;
import java.util.List;

/**
 * One GTPv2-C information element (TS 29.274 §8.2.1: type, 2-octet length, spare nibble and
 * instance, value). The common ones are typed records; every other element, and any whose bytes the
 * typed record would not reproduce exactly, is a {@link Raw}, so decode then encode is lossless.
 */
public sealed interface GtpV2Ie {

    int type();

    /** The instance (low nibble of octet 4) that tells apart IEs of one type within a message. */
    int instance();

    /** The high nibble of octet 4, spare in the releases this codec knows; 0 except in {@link Raw}. */
    default int spare() {
        return 0;
    }

    /** Writes the value octets only. */
    void writeValue(ByteBuf out);

    /** IMSI, TS 29.274 §8.3: TBCD digits. */
    record Imsi(int instance, String digits) implements GtpV2Ie {
        public int type() {
            return 1;
        }

        public void writeValue(ByteBuf out) {
            out.writeBytes(GtpTbcd.encode(digits));
        }
    }

    /**
     * Cause, TS 29.274 §8.4: the value, a flags octet (spare, PCE, BCE, CS) and optionally the
     * type, length and instance of the offending IE (4 octets, else empty).
     */
    record Cause(int instance, int value, int flags, byte[] offendingIe) implements GtpV2Ie {
        public int type() {
            return 2;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(value);
            out.writeByte(flags);
            out.writeBytes(offendingIe);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Cause c && c.instance == instance && c.value == value && c.flags == flags
                    && Arrays.equals(c.offendingIe, offendingIe);
        }

        @Override
        public int hashCode() {
            return (31 * (31 * instance + value) + flags) * 31 + Arrays.hashCode(offendingIe);
        }

        @Override
        public String toString() {
            return "Cause[instance=" + instance + ", value=" + GtpV2Cause.of(value) + "(" + value + "), flags="
                    + flags + "]";
        }
    }

    /** Recovery, TS 29.274 §8.5: the sender's restart counter. */
    record Recovery(int instance, int restartCounter) implements GtpV2Ie {
        public int type() {
            return 3;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(restartCounter);
        }
    }

    /** Access Point Name, TS 29.274 §8.6, as a dotted string. */
    record Apn(int instance, String name) implements GtpV2Ie {
        public int type() {
            return 71;
        }

        public void writeValue(ByteBuf out) {
            out.writeBytes(GtpApn.encode(name));
        }
    }

    /** EPS Bearer ID, TS 29.274 §8.8: 4 spare bits then the EBI. */
    record Ebi(int instance, int ebi) implements GtpV2Ie {
        public int type() {
            return 73;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(ebi & 0x0F);
        }
    }

    /** MSISDN, TS 29.274 §8.11: TBCD digits. */
    record Msisdn(int instance, String digits) implements GtpV2Ie {
        public int type() {
            return 76;
        }

        public void writeValue(ByteBuf out) {
            out.writeBytes(GtpTbcd.encode(digits));
        }
    }

    /**
     * PDN Address Allocation, TS 29.274 §8.14: PDN type 1 IPv4 (4 octets), 2 IPv6 (prefix length and
     * 16 octets), 3 IPv4v6 (prefix length, 16 octets, then 4). Absent parts are {@code null}.
     */
    record Paa(int instance, int pdnType, int ipv6PrefixLength, Inet6Address ipv6, Inet4Address ipv4)
            implements GtpV2Ie {
        public static final int IPV4 = 1;
        public static final int IPV6 = 2;
        public static final int IPV4V6 = 3;

        public int type() {
            return 79;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte(pdnType & 0x07);
            if (pdnType == IPV6 || pdnType == IPV4V6) {
                out.writeByte(ipv6PrefixLength);
                out.writeBytes(ipv6.getAddress());
            }
            if (pdnType == IPV4 || pdnType == IPV4V6) {
                out.writeBytes(ipv4.getAddress());
            }
        }
    }

    /**
     * Fully Qualified TEID, TS 29.274 §8.22: V4 and V6 flags, interface type (6 bits, e.g. 10 S11
     * MME GTP-C, 11 S11/S4 SGW GTP-C, 7 S5/S8 PGW GTP-C), TEID/GRE key, then IPv4 and/or IPv6.
     */
    record Fteid(int instance, int interfaceType, long teid, Inet4Address ipv4, Inet6Address ipv6)
            implements GtpV2Ie {
        public int type() {
            return 87;
        }

        public void writeValue(ByteBuf out) {
            out.writeByte((ipv4 != null ? GtpV2Ies.FTEID_V4 : 0) | (ipv6 != null ? GtpV2Ies.FTEID_V6 : 0)
                    | interfaceType & GtpV2Ies.FTEID_INTERFACE_TYPE);
            out.writeInt((int) teid);
            if (ipv4 != null) {
                out.writeBytes(ipv4.getAddress());
            }
            if (ipv6 != null) {
                out.writeBytes(ipv6.getAddress());
            }
        }
    }

    /** Bearer Context, TS 29.274 §8.28: a grouped IE whose value is more IEs. */
    record BearerContext(int instance, List<GtpV2Ie> ies) implements GtpV2Ie {
        public BearerContext {
            ies = List.copyOf(ies);
        }

        public int type() {
            return 93;
        }

        public void writeValue(ByteBuf out) {
            GtpV2Ies.encode(ies, out);
        }
    }

    /** Any other element, or one kept byte for byte. */
    record Raw(int type, int instance, int spare, byte[] value) implements GtpV2Ie {
        public void writeValue(ByteBuf out) {
            out.writeBytes(value);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Raw r && r.type == type && r.instance == instance && r.spare == spare
                    && Arrays.equals(r.value, value);
        }

        @Override
        public int hashCode() {
            return ((31 * type + instance) * 31 + spare) * 31 + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            StringBuilder hex = new StringBuilder();
            for (byte b : value) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return "Raw[type=" + GtpV2IeType.of(type) + ", instance=" + instance + ", value=" + hex + "]";
        }
    }
}
