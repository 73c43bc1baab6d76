package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;

/**
 * Per-thread MD5 and HMAC-MD5 instances: {@code getInstance} walks the provider list and costs more
 * than hashing a RADIUS packet, so the hot path must not call it per packet. HMAC-MD5 instances are
 * kept keyed, a few secrets per thread (a director alternates between a client's and a real's), since
 * keying one costs as much as hashing a small packet. Every user ends with {@code digest} or
 * {@code doFinal}, which leave the instance reset; one that fails half-way resets it itself.
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

    /** This thread's HMAC-MD5 instances and the secret each is keyed with; replaced round robin. */
    private static final class KeyedMacs {
        final Mac[] macs = new Mac[KEYED_MACS];
        final byte[][] secrets = new byte[KEYED_MACS][];
        int next;

        Mac keyed(byte[] secret) {
            for (int i = 0; i < KEYED_MACS; i++) {
                if (secrets[i] != null && java.util.Arrays.equals(secrets[i], secret)) {
                    return macs[i];
                }
            }
            int slot = next;
            next = (next + 1) % KEYED_MACS;
            try {
                if (macs[slot] == null) {
                    macs[slot] = Mac.getInstance("HmacMD5");
                }
                secrets[slot] = null; // until keyed: a failed init must not leave a stale key behind
                macs[slot].init(new RawKey(secret));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacMD5 is a mandatory JCA algorithm", e);
            }
            secrets[slot] = secret.clone();
            return macs[slot];
        }
    }

    /** Where a direct buffer's bytes are copied to be hashed (a RADIUS packet is at most 4096 octets). */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[4096]);

    private RadiusDigests() {
    }

    /** This thread's MD5, reset (by the {@code digest} that ended its last use). */
    static MessageDigest md5() {
        return MD5.get();
    }

    /** This thread's HMAC-MD5 keyed with {@code secret}, reset (by the last {@code doFinal}). */
    static Mac hmacMd5(byte[] secret) {
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

    static void update(Mac mac, ByteBuf buf, int index, int length) {
        if (length == 0) {
            return;
        }
        if (buf.hasArray()) {
            mac.update(buf.array(), buf.arrayOffset() + index, length);
        } else if (length <= 4096) {
            byte[] scratch = SCRATCH.get();
            buf.getBytes(index, scratch, 0, length);
            mac.update(scratch, 0, length);
        } else if (buf.nioBufferCount() == 1) {
            mac.update(buf.nioBuffer(index, length));
        } else {
            for (ByteBuffer part : buf.nioBuffers(index, length)) {
                mac.update(part);
            }
        }
    }

    /**
     * A key that does not copy-and-check like {@code SecretKeySpec}; an empty secret is legal for
     * HMAC even though RADIUS secrets should never be empty.
     */
    private record RawKey(byte[] secret) implements javax.crypto.SecretKey {
        @Override
        public String getAlgorithm() {
            return "HmacMD5";
        }

        @Override
        public String getFormat() {
            return "RAW";
        }

        @Override
        public byte[] getEncoded() {
            return secret.clone();
        }
    }
}
