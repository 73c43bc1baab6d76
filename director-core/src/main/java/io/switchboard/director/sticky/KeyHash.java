package io.switchboard.director.sticky;

/**
 * The 64-bit hash of sticky keys and real ids: FNV-1a over the bytes, finished with MurmurHash3's
 * fmix64 so that nearby keys (consecutive IMSIs) spread over the whole range. It must be the same
 * on every node and every run (no seeds), because the consistent-hash table depends on it.
 */
public final class KeyHash {

    private KeyHash() {
    }

    public static long of(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return mix(h);
    }

    /** MurmurHash3 fmix64. */
    public static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
