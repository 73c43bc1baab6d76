package io.switchboard.codec.mip;

import io.netty.buffer.ByteBuf;
import java.util.List;

/** An immutable {@link MipRegistrationRequest}. */
public record DefaultMipRegistrationRequest(int flags, int lifetime, int homeAddress, int homeAgent, int careOfAddress,
                                            long identification, List<MipExtension> extensions)
        implements MipRegistrationRequest {

    public DefaultMipRegistrationRequest {
        if (flags < 0 || flags > 0xFF || lifetime < 0 || lifetime > 0xFFFF) {
            throw new IllegalArgumentException("flags or lifetime out of range");
        }
        extensions = List.copyOf(extensions);
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(MipMessageType.REGISTRATION_REQUEST.value());
        out.writeByte(flags);
        out.writeShort(lifetime);
        out.writeInt(homeAddress);
        out.writeInt(homeAgent);
        out.writeInt(careOfAddress);
        out.writeLong(identification);
        MipMessage.encodeExtensions(extensions, out);
    }
}
