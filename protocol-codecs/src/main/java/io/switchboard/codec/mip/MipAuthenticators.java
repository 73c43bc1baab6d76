package io.switchboard.codec.mip;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The default authentication algorithm of RFC 5944 §3.5.1: HMAC-MD5 keyed with the mobility security
 * association's key, over the message from its first octet up to and including the SPI of the
 * authentication extension.
 */
public final class MipAuthenticators {

    private static final ThreadLocal<Mac> HMAC_MD5 = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacMD5");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacMD5 is a mandatory JCA algorithm", e);
        }
    });

    private MipAuthenticators() {
    }

    /** HMAC-MD5 for the authentication extension at {@code extension} (an offset in the view). */
    public static byte[] compute(MipHeaderView view, int extension, byte[] key) {
        if (!MipExtensionType.isAuthentication(view.extensionType(extension)) || view.extensionDataLength(extension) < 4) {
            throw new IllegalArgumentException("no authentication extension at offset " + extension);
        }
        Mac mac = HMAC_MD5.get();
        try {
            mac.init(new SecretKeySpec(key, "HmacMD5"));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e);
        }
        int covered = view.extensionDataOffset(extension) + 4;
        ByteBuf buf = view.buffer();
        if (buf.hasArray()) {
            mac.update(buf.array(), buf.arrayOffset() + view.base(), covered);
        } else {
            for (ByteBuffer part : buf.nioBuffers(view.base(), covered)) {
                mac.update(part);
            }
        }
        return mac.doFinal();
    }

    /** Whether the authenticator of the extension at {@code extension} is the HMAC-MD5 of {@link #compute}. */
    public static boolean verify(MipHeaderView view, int extension, byte[] key) {
        byte[] expected = compute(view, extension, key);
        int length = view.extensionDataLength(extension) - 4;
        byte[] actual = new byte[length];
        view.buffer().getBytes(view.base() + view.extensionDataOffset(extension) + 4, actual);
        return MessageDigest.isEqual(expected, actual);
    }

    /** Computes and writes the authenticator in place; the extension must hold 16 authenticator octets. */
    public static void sign(MipHeaderView view, int extension, byte[] key) {
        if (view.extensionDataLength(extension) != 4 + 16) {
            throw new IllegalArgumentException("HMAC-MD5 needs a 16-octet authenticator field");
        }
        view.buffer().setBytes(view.base() + view.extensionDataOffset(extension) + 4, compute(view, extension, key));
    }
}
