package io.switchboard.codec.mip;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;

/** An immutable {@link MipRegistrationReply}. */
public record DefaultMipRegistrationReply(MipReplyCode code, int lifetime, int homeAddress, int homeAgent,
                                          long identification, List<MipExtension> extensions)
        implements MipRegistrationReply {

    public DefaultMipRegistrationReply {
        Objects.requireNonNull(code, "code");
        if (lifetime < 0 || lifetime > 0xFFFF) {
            throw new IllegalArgumentException("lifetime out of range: " + lifetime);
        }
        extensions = List.copyOf(extensions);
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(MipMessageType.REGISTRATION_REPLY.value());
        out.writeByte(code.value());
        out.writeShort(lifetime);
        out.writeInt(homeAddress);
        out.writeInt(homeAgent);
        out.writeLong(identification);
        MipMessage.encodeExtensions(extensions, out);
    }
}
