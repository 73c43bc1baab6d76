package io.switchboard.director.shared;

import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Sticky keys and bindings as bytes, for what holds them outside a sticky table's memory: a plug-in's
 * shared table keyed by subscriber (RADIUS held VSAs), a snapshot file. Wire constants, like every
 * {@link Codec}.
 */
public final class StickyCodecs {

    private StickyCodecs() {
    }

    /**
     * A subscriber key: the kind's configuration name (length-prefixed, so the bytes do not depend on
     * the enum's order), then the key's bytes.
     */
    public static final Codec<StickyKey> KEYS = new Codec<>() {
        @Override
        public byte[] encode(StickyKey key) {
            byte[] kind = key.kind().configName().getBytes(StandardCharsets.US_ASCII);
            byte[] value = key.value();
            return ByteBuffer.allocate(1 + kind.length + value.length).put((byte) kind.length).put(kind).put(value)
                    .array();
        }

        @Override
        public StickyKey decode(byte[] bytes) {
            if (bytes.length < 1 || bytes.length < 1 + bytes[0]) {
                throw new IllegalArgumentException("sticky key of " + bytes.length + " bytes is truncated");
            }
            String name = new String(bytes, 1, bytes[0], StandardCharsets.US_ASCII);
            StickyKind kind = StickyKind.named(name);
            return StickyKey.of(kind, Arrays.copyOfRange(bytes, 1 + bytes[0], bytes.length));
        }
    };

    /** A binding: the farm's name (length-prefixed, 2 octets), then the real's id, both UTF-8. */
    public static final Codec<StickyBinding> BINDINGS = new Codec<>() {
        @Override
        public byte[] encode(StickyBinding binding) {
            byte[] farm = binding.farm().getBytes(StandardCharsets.UTF_8);
            byte[] real = binding.real().getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(2 + farm.length + real.length).putShort((short) farm.length).put(farm).put(real)
                    .array();
        }

        @Override
        public StickyBinding decode(byte[] bytes) {
            int farm = bytes.length < 2 ? -1 : ByteBuffer.wrap(bytes).getShort() & 0xffff;
            if (farm < 0 || bytes.length < 2 + farm) {
                throw new IllegalArgumentException("sticky binding of " + bytes.length + " bytes is truncated");
            }
            return new StickyBinding(new String(bytes, 2, farm, StandardCharsets.UTF_8),
                    new String(bytes, 2 + farm, bytes.length - 2 - farm, StandardCharsets.UTF_8));
        }
    };
}
