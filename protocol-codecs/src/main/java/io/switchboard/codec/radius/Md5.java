package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;

/**
 * MD5 (RFC 1321) whose state can be copied into another instance without allocating: HMAC-MD5
 * ({@link HmacMd5}) starts every MAC from the state after the key's padded block, and JCA's
 * {@code MessageDigest.clone()} allocates a new digest (about 200 bytes) for each copy, three HMACs
 * per relayed request. One thread's: an instance is mutable working state.
 */
final class Md5 {

    /** RFC 1321 §3.4: the per-step shift amounts. */
    private static final int[] SHIFT = {
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    /** RFC 1321 §3.4: T[i] = floor(2^32 * abs(sin(i + 1))). */
    private static final int[] T = new int[64];

    static {
        for (int i = 0; i < 64; i++) {
            T[i] = (int) (long) Math.floor(Math.abs(Math.sin(i + 1)) * 4294967296.0);
        }
    }

    private int a;
    private int b;
    private int c;
    private int d;
    /** Octets hashed so far; the last {@code count % 64} are waiting in {@link #block}. */
    private long count;
    private final byte[] block = new byte[64];
    private final int[] x = new int[16];

    Md5() {
        reset();
    }

    /** RFC 1321 §3.3: the initial state. */
    void reset() {
        a = 0x67452301;
        b = 0xefcdab89;
        c = 0x98badcfe;
        d = 0x10325476;
        count = 0;
    }

    /** This instance in the state of {@code other}. */
    void copyFrom(Md5 other) {
        a = other.a;
        b = other.b;
        c = other.c;
        d = other.d;
        count = other.count;
        System.arraycopy(other.block, 0, block, 0, (int) (count & 63));
    }

    void update(byte[] in) {
        update(in, 0, in.length);
    }

    void update(byte[] in, int offset, int length) {
        int filled = (int) (count & 63);
        count += length;
        if (filled > 0) {
            int n = Math.min(64 - filled, length);
            System.arraycopy(in, offset, block, filled, n);
            offset += n;
            length -= n;
            if (filled + n < 64) {
                return;
            }
            compress(block, 0);
        }
        while (length >= 64) {
            compress(in, offset);
            offset += 64;
            length -= 64;
        }
        System.arraycopy(in, offset, block, 0, length);
    }

    /** The buffer's octets from {@code index}, read into the block as they come (no copy of the whole). */
    void update(ByteBuf buf, int index, int length) {
        if (buf.hasArray()) {
            update(buf.array(), buf.arrayOffset() + index, length);
            return;
        }
        while (length > 0) {
            int filled = (int) (count & 63);
            int n = Math.min(64 - filled, length);
            buf.getBytes(index, block, filled, n);
            count += n;
            index += n;
            length -= n;
            if (filled + n == 64) {
                compress(block, 0);
            }
        }
    }

    /** RFC 1321 §3.1–3.5: pads, writes the 16-octet digest at {@code out[offset]} and resets. */
    void digest(byte[] out, int offset) {
        long bits = count << 3;
        int filled = (int) (count & 63);
        block[filled++] = (byte) 0x80;
        if (filled > 56) {
            java.util.Arrays.fill(block, filled, 64, (byte) 0);
            compress(block, 0);
            filled = 0;
        }
        java.util.Arrays.fill(block, filled, 56, (byte) 0);
        for (int i = 0; i < 8; i++) {
            block[56 + i] = (byte) (bits >>> (8 * i)); // the length, low-order octet first (§3.2)
        }
        compress(block, 0);
        putLittleEndian(out, offset, a);
        putLittleEndian(out, offset + 4, b);
        putLittleEndian(out, offset + 8, c);
        putLittleEndian(out, offset + 12, d);
        reset();
    }

    private static void putLittleEndian(byte[] out, int offset, int word) {
        out[offset] = (byte) word;
        out[offset + 1] = (byte) (word >>> 8);
        out[offset + 2] = (byte) (word >>> 16);
        out[offset + 3] = (byte) (word >>> 24);
    }

    /** RFC 1321 §3.4: one 64-octet block into the state. */
    private void compress(byte[] in, int offset) {
        int[] x = this.x;
        for (int i = 0; i < 16; i++) {
            int o = offset + 4 * i;
            x[i] = (in[o] & 0xff) | (in[o + 1] & 0xff) << 8 | (in[o + 2] & 0xff) << 16 | in[o + 3] << 24;
        }
        int aa = a;
        int bb = b;
        int cc = c;
        int dd = d;
        for (int i = 0; i < 64; i++) {
            int f;
            int g;
            if (i < 16) {
                f = (bb & cc) | (~bb & dd);
                g = i;
            } else if (i < 32) {
                f = (bb & dd) | (cc & ~dd);
                g = (5 * i + 1) & 15;
            } else if (i < 48) {
                f = bb ^ cc ^ dd;
                g = (3 * i + 5) & 15;
            } else {
                f = cc ^ (bb | ~dd);
                g = (7 * i) & 15;
            }
            int next = dd;
            dd = cc;
            cc = bb;
            bb = bb + Integer.rotateLeft(aa + f + T[i] + x[g], SHIFT[i]);
            aa = next;
        }
        a += aa;
        b += bb;
        c += cc;
        d += dd;
    }
}
