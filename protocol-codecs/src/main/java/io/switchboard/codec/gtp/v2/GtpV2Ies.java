package io.switchboard.codec.gtp.v2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpApn;
import io.switchboard.codec.gtp.GtpBytes;
import io.switchboard.codec.gtp.GtpTbcd;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * GTPv2-C information elements (TS 29.274 §8.2): walking them in place for the hot path, decoding
 * them into {@link GtpV2Ie} for the model, encoding them back, and same-length rewrites.
 */
public final class GtpV2Ies {

    /** Type, length (2), spare and instance. */
    public static final int IE_HEADER_LENGTH = 4;
    /** TS 29.274 §8.22 F-TEID, first octet: an IPv4 address follows the TEID. */
    public static final int FTEID_V4 = 0x80;
    /** TS 29.274 §8.22: an IPv6 address follows (after the IPv4 one when both are present). */
    public static final int FTEID_V6 = 0x40;
    /** TS 29.274 §8.22: the interface type, the low six bits of the first octet. */
    public static final int FTEID_INTERFACE_TYPE = 0x3F;

    /** Bearer contexts do not nest in any message; deeper grouping is kept raw rather than recursed into. */
    private static final int MAX_GROUP_DEPTH = 3;

    private GtpV2Ies() {
    }

    /**
     * The absolute offset of the first element of {@code type} and {@code instance} between
     * {@code from} and {@code end} (top level only, not inside grouped IEs), or -1.
     */
    public static int indexOf(ByteBuf buf, int from, int end, int type, int instance) throws DecodeException {
        int offset = from;
        while (offset < end) {
            int size = size(buf, offset, end);
            if (buf.getUnsignedByte(offset) == type && (buf.getUnsignedByte(offset + 3) & 0x0F) == instance) {
                return offset;
            }
            offset += size;
        }
        return -1;
    }

    /** The value length of the element at {@code ieOffset}. */
    public static int valueLength(ByteBuf buf, int ieOffset) {
        return buf.getUnsignedShort(ieOffset + 1);
    }

    private static int size(ByteBuf buf, int offset, int end) throws DecodeException {
        GtpBytes.requireWithin(offset, IE_HEADER_LENGTH, end, "GTPv2 IE header");
        int length = buf.getUnsignedShort(offset + 1);
        GtpBytes.requireWithin(offset, IE_HEADER_LENGTH + length, end, "GTPv2 IE ", buf.getUnsignedByte(offset));
        return IE_HEADER_LENGTH + length;
    }

    public static List<GtpV2Ie> decode(ByteBuf buf, int from, int end) throws DecodeException {
        return decode(buf, from, end, 0);
    }

    private static List<GtpV2Ie> decode(ByteBuf buf, int from, int end, int depth) throws DecodeException {
        List<GtpV2Ie> ies = new ArrayList<>();
        int offset = from;
        while (offset < end) {
            int size = size(buf, offset, end);
            ies.add(decodeOne(buf, offset, size, depth));
            offset += size;
        }
        return ies;
    }

    private static GtpV2Ie decodeOne(ByteBuf buf, int offset, int size, int depth) throws DecodeException {
        int type = buf.getUnsignedByte(offset);
        int spareAndInstance = buf.getUnsignedByte(offset + 3);
        int instance = spareAndInstance & 0x0F;
        int spare = spareAndInstance >> 4;
        byte[] value = GtpBytes.copy(buf, offset + IE_HEADER_LENGTH, size - IE_HEADER_LENGTH);
        GtpV2Ie ie = null;
        if (spare == 0) {
            if (type == GtpV2IeType.BEARER_CONTEXT.value() && depth < MAX_GROUP_DEPTH) {
                ie = groupedOrNull(buf, offset + IE_HEADER_LENGTH, offset + size, instance, depth);
            } else {
                ie = candidate(type, instance, value);
            }
        }
        if (ie == null || !Arrays.equals(valueBytes(ie), value)) {
            return new GtpV2Ie.Raw(type, instance, spare, value);
        }
        return ie;
    }

    /** A bearer context whose nested IEs do not parse is kept raw rather than failing the message. */
    private static GtpV2Ie groupedOrNull(ByteBuf buf, int from, int end, int instance, int depth) {
        try {
            return new GtpV2Ie.BearerContext(instance, decode(buf, from, end, depth + 1));
        } catch (DecodeException e) {
            return null;
        }
    }

    private static GtpV2Ie candidate(int type, int instance, byte[] v) {
        switch (type) {
            case 1:
                return v.length > 0 ? new GtpV2Ie.Imsi(instance, GtpTbcd.decode(v, 0, v.length)) : null;
            case 2:
                return v.length == 2 || v.length == 6
                        ? new GtpV2Ie.Cause(instance, v[0] & 0xFF, v[1] & 0xFF, Arrays.copyOfRange(v, 2, v.length))
                        : null;
            case 3:
                return v.length == 1 ? new GtpV2Ie.Recovery(instance, v[0] & 0xFF) : null;
            case 71: {
                String name = GtpApn.decode(v);
                return name != null && !name.isEmpty() ? new GtpV2Ie.Apn(instance, name) : null;
            }
            case 73:
                return v.length == 1 ? new GtpV2Ie.Ebi(instance, v[0] & 0x0F) : null;
            case 76:
                return v.length > 0 ? new GtpV2Ie.Msisdn(instance, GtpTbcd.decode(v, 0, v.length)) : null;
            case 79:
                return paa(instance, v);
            case 87:
                return fteid(instance, v);
            default:
                return null;
        }
    }

    private static GtpV2Ie paa(int instance, byte[] v) {
        if (v.length < 1) {
            return null;
        }
        int pdnType = v[0] & 0x07;
        switch (pdnType) {
            case GtpV2Ie.Paa.IPV4:
                return v.length == 5
                        ? new GtpV2Ie.Paa(instance, pdnType, 0, null, GtpBytes.ipv4(Arrays.copyOfRange(v, 1, 5)))
                        : null;
            case GtpV2Ie.Paa.IPV6:
                return v.length == 18
                        ? new GtpV2Ie.Paa(instance, pdnType, v[1] & 0xFF, GtpBytes.ipv6(Arrays.copyOfRange(v, 2, 18)),
                                null)
                        : null;
            case GtpV2Ie.Paa.IPV4V6:
                return v.length == 22
                        ? new GtpV2Ie.Paa(instance, pdnType, v[1] & 0xFF, GtpBytes.ipv6(Arrays.copyOfRange(v, 2, 18)),
                                GtpBytes.ipv4(Arrays.copyOfRange(v, 18, 22)))
                        : null;
            default:
                return null;
        }
    }

    /**
     * The F-TEID of the leading octets of {@code v} its flags call for (TS 29.274 §8.22), ignoring any after them,
     * or null when there are fewer or the flags name no address.
     */
    static GtpV2Ie.Fteid fteidPrefix(int instance, byte[] v) {
        if (v.length < 5) {
            return null;
        }
        int length = 5 + ((v[0] & FTEID_V4) != 0 ? 4 : 0) + ((v[0] & FTEID_V6) != 0 ? 16 : 0);
        return v.length < length ? null : (GtpV2Ie.Fteid) fteid(instance, Arrays.copyOf(v, length));
    }

    private static GtpV2Ie fteid(int instance, byte[] v) {
        if (v.length < 5) {
            return null;
        }
        boolean hasV4 = (v[0] & FTEID_V4) != 0;
        boolean hasV6 = (v[0] & FTEID_V6) != 0;
        if (v.length != 5 + (hasV4 ? 4 : 0) + (hasV6 ? 16 : 0) || !(hasV4 || hasV6)) {
            return null;
        }
        long teid = ((v[1] & 0xFFL) << 24) | ((v[2] & 0xFFL) << 16) | ((v[3] & 0xFFL) << 8) | (v[4] & 0xFFL);
        Inet4Address ipv4 = hasV4 ? GtpBytes.ipv4(Arrays.copyOfRange(v, 5, 9)) : null;
        int v6At = hasV4 ? 9 : 5;
        return new GtpV2Ie.Fteid(instance, v[0] & FTEID_INTERFACE_TYPE, teid, ipv4,
                hasV6 ? GtpBytes.ipv6(Arrays.copyOfRange(v, v6At, v6At + 16)) : null);
    }

    private static byte[] valueBytes(GtpV2Ie ie) {
        ByteBuf out = Unpooled.buffer();
        try {
            ie.writeValue(out);
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            return bytes;
        } finally {
            out.release();
        }
    }

    /** Writes the elements with their lengths computed. */
    public static void encode(List<GtpV2Ie> ies, ByteBuf out) {
        for (GtpV2Ie ie : ies) {
            out.writeByte(ie.type());
            int lengthAt = out.writerIndex();
            out.writeShort(0);
            out.writeByte((ie.spare() << 4) | (ie.instance() & 0x0F));
            ie.writeValue(out);
            out.setShort(lengthAt, out.writerIndex() - lengthAt - 3);
        }
    }

    /** The IMSI (IE 1, instance 0) of the message, read in place, or {@code null}. */
    public static String imsi(ByteBuf buf, GtpV2Header header) throws DecodeException {
        int ie = indexOf(buf, header.bodyOffset(), header.endOffset(), GtpV2IeType.IMSI.value(), 0);
        return ie < 0 ? null : GtpTbcd.decode(buf, ie + IE_HEADER_LENGTH, valueLength(buf, ie));
    }

    /** The Cause (IE 2, instance 0) value of the message, read in place, or -1. */
    public static int cause(ByteBuf buf, GtpV2Header header) throws DecodeException {
        int ie = indexOf(buf, header.bodyOffset(), header.endOffset(), GtpV2IeType.CAUSE.value(), 0);
        return ie < 0 || valueLength(buf, ie) < 1 ? -1 : buf.getUnsignedByte(ie + IE_HEADER_LENGTH);
    }

    /**
     * Overwrites, in place, the IPv4 address of the F-TEID at {@code ieOffset} (found with
     * {@link #indexOf}). Returns false, writing nothing, if the element is not an F-TEID carrying IPv4.
     */
    public static boolean setFteidIpv4(ByteBuf buf, int ieOffset, Inet4Address address) {
        if (buf.getUnsignedByte(ieOffset) != GtpV2IeType.F_TEID.value() || valueLength(buf, ieOffset) < 9
                || (buf.getUnsignedByte(ieOffset + IE_HEADER_LENGTH) & FTEID_V4) == 0) {
            return false;
        }
        buf.setBytes(ieOffset + IE_HEADER_LENGTH + 5, address.getAddress());
        return true;
    }

    /**
     * Overwrites, in place, the IPv6 address of the F-TEID at {@code ieOffset} (TS 29.274 §8.22: flag
     * V6 = 0x40; after the IPv4 address when V4 is set too). Returns false, writing nothing, if the
     * element is not an F-TEID carrying IPv6.
     */
    public static boolean setFteidIpv6(ByteBuf buf, int ieOffset, Inet6Address address) {
        if (buf.getUnsignedByte(ieOffset) != GtpV2IeType.F_TEID.value()) {
            return false;
        }
        int flags = buf.getUnsignedByte(ieOffset + IE_HEADER_LENGTH);
        int at = 5 + ((flags & FTEID_V4) != 0 ? 4 : 0);
        if ((flags & FTEID_V6) == 0 || valueLength(buf, ieOffset) < at + 16) {
            return false;
        }
        buf.setBytes(ieOffset + IE_HEADER_LENGTH + at, address.getAddress());
        return true;
    }

    /** Overwrites, in place, the TEID of the F-TEID at {@code ieOffset}; false if it is not an F-TEID. */
    public static boolean setFteidTeid(ByteBuf buf, int ieOffset, long teid) {
        if (buf.getUnsignedByte(ieOffset) != GtpV2IeType.F_TEID.value() || valueLength(buf, ieOffset) < 5) {
            return false;
        }
        buf.setInt(ieOffset + IE_HEADER_LENGTH + 1, (int) teid);
        return true;
    }

    /**
     * Rewrites the IPv4 address of the F-TEID naming the sender's control plane ({@link
     * GtpV2SenderFteid#locate}) in place; false when there is none with IPv4.
     */
    public static boolean setSenderFteidIpv4(ByteBuf buf, GtpV2Header header, Inet4Address address)
            throws DecodeException {
        int ie = GtpV2SenderFteid.locate(buf, header);
        return ie >= 0 && setFteidIpv4(buf, ie, address);
    }
}
