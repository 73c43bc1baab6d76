package io.switchboard.codec.mip;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import java.util.ArrayList;
import java.util.List;

/**
 * The full model of a Mobile IPv4 message on UDP 434: a {@link MipRegistrationRequest}, a
 * {@link MipRegistrationReply}, or any other type kept as {@link MipRawMessage}.
 */
public interface MipMessage {

    MipMessageType type();

    /** Writes the message at {@code out}'s writer index. */
    void encode(ByteBuf out);

    /** Decodes the message that fills {@code in}'s readable bytes, without moving the reader index. */
    static MipMessage decode(ByteBuf in) throws DecodeException {
        int base = in.readerIndex();
        int length = in.readableBytes();
        if (length < 1) {
            throw DecodeException.truncated("Mobile IP message", 0, 1, 0);
        }
        int type = in.getUnsignedByte(base);
        if (type != MipMessageType.REGISTRATION_REQUEST.value() && type != MipMessageType.REGISTRATION_REPLY.value()) {
            byte[] raw = new byte[length];
            in.getBytes(base, raw);
            return new MipRawMessage(raw);
        }
        MipHeaderView view = MipHeaderView.wrap(in);
        List<MipExtension> extensions = extensions(view);
        if (view.isRequest()) {
            return new DefaultMipRegistrationRequest(view.flags(), view.lifetime(), view.homeAddress(), view.homeAgent(),
                    view.careOfAddress(), view.identification(), extensions);
        }
        return new DefaultMipRegistrationReply(MipReplyCode.valueOf(view.code()), view.lifetime(), view.homeAddress(),
                view.homeAgent(), view.identification(), extensions);
    }

    private static List<MipExtension> extensions(MipHeaderView view) {
        List<MipExtension> out = new ArrayList<>();
        ByteBuf buf = view.buffer();
        for (int e = view.firstExtension(); e >= 0; e = view.nextExtension(e)) {
            int type = view.extensionType(e);
            byte[] data = new byte[view.extensionDataLength(e)];
            buf.getBytes(view.base() + view.extensionDataOffset(e), data);
            int subType = MipExtensionType.hasLongHeader(type) ? buf.getUnsignedByte(view.base() + e + 1) : -1;
            out.add(new MipExtension(type, subType, data));
        }
        return out;
    }

    /** Writes extensions in order, each with its own header format. */
    static void encodeExtensions(List<MipExtension> extensions, ByteBuf out) {
        for (MipExtension e : extensions) {
            out.writeByte(e.type());
            if (e.subType() >= 0) {
                out.writeByte(e.subType());
                out.writeShort(e.rawData().length);
            } else {
                out.writeByte(e.rawData().length);
            }
            out.writeBytes(e.rawData());
        }
    }

}
