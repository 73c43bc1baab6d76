package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** An immutable {@link RadiusPacket}. */
public final class DefaultRadiusPacket implements RadiusPacket {

    private final RadiusCode code;
    private final int identifier;
    private final byte[] authenticator;
    private final List<RadiusAttribute> attributes;

    public DefaultRadiusPacket(RadiusCode code, int identifier, byte[] authenticator, List<RadiusAttribute> attributes) {
        this.code = Objects.requireNonNull(code, "code");
        if (identifier < 0 || identifier > 255) {
            throw new IllegalArgumentException("identifier out of range: " + identifier);
        }
        if (authenticator.length != RadiusView.AUTHENTICATOR_LENGTH) {
            throw new IllegalArgumentException("authenticator must be 16 octets");
        }
        this.identifier = identifier;
        this.authenticator = authenticator.clone();
        this.attributes = List.copyOf(attributes);
    }

    static DefaultRadiusPacket from(RadiusView view) {
        List<RadiusAttribute> attributes = new ArrayList<>();
        for (int a = view.firstAttribute(); a >= 0; a = view.nextAttribute(a)) {
            attributes.add(new RadiusAttribute(view.attributeType(a), view.value(a)));
        }
        return new DefaultRadiusPacket(RadiusCode.valueOf(view.code()), view.identifier(), view.authenticator(), attributes);
    }

    @Override
    public RadiusCode code() {
        return code;
    }

    @Override
    public int identifier() {
        return identifier;
    }

    @Override
    public byte[] authenticator() {
        return authenticator.clone();
    }

    @Override
    public List<RadiusAttribute> attributes() {
        return attributes;
    }

    @Override
    public void encode(ByteBuf out) {
        int length = length();
        if (length > RadiusView.MAX_LENGTH) {
            throw new IllegalStateException("RADIUS packet of " + length + " octets exceeds 4096");
        }
        out.writeByte(code.value());
        out.writeByte(identifier);
        out.writeShort(length);
        out.writeBytes(authenticator);
        for (RadiusAttribute a : attributes) {
            out.writeByte(a.type());
            out.writeByte(a.wireLength());
            out.writeBytes(a.rawValue());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DefaultRadiusPacket other && other.code.equals(code) && other.identifier == identifier
                && Arrays.equals(other.authenticator, authenticator) && other.attributes.equals(attributes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(code, identifier, Arrays.hashCode(authenticator), attributes);
    }

    @Override
    public String toString() {
        return "RadiusPacket(" + code + ", id=" + identifier + ", " + attributes + ")";
    }
}
