package io.switchboard.director.shared;

import java.nio.charset.StandardCharsets;

/**
 * An explicit serializer for what a {@link SharedTable} stores: no Java serialization, and the bytes
 * are the wire format between nodes (and versions), so a codec's layout is a wire constant. Keys are
 * compared by their bytes: equal keys must encode to equal bytes.
 */
public interface Codec<T> {

    byte[] encode(T value);

    /** Throws {@link IllegalArgumentException} on bytes it cannot read. */
    T decode(byte[] bytes);

    /**
     * A {@code long} as 8 bytes, big-endian; {@code what} names it in the error for other lengths
     * ("a TID has 8 bytes, not 3").
     */
    static Codec<Long> int64(String what) {
        return new Codec<>() {
            @Override
            public byte[] encode(Long value) {
                return java.nio.ByteBuffer.allocate(8).putLong(value).array();
            }

            @Override
            public Long decode(byte[] bytes) {
                if (bytes.length != 8) {
                    throw new IllegalArgumentException("a " + what + " has 8 bytes, not " + bytes.length);
                }
                return java.nio.ByteBuffer.wrap(bytes).getLong();
            }
        };
    }

    /** UTF-8 text. */
    Codec<String> UTF8 = new Codec<>() {
        @Override
        public byte[] encode(String value) {
            return value.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    };
}
