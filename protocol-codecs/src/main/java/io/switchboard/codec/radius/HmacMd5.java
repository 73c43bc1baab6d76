package io.switchboard.codec.radius;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * HMAC-MD5 (RFC 2104 §2) for one secret, with the key's two padded blocks hashed once:
 * {@code MD5((K xor opad) || MD5((K xor ipad) || text))}, where each MAC starts from copies of the
 * MD5 states after {@code K xor ipad} and {@code K xor opad}. JCA's {@code Mac} hashes both 64-octet
 * pads again for every MAC, which is half the MD5 blocks of a RADIUS packet's Message-Authenticator;
 * copying a state costs a small fraction of hashing a block. Immutable once built; each MAC has its
 * own copies, so a failure half-way leaves nothing behind.
 */
final class HmacMd5 {

    /** MD5's block, B of RFC 2104. */
    private static final int BLOCK = 64;

    private final MessageDigest innerPad;
    private final MessageDigest outerPad;

    HmacMd5(byte[] secret) {
        // RFC 2104 §2: a key longer than B is hashed first; a shorter one is padded with zeros.
        byte[] key = secret.length > BLOCK ? newMd5().digest(secret) : secret;
        byte[] ipad = new byte[BLOCK];
        byte[] opad = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) {
            byte k = i < key.length ? key[i] : 0;
            ipad[i] = (byte) (k ^ 0x36);
            opad[i] = (byte) (k ^ 0x5c);
        }
        this.innerPad = newMd5();
        innerPad.update(ipad);
        this.outerPad = newMd5();
        outerPad.update(opad);
    }

    /** A MAC begun: the text goes into the digest returned, then {@link #finish}. */
    MessageDigest start() {
        return copy(innerPad);
    }

    /** The MAC of what went into {@code inner} since {@link #start}. */
    byte[] finish(MessageDigest inner) {
        MessageDigest outer = copy(outerPad);
        outer.update(inner.digest());
        return outer.digest();
    }

    private static MessageDigest copy(MessageDigest state) {
        try {
            return (MessageDigest) state.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the MD5 provider's digests cannot be copied", e);
        }
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a mandatory JCA algorithm", e);
        }
    }
}
