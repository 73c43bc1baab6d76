package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;

/**
 * Per-thread MD5 and HMAC-MD5 instances: {@code getInstance} walks the provider list and costs more
 * than hashing a RADIUS packet, so the hot path must not call it per packet.
 */
final class RadiusDigests {

    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a mandatory JCA algorithm", e);
        }
    });

    private static final ThreadLocal<Mac> HMAC_MD5 = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacMD5");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacMD5 is a mandatory JCA algorithm", e);
        }
    });

    private RadiusDigests() {
    }

    /** A reset MD5 for this thread. */
    static MessageDigest md5() {
        MessageDigest md = MD5.get();
        md.reset();
        return md;
    }

    /** This thread's HMAC-MD5, keyed with {@code secret}. */
    static Mac hmacMd5(byte[] secret) {
        Mac mac = HMAC_MD5.get();
        try {
            mac.init(new RawKey(secret));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return mac;
    }

    static void update(MessageDigest md, ByteBuf buf, int index, int length) {
        if (length == 0) {
            return;
        }
        if (buf.hasArray()) {
            md.update(buf.array(), buf.arrayOffset() + index, length);
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
