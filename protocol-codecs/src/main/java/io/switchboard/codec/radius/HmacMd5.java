package io.switchboard.codec.radius;

/**
 * HMAC-MD5 (RFC 2104 §2) for one secret, with the key's two padded blocks hashed once:
 * {@code MD5((K xor opad) || MD5((K xor ipad) || text))}, where each MAC starts from the MD5 states
 * after {@code K xor ipad} and {@code K xor opad}, copied into working instances. JCA's {@code Mac}
 * hashes both 64-octet pads again for every MAC, which is half the MD5 blocks of a RADIUS packet's
 * Message-Authenticator; copying a state costs a small fraction of hashing a block, and copying it
 * into an instance kept for the purpose allocates nothing ({@link Md5}). One thread's (the working
 * states and the result are reused): {@link RadiusDigests} keeps one per thread and secret.
 */
final class HmacMd5 {

    /** MD5's block, B of RFC 2104. */
    private static final int BLOCK = 64;

    private final Md5 innerPad = new Md5();
    private final Md5 outerPad = new Md5();
    private final Md5 inner = new Md5();
    private final Md5 outer = new Md5();
    private final byte[] result = new byte[16];

    HmacMd5(byte[] secret) {
        // RFC 2104 §2: a key longer than B is hashed first; a shorter one is padded with zeros.
        byte[] key = secret;
        if (secret.length > BLOCK) {
            key = new byte[16];
            Md5 md5 = new Md5();
            md5.update(secret);
            md5.digest(key, 0);
        }
        byte[] ipad = new byte[BLOCK];
        byte[] opad = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) {
            byte k = i < key.length ? key[i] : 0;
            ipad[i] = (byte) (k ^ 0x36);
            opad[i] = (byte) (k ^ 0x5c);
        }
        innerPad.update(ipad);
        outerPad.update(opad);
    }

    /** A MAC begun: the text goes into the state returned, then {@link #finish}. */
    Md5 start() {
        inner.copyFrom(innerPad);
        return inner;
    }

    /**
     * The MAC of what went into {@code inner} since {@link #start}: this instance's own 16 octets,
     * valid until its next MAC (copy them to keep them).
     */
    byte[] finish(Md5 inner) {
        inner.digest(result, 0);
        outer.copyFrom(outerPad);
        outer.update(result, 0, result.length);
        outer.digest(result, 0);
        return result;
    }
}
