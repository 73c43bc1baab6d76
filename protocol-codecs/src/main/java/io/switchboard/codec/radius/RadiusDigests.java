package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Per-thread MD5 and HMAC-MD5 instances: {@code getInstance} walks the provider list and costs more
 * than hashing a RADIUS packet, so the hot path must not call it per packet. HMAC-MD5s are kept
 * keyed ({@link HmacMd5}), a few secrets per thread (a director alternates between a client's and a
 * real's), since keying one costs as much as hashing a small packet. Every user of the MD5 ends
 * with {@code digest}, which leaves it reset; one that fails half-way resets it itself.
 */
final class RadiusDigests {

    /** Keyed HMAC-MD5 instances per thread: a client's and a real's secret, and a few more. */
    private static final int KEYED_MACS = 4;

    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a mandatory JCA algorithm", e);
        }
    });

    private static final ThreadLocal<KeyedMacs> HMAC_MD5 = ThreadLocal.withInitial(KeyedMacs::new);

    /** This thread's keyed HMAC-MD5s and the secret of each; replaced round robin. */
    private static final class KeyedMacs {
        final HmacMd5[] macs = new HmacMd5[KEYED_MACS];
        final byte[][] secrets = new byte[KEYED_MACS][];
        int next;

        HmacMd5 keyed(byte[] secret) {
            for (int i = 0; i < KEYED_MACS; i++) {
                if (secrets[i] != null && java.util.Arrays.equals(secrets[i], secret)) {
                    return macs[i];
                }
            }
            int slot = next;
            next = (next + 1) % KEYED_MACS;
            macs[slot] = new HmacMd5(secret);
            secrets[slot] = secret.clone();
            return macs[slot];
        }
    }

    /** Where a direct buffer's bytes are copied to be hashed (a RADIUS packet is at most 4096 octets). */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[4096]);

    /** Where a digest the caller uses at once is written, so that computing one allocates nothing. */
    private static final ThreadLocal<byte[]> RESULT = ThreadLocal.withInitial(() -> new byte[16]);

    private RadiusDigests() {
    }

    /** This thread's MD5, reset (by the {@code digest} that ended its last use). */
    static MessageDigest md5() {
        return MD5.get();
    }

    /** This thread's 16-octet result array, overwritten by the next digest written there. */
    static byte[] result() {
        return RESULT.get();
    }

    /** This thread's HMAC-MD5 keyed with {@code secret}. */
    static HmacMd5 hmacMd5(byte[] secret) {
        return HMAC_MD5.get().keyed(secret);
    }

    static void update(MessageDigest md, ByteBuf buf, int index, int length) {
        if (length == 0) {
            return;
        }
        if (buf.hasArray()) {
            md.update(buf.array(), buf.arrayOffset() + index, length);
        } else if (length <= 4096) {
            // One copy, no ByteBuffer view (which MessageDigest would copy from again).
            byte[] scratch = SCRATCH.get();
            buf.getBytes(index, scratch, 0, length);
            md.update(scratch, 0, length);
        } else if (buf.nioBufferCount() == 1) {
            md.update(buf.nioBuffer(index, length));
        } else {
            for (ByteBuffer part : buf.nioBuffers(index, length)) {
                md.update(part);
            }
        }
    }

}
