package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import java.util.List;

/**
 * The full model of a RADIUS packet (RFC 2865 §3), for inspection, tools and tests. The hot path uses
 * {@link RadiusView} instead. Authenticators are carried as given; sign with {@link RadiusAuthenticators}
 * after encoding.
 */
public interface RadiusPacket {

    RadiusCode code();

    int identifier();

    /** A copy of the 16-octet authenticator field. */
    byte[] authenticator();

    /** The attributes in wire order. */
    List<RadiusAttribute> attributes();

    /** The first attribute of {@code type}, or null. */
    default RadiusAttribute attribute(RadiusAttributeType type) {
        for (RadiusAttribute a : attributes()) {
            if (a.type() == type.value()) {
                return a;
            }
        }
        return null;
    }

    /** Octets on the wire, i.e. the Length field. */
    default int length() {
        int length = RadiusView.HEADER_LENGTH;
        for (RadiusAttribute a : attributes()) {
            length += a.wireLength();
        }
        return length;
    }

    /** Writes the packet at {@code out}'s writer index; throws IllegalStateException above 4096 octets. */
    void encode(ByteBuf out);

    /** Decodes the packet at {@code in}'s reader index without moving it. */
    static RadiusPacket decode(ByteBuf in) throws DecodeException {
        return DefaultRadiusPacket.from(RadiusView.wrap(in));
    }
}
