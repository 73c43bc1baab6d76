package io.switchboard.director.sticky;

import io.switchboard.director.spi.StickyKind;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Objects;

/**
 * A subscriber or client identity that a binding is kept for: its kind (which table) and its value
 * as bytes — address bytes for client addresses and framed IPs, ASCII digits for IMSIs, the six
 * octets of an MSID, the attribute bytes of a RADIUS string. The hash is computed once.
 */
public final class StickyKey {

    private final StickyKind kind;
    private final byte[] value;
    private final long hash;

    private StickyKey(StickyKind kind, byte[] value) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.value = value;
        this.hash = KeyHash.of(value);
    }

    /** Takes ownership of {@code value}: the caller must not change it afterwards. */
    public static StickyKey of(StickyKind kind, byte[] value) {
        return new StickyKey(kind, value);
    }

    /**
     * The client-address key, masked to the first {@code prefixBits} bits (IOS {@code sticky ...
     * netmask}): every client of one subnet shares one binding.
     */
    public static StickyKey clientAddress(InetAddress address, int prefixBits) {
        byte[] bytes = address.getAddress();
        int bits = Math.min(prefixBits, bytes.length * 8);
        for (int i = 0; i < bytes.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            bytes[i] &= (byte) (0xff00 >> keep);
        }
        return new StickyKey(StickyKind.CLIENT_ADDRESS, bytes);
    }

    /** Parses the text form that {@link #toString()} prints (admin API lookups), as the kind reads it. */
    public static StickyKey parse(StickyKind kind, String text) {
        return new StickyKey(kind, kind.parse(text));
    }

    public StickyKind kind() {
        return kind;
    }

    /** How many value bytes there are. */
    public int length() {
        return value.length;
    }

    /** Value byte {@code index}, without the copy {@link #value()} makes (for a packed form on the packet path). */
    public byte byteAt(int index) {
        return value[index];
    }

    /** A copy of the value bytes. */
    public byte[] value() {
        return value.clone();
    }

    /** The deterministic 64-bit hash of the value, the input of the consistent-hash predictor. */
    public long hash() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StickyKey k && k.hash == hash && k.kind.equals(kind) && Arrays.equals(k.value, value);
    }

    @Override
    public int hashCode() {
        return (int) (hash ^ (hash >>> 32));
    }

    /** The text form, as the kind prints it: dotted or colon address, digits, MSID as aa:bb:cc:dd:ee:ff, a string. */
    @Override
    public String toString() {
        return kind.print(value);
    }
}
