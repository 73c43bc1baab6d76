package io.switchboard.director.radius;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.radius.RadiusView;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Salt-encrypted attributes of answers (RFC 2868 §3.5 Tunnel-Password; RFC 2548 §2.4.2/§2.4.3
 * MS-MPPE-Send-Key and MS-MPPE-Recv-Key), re-encrypted in place from one hop's secret and request
 * authenticator to the other's. The encrypted string is {@code c(i) = p(i) xor MD5(S + c(i-1))} with
 * {@code c(0)} replaced by {@code R + salt}; its length does not change, so nothing moves.
 */
final class SaltedAttributes {

    static final int TUNNEL_PASSWORD = 69;
    static final int MICROSOFT = 311;
    static final int MS_MPPE_SEND_KEY = 16;
    static final int MS_MPPE_RECV_KEY = 17;

    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private SaltedAttributes() {
    }

    /** Re-encrypts every salt-encrypted attribute of {@code answer}; returns how many. */
    static int reencrypt(RadiusView answer, byte[] fromSecret, byte[] fromAuthenticator, byte[] toSecret,
            byte[] toAuthenticator) {
        int count = 0;
        for (int a = answer.firstAttribute(); a >= 0; a = answer.nextAttribute(a)) {
            if (answer.attributeType(a) == TUNNEL_PASSWORD && answer.attributeLength(a) >= 2 + 1 + 2 + 16) {
                // Tag (1), Salt (2), String.
                count += reencrypt(answer, a + 3, a + answer.attributeLength(a), fromSecret, fromAuthenticator, toSecret,
                        toAuthenticator);
            } else if (answer.vendorId(a) == MICROSOFT) {
                for (int s = answer.firstVendorSubAttribute(a); s >= 0; s = answer.nextVendorSubAttribute(a, s)) {
                    int type = answer.attributeType(s);
                    if ((type == MS_MPPE_SEND_KEY || type == MS_MPPE_RECV_KEY) && answer.attributeLength(s) >= 2 + 2 + 16) {
                        // Salt (2), String.
                        count += reencrypt(answer, s + 2, s + answer.attributeLength(s), fromSecret, fromAuthenticator,
                                toSecret, toAuthenticator);
                    }
                }
            }
        }
        return count;
    }

    /** @param salt offset of the two salt octets; the string runs from salt + 2 to {@code end} */
    private static int reencrypt(RadiusView view, int salt, int end, byte[] fromSecret, byte[] fromAuthenticator,
            byte[] toSecret, byte[] toAuthenticator) {
        int length = end - salt - 2;
        if (length <= 0 || length % 16 != 0) {
            return 0;
        }
        ByteBuf buf = view.buffer();
        int index = view.base() + salt + 2;
        byte[] saltBytes = new byte[2];
        buf.getBytes(view.base() + salt, saltBytes);
        byte[] previousOld = null;
        byte[] previousNew = null;
        byte[] block = new byte[16];
        for (int i = 0; i < length; i += 16) {
            buf.getBytes(index + i, block);
            byte[] oldKey = i == 0 ? md5(fromSecret, fromAuthenticator, saltBytes) : md5(fromSecret, previousOld, null);
            byte[] newKey = i == 0 ? md5(toSecret, toAuthenticator, saltBytes) : md5(toSecret, previousNew, null);
            previousOld = block.clone();
            for (int j = 0; j < 16; j++) {
                block[j] = (byte) (block[j] ^ oldKey[j] ^ newKey[j]);
            }
            previousNew = block.clone();
            buf.setBytes(index + i, block);
        }
        return 1;
    }

    static byte[] md5(byte[] secret, byte[] a, byte[] b) {
        MessageDigest md = MD5.get();
        md.reset();
        md.update(secret);
        md.update(a);
        if (b != null) {
            md.update(b);
        }
        return md.digest();
    }

}
