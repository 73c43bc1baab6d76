package io.switchboard.codec.gtp.v1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpApn;
import io.switchboard.codec.gtp.GtpBytes;
import io.switchboard.codec.gtp.GtpTbcd;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Information elements in the TV/TLV format shared by GTPv1 (TS 29.060 §7.7) and GTPv0 (GSM 09.60
 * §7.9): walking them in place for the hot path, decoding them into {@link GtpV1Ie} for the model,
 * and encoding them back. A TV element (type below 128) has no length on the wire, so an unknown TV
 * type cannot be skipped and is rejected; a TLV element of any type can be skipped and is kept.
 */
public final class GtpV1Ies {

    /** TS 29.060 §7.7.0: types from 128 up carry a 2-octet length. */
    public static final int FIRST_TLV_TYPE = 128;

    private static final IntUnaryOperator V1_LENGTHS = GtpV1IeType::tvLength;

    private GtpV1Ies() {
    }

    /**
     * The absolute offset of the {@code nth} (0-based) element of {@code type} between {@code from} and
     * {@code end}, or -1 if there is none. Walks the elements without copying.
     */
    public static int indexOf(ByteBuf buf, int from, int end, int type, int nth) throws DecodeException {
        return indexOf(buf, from, end, type, nth, V1_LENGTHS);
    }

    /** As {@link #indexOf(ByteBuf, int, int, int, int)} with a version's own TV length table. */
    public static int indexOf(ByteBuf buf, int from, int end, int type, int nth, IntUnaryOperator tvLengths)
            throws DecodeException {
        int offset = from;
        while (offset < end) {
            int ieType = buf.getUnsignedByte(offset);
            int size = size(buf, offset, end, ieType, tvLengths);
            if (ieType == type && nth-- == 0) {
                return offset;
            }
            offset += size;
        }
        return -1;
    }

    /** The offset of the value of the element at {@code ieOffset} (after its type, and length if TLV). */
    public static int valueOffset(ByteBuf buf, int ieOffset) {
        return buf.getUnsignedByte(ieOffset) >= FIRST_TLV_TYPE ? ieOffset + 3 : ieOffset + 1;
    }

    /** The value length of the element at {@code ieOffset} (GTPv1 TV lengths), already bounds-checked by {@link #indexOf}. */
    public static int valueLength(ByteBuf buf, int ieOffset) {
        int type = buf.getUnsignedByte(ieOffset);
        return type >= FIRST_TLV_TYPE ? buf.getUnsignedShort(ieOffset + 1) : GtpV1IeType.tvLength(type);
    }

    /** The whole size (type, length, value) of the element at {@code offset}, checked against {@code end}. */
    static int size(ByteBuf buf, int offset, int end, int type, IntUnaryOperator tvLengths) throws DecodeException {
        if (type >= FIRST_TLV_TYPE) {
            GtpBytes.requireWithin(offset, 3, end, "header of GTP TLV IE ", type);
            int length = buf.getUnsignedShort(offset + 1);
            GtpBytes.requireWithin(offset, 3 + length, end, "GTP TLV IE ", type);
            return 3 + length;
        }
        int length = tvLengths.applyAsInt(type);
        if (length < 0) {
            throw GtpBytes.malformed("GTP TV IE " + type + " of unknown length at offset " + offset);
        }
        GtpBytes.requireWithin(offset, 1 + length, end, "GTP TV IE ", type);
        return 1 + length;
    }

    /** Decodes the TS 29.060 elements between {@code from} and {@code end}. */
    public static List<GtpV1Ie> decode(ByteBuf buf, int from, int end) throws DecodeException {
        return decode(buf, from, end, V1_LENGTHS, true);
    }

    /**
     * Decodes elements with the given TV length table. {@code v1Types} enables the typed records whose
     * type codes mean something else in GTPv0 (16/17 are flow labels there, not TEIDs).
     */
    public static List<GtpV1Ie> decode(ByteBuf buf, int from, int end, IntUnaryOperator tvLengths, boolean v1Types)
            throws DecodeException {
        List<GtpV1Ie> ies = new ArrayList<>();
        int offset = from;
        while (offset < end) {
            int type = buf.getUnsignedByte(offset);
            int size = size(buf, offset, end, type, tvLengths);
            int headerSize = type >= FIRST_TLV_TYPE ? 3 : 1;
            byte[] value = GtpBytes.copy(buf, offset + headerSize, size - headerSize);
            ies.add(typed(type, value, v1Types));
            offset += size;
        }
        return ies;
    }

    /** The typed record for these value octets if it re-encodes to exactly them, else a {@link GtpV1Ie.Raw}. */
    static GtpV1Ie typed(int type, byte[] value, boolean v1Types) {
        GtpV1Ie ie = candidate(type, value, v1Types);
        if (ie == null || !Arrays.equals(valueBytes(ie), value)) {
            return new GtpV1Ie.Raw(type, value);
        }
        return ie;
    }

    private static GtpV1Ie candidate(int type, byte[] v, boolean v1Types) {
        switch (type) {
            case 1:
                return v.length == 1 ? new GtpV1Ie.Cause(v[0] & 0xFF) : null;
            case 2:
                return v.length == 8 ? new GtpV1Ie.Imsi(GtpTbcd.decode(v, 0, 8)) : null;
            case 14:
                return v.length == 1 ? new GtpV1Ie.Recovery(v[0] & 0xFF) : null;
            case 16:
                return v1Types && v.length == 4 ? new GtpV1Ie.TeidDataI(uint32(v)) : null;
            case 17:
                return v1Types && v.length == 4 ? new GtpV1Ie.TeidControlPlane(uint32(v)) : null;
            case 20:
                return v1Types && v.length == 1 ? new GtpV1Ie.Nsapi(v[0] & 0x0F) : null;
            case 128:
                return v.length >= 2
                        ? new GtpV1Ie.EndUserAddress(v[0] & 0x0F, v[1] & 0xFF, Arrays.copyOfRange(v, 2, v.length))
                        : null;
            case 131: {
                String name = GtpApn.decode(v);
                return name != null && !name.isEmpty() ? new GtpV1Ie.Apn(name) : null;
            }
            case 133: {
                InetAddress address = GtpBytes.address(v);
                return address != null ? new GtpV1Ie.GsnAddress(address) : null;
            }
            case 134:
                return v.length >= 1 ? new GtpV1Ie.Msisdn(v[0] & 0xFF, GtpTbcd.decode(v, 1, v.length - 1)) : null;
            default:
                return null;
        }
    }

    private static long uint32(byte[] v) {
        return ((v[0] & 0xFFL) << 24) | ((v[1] & 0xFFL) << 16) | ((v[2] & 0xFFL) << 8) | (v[3] & 0xFFL);
    }

    private static byte[] valueBytes(GtpV1Ie ie) {
        ByteBuf out = Unpooled.buffer();
        try {
            ie.writeValue(out);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** Writes the elements: TV as type and value, TLV as type, 2-octet length and value. */
    public static void encode(List<GtpV1Ie> ies, ByteBuf out) {
        for (GtpV1Ie ie : ies) {
            out.writeByte(ie.type());
            if (ie.type() >= FIRST_TLV_TYPE) {
                int lengthAt = out.writerIndex();
                out.writeShort(0);
                ie.writeValue(out);
                out.setShort(lengthAt, out.writerIndex() - lengthAt - 2);
            } else {
                ie.writeValue(out);
            }
        }
    }

    /**
     * Overwrites, in place, the {@code nth} GSN Address element (0: control plane, 1: user plane in
     * Create/Update PDP Context) with {@code address} of the same family. Returns false, and writes
     * nothing, when there is no such element or its length differs from the new address.
     */
    public static boolean setGsnAddress(ByteBuf buf, GtpV1Header header, int nth, InetAddress address)
            throws DecodeException {
        int ie = indexOf(buf, header.bodyOffset(), header.endOffset(), GtpV1IeType.GSN_ADDRESS.value(), nth);
        byte[] bytes = address.getAddress();
        if (ie < 0 || valueLength(buf, ie) != bytes.length) {
            return false;
        }
        buf.setBytes(valueOffset(buf, ie), bytes);
        return true;
    }

    /** Overwrites, in place, the value of the first TEID Control Plane element. */
    public static boolean setTeidControlPlane(ByteBuf buf, GtpV1Header header, long teid) throws DecodeException {
        int ie = indexOf(buf, header.bodyOffset(), header.endOffset(), GtpV1IeType.TEID_CONTROL_PLANE.value(), 0);
        if (ie < 0) {
            return false;
        }
        buf.setInt(ie + 1, (int) teid);
        return true;
    }

    /** The IMSI (IE 2) digits of the message, read in place, or {@code null} if it has none. */
    public static String imsi(ByteBuf buf, GtpV1Header header) throws DecodeException {
        int ie = indexOf(buf, header.bodyOffset(), header.endOffset(), GtpV1IeType.IMSI.value(), 0);
        return ie < 0 ? null : GtpTbcd.decode(buf, ie + 1, 8);
    }

    /** The Cause (IE 1) value of the message, read in place, or -1 if it has none. */
    public static int cause(ByteBuf buf, GtpV1Header header) throws DecodeException {
        int ie = indexOf(buf, header.bodyOffset(), header.endOffset(), GtpV1IeType.CAUSE.value(), 0);
        return ie < 0 ? -1 : buf.getUnsignedByte(ie + 1);
    }
}
