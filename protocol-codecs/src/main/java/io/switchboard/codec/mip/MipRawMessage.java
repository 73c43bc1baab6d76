package io.switchboard.codec.mip;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.HexFormat;

/** A Mobile IP message of a type this codec does not model, kept whole so that it re-encodes exactly. */
public record MipRawMessage(byte[] bytes) implements MipMessage {

    public MipRawMessage {
        if (bytes.length < 1) {
            throw new IllegalArgumentException("a message has at least its type octet");
        }
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public MipMessageType type() {
        return MipMessageType.valueOf(bytes[0] & 0xff);
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeBytes(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MipRawMessage other && Arrays.equals(other.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "MipRawMessage(" + HexFormat.of().formatHex(bytes) + ")";
    }
}
