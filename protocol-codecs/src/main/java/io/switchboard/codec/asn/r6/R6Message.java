package io.switchboard.codec.asn.r6;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import java.util.ArrayList;
import java.util.List;

/** The full model of an R6 control message. The reserved fields are kept so that re-encoding is exact. */
public interface R6Message {

    int version();

    int flags();

    R6FunctionType functionType();

    int opId();

    int messageType();

    /** The MSID as the low 48 bits. */
    long msid();

    int transactionId();

    /** Octets 12..15, reserved. */
    int reserved1();

    /** Octets 18..19, reserved. */
    int reserved2();

    List<R6Tlv> tlvs();

    default String msidText() {
        return R6View.formatMsid(msid());
    }

    default R6PreAttachment preAttachment(NwgRelease release) {
        return release.preAttachment(functionType().value(), messageType());
    }

    /** The first top-level TLV of {@code type}, or null. */
    default R6Tlv tlv(int type) {
        for (R6Tlv t : tlvs()) {
            if (t.type() == type) {
                return t;
            }
        }
        return null;
    }

    /** The Length field: header plus TLVs. */
    default int length() {
        int length = R6View.HEADER_LENGTH;
        for (R6Tlv t : tlvs()) {
            length += t.wireLength();
        }
        return length;
    }

    /** Writes the message at {@code out}'s writer index; throws IllegalStateException above 65535 octets. */
    default void encode(ByteBuf out) {
        int length = length();
        if (length > 0xFFFF) {
            throw new IllegalStateException("R6 message of " + length + " octets does not fit the Length field");
        }
        out.writeByte(version());
        out.writeByte(flags());
        out.writeByte(functionType().value());
        out.writeByte(opId() << 5 | messageType());
        out.writeShort(length);
        out.writeShort((int) (msid() >>> 32));
        out.writeInt((int) msid());
        out.writeInt(reserved1());
        out.writeShort(transactionId());
        out.writeShort(reserved2());
        for (R6Tlv t : tlvs()) {
            out.writeShort(t.type());
            out.writeShort(t.rawValue().length);
            out.writeBytes(t.rawValue());
        }
    }

    /** Decodes the message at {@code in}'s reader index without moving it. */
    static R6Message decode(ByteBuf in) throws DecodeException {
        R6View view = R6View.wrap(in);
        List<R6Tlv> tlvs = new ArrayList<>();
        for (int t = view.firstTlv(); t >= 0; t = view.nextTlv(t)) {
            byte[] value = new byte[view.tlvLength(t)];
            in.getBytes(view.base() + view.tlvValueOffset(t), value);
            tlvs.add(new R6Tlv(view.tlvType(t), value));
        }
        int base = view.base();
        return new DefaultR6Message(view.version(), view.flags(), R6FunctionType.valueOf(view.functionType()),
                view.opId(), view.messageType(), view.msid(), view.transactionId(), in.getInt(base + 12),
                in.getUnsignedShort(base + 18), tlvs);
    }
}
