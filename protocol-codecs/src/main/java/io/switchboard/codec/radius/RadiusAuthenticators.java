package io.switchboard.codec.radius;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import java.security.DigestException;
import java.security.MessageDigest;

/**
 * Authenticator arithmetic over a {@link RadiusView}: verification, signing in place, re-signing for a
 * new identifier and secret, and User-Password hiding. All functions borrow the view's buffer; the
 * signing ones write into it at absolute indices and never move its reader or writer index.
 *
 * <ul>
 *   <li>Access-Request, Status-Server: the Request Authenticator is a nonce (RFC 2865 §3, RFC 5997 §2);
 *       Message-Authenticator is HMAC-MD5 over the packet as is (RFC 3579 §3.2).</li>
 *   <li>Accounting-Request, CoA-Request, Disconnect-Request: Request Authenticator = MD5(code, id,
 *       length, 16 zero octets, attributes, secret) (RFC 2866 §3, RFC 5176 §2.3); a Message-Authenticator
 *       is computed first, with the authenticator field zeroed (RFC 5176 §3.3, RFC 5080 §2.2.2).</li>
 *   <li>Responses: Response Authenticator = MD5(code, id, length, request authenticator, attributes,
 *       secret) (RFC 2865 §3); a Message-Authenticator is computed first, over the packet with the
 *       request authenticator in the field (RFC 3579 §3.2).</li>
 * </ul>
 *
 * In every case the Message-Authenticator value itself is sixteen zero octets while the HMAC is computed.
 */
public final class RadiusAuthenticators {

    private static final byte[] ZERO_16 = new byte[16];
    private static final int MD5_LENGTH = 16;

    private RadiusAuthenticators() {
    }

    // ---- computing ----

    /** MD5(code, id, length, 16 zero octets, attributes, secret): the Accounting/CoA/Disconnect-Request authenticator. */
    public static byte[] requestAuthenticator(RadiusView packet, byte[] secret) {
        return packetDigest(packet, ZERO_16, secret).clone();
    }

    /** MD5(code, id, length, request authenticator, attributes, secret): the Response Authenticator. */
    public static byte[] responseAuthenticator(RadiusView packet, byte[] requestAuthenticator, byte[] secret) {
        checkAuthenticator(requestAuthenticator);
        return packetDigest(packet, requestAuthenticator, secret).clone();
    }

    /**
     * HMAC-MD5 keyed with {@code secret} over the packet with {@code authenticatorField} in place of the
     * authenticator and the Message-Authenticator value zeroed (RFC 3579 §3.2). {@code authenticatorField}
     * is the packet's own authenticator for Access-Request and Status-Server (pass null to use the field
     * as it is, without a copy), zeros for Accounting/CoA/Disconnect requests and the request's
     * authenticator for a response.
     */
    public static byte[] messageAuthenticator(RadiusView packet, byte[] authenticatorField, byte[] secret) {
        return mac(packet, authenticatorField, secret).clone();
    }

    /**
     * Whether the packet's Request Authenticator is MD5(code, id, length, 16 zero octets, attributes,
     * secret) (RFC 2866 §3), compared in constant time without allocating.
     */
    public static boolean matchesRequestAuthenticator(RadiusView packet, byte[] secret) {
        return equalsAt(packet.buffer(), packet.base() + RadiusView.AUTHENTICATOR_OFFSET,
                packetDigest(packet, ZERO_16, secret));
    }

    /**
     * Whether the packet's Message-Authenticator (which it must have) is {@link #messageAuthenticator},
     * compared in constant time without allocating.
     */
    public static boolean matchesMessageAuthenticator(RadiusView packet, byte[] authenticatorField, byte[] secret) {
        int ma = packet.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
        if (ma < 0) {
            throw new IllegalArgumentException("the packet has no Message-Authenticator");
        }
        return equalsAt(packet.buffer(), packet.base() + ma + 2, mac(packet, authenticatorField, secret));
    }

    /**
     * {@link #messageAuthenticator} in this thread's {@link HmacMd5}'s own result array, valid until the
     * thread's next MAC with the same secret: the signing and verifying below use it at once, so a relayed
     * request allocates no digest.
     */
    private static byte[] mac(RadiusView packet, byte[] authenticatorField, byte[] secret) {
        ByteBuf buf = packet.buffer();
        int base = packet.base();
        int ma = packet.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
        if (authenticatorField != null) {
            checkAuthenticator(authenticatorField);
        }
        HmacMd5 hmac = RadiusDigests.hmacMd5(secret);
        Md5 mac = hmac.start();
        if (authenticatorField == null) {
            mac.update(buf, base, RadiusView.HEADER_LENGTH);
        } else {
            mac.update(buf, base, RadiusView.AUTHENTICATOR_OFFSET);
            mac.update(authenticatorField);
        }
        if (ma < 0) {
            mac.update(buf, base + RadiusView.HEADER_LENGTH, packet.length() - RadiusView.HEADER_LENGTH);
        } else {
            int value = ma + 2;
            mac.update(buf, base + RadiusView.HEADER_LENGTH, value - RadiusView.HEADER_LENGTH);
            mac.update(ZERO_16);
            mac.update(buf, base + value + 16, packet.length() - value - 16);
        }
        return hmac.finish(mac);
    }

    // ---- verifying ----

    /**
     * Verifies a request: the Request Authenticator where it is a hash (Accounting, CoA, Disconnect)
     * and the Message-Authenticator if present. An Access-Request without Message-Authenticator has
     * nothing verifiable and passes; its password only proves itself to the server.
     */
    public static boolean verifyRequest(RadiusView packet, byte[] secret) {
        ByteBuf buf = packet.buffer();
        int code = packet.code();
        boolean hashed = RadiusCode.hasHashedRequestAuthenticator(code);
        if (hashed && !equalsAt(buf, packet.base() + RadiusView.AUTHENTICATOR_OFFSET, packetDigest(packet, ZERO_16, secret))) {
            return false;
        }
        return verifyMessageAuthenticator(packet, hashed ? ZERO_16 : null, secret);
    }

    /** Verifies a response's Response Authenticator and, if present, its Message-Authenticator. */
    public static boolean verifyResponse(RadiusView packet, byte[] requestAuthenticator, byte[] secret) {
        checkAuthenticator(requestAuthenticator);
        byte[] expected = packetDigest(packet, requestAuthenticator, secret);
        if (!equalsAt(packet.buffer(), packet.base() + RadiusView.AUTHENTICATOR_OFFSET, expected)) {
            return false;
        }
        return verifyMessageAuthenticator(packet, requestAuthenticator, secret);
    }

    private static boolean verifyMessageAuthenticator(RadiusView packet, byte[] authenticatorField, byte[] secret) {
        int ma = packet.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
        if (ma < 0) {
            return true;
        }
        byte[] expected = mac(packet, authenticatorField, secret);
        return equalsAt(packet.buffer(), packet.base() + ma + 2, expected);
    }

    // ---- signing in place ----

    /**
     * Signs a request in place: the Message-Authenticator if present, then the Request Authenticator
     * where it is a hash. An Access-Request keeps its authenticator (the nonce that hides User-Password).
     */
    public static void signRequest(RadiusView packet, byte[] secret) {
        ByteBuf buf = packet.buffer();
        int authIndex = packet.base() + RadiusView.AUTHENTICATOR_OFFSET;
        if (RadiusCode.hasHashedRequestAuthenticator(packet.code())) {
            buf.setBytes(authIndex, ZERO_16);
            writeMessageAuthenticator(packet, ZERO_16, secret);
            buf.setBytes(authIndex, packetDigest(packet, ZERO_16, secret));
        } else {
            writeMessageAuthenticator(packet, null, secret);
        }
    }

    /** Signs a response in place for the request whose authenticator is {@code requestAuthenticator}. */
    public static void signResponse(RadiusView packet, byte[] requestAuthenticator, byte[] secret) {
        checkAuthenticator(requestAuthenticator);
        writeMessageAuthenticator(packet, requestAuthenticator, secret);
        packet.buffer().setBytes(packet.base() + RadiusView.AUTHENTICATOR_OFFSET,
                packetDigest(packet, requestAuthenticator, secret));
    }

    /**
     * Re-signs a request in place for another hop: new identifier, User-Password re-hidden from
     * {@code fromSecret} to {@code toSecret} (Access-Request), then {@link #signRequest}.
     * Other attributes hidden with the secret (Tunnel-Password, vendor keys) are not re-hidden.
     */
    public static void resignRequest(RadiusView packet, int identifier, byte[] fromSecret, byte[] toSecret) {
        packet.rewriteIdentifier(identifier);
        if (packet.code() == RadiusCode.ACCESS_REQUEST.value()) {
            rehideUserPassword(packet, fromSecret, toSecret);
        }
        signRequest(packet, toSecret);
    }

    /**
     * Re-signs a response in place for the hop it is relayed to: the identifier and authenticator of that
     * hop's request, and that hop's secret.
     */
    public static void resignResponse(RadiusView packet, int identifier, byte[] requestAuthenticator, byte[] secret) {
        packet.rewriteIdentifier(identifier);
        signResponse(packet, requestAuthenticator, secret);
    }

    /**
     * Makes a Message-Authenticator the packet's first attribute, in place: moved there if it is
     * elsewhere, inserted there (zeroed, to be signed) if there is none, which lengthens the packet by
     * {@link RadiusView#MESSAGE_AUTHENTICATOR_LENGTH} octets and drops any padding past the Length.
     * First, because a forged answer's chosen-prefix collision lives in the attributes before the
     * HMAC: with the HMAC first there is nothing for the attacker to choose ahead of it (BlastRADIUS,
     * CVE-2024-3596; draft-ietf-radext-deprecating-radius requires it first in Access-Accept, -Reject
     * and -Challenge). Nothing moves when it is already first (a FreeRADIUS 3.2.5 answer).
     *
     * @return a view of the packet as it now is
     * @throws DecodeException           ({@code oversized}) if an insertion would pass {@link RadiusView#MAX_LENGTH}
     * @throws IndexOutOfBoundsException if an insertion does not fit the buffer's maximum capacity
     */
    public static RadiusView messageAuthenticatorFirst(RadiusView packet) throws DecodeException {
        int ma = packet.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
        if (ma == RadiusView.HEADER_LENGTH) {
            return packet;
        }
        ByteBuf buf = packet.buffer();
        int base = packet.base();
        int first = base + RadiusView.HEADER_LENGTH;
        int length = packet.length();
        if (ma > 0) {
            // The attributes ahead of it shift right over its place; it goes in front of them.
            shiftRight(buf, first, ma - RadiusView.HEADER_LENGTH, RadiusView.MESSAGE_AUTHENTICATOR_LENGTH);
        } else {
            if (length + RadiusView.MESSAGE_AUTHENTICATOR_LENGTH > RadiusView.MAX_LENGTH) {
                throw new DecodeException(DropReason.OVERSIZED,
                        "no room for a Message-Authenticator in " + length + " octets");
            }
            buf.writerIndex(base + length);
            buf.ensureWritable(RadiusView.MESSAGE_AUTHENTICATOR_LENGTH);
            buf.writerIndex(base + length + RadiusView.MESSAGE_AUTHENTICATOR_LENGTH);
            shiftRight(buf, first, length - RadiusView.HEADER_LENGTH, RadiusView.MESSAGE_AUTHENTICATOR_LENGTH);
            length += RadiusView.MESSAGE_AUTHENTICATOR_LENGTH;
            buf.setShort(base + 2, length);
        }
        buf.setByte(first, RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
        buf.setByte(first + 1, RadiusView.MESSAGE_AUTHENTICATOR_LENGTH);
        buf.setZero(first + 2, 16);
        return RadiusView.wrap(buf);
    }

    /**
     * Moves {@code length} octets at {@code from} to {@code from + by}, last octets first so that the
     * overlap is safe on every kind of buffer (a direct buffer's bulk copy promises no order).
     */
    private static void shiftRight(ByteBuf buf, int from, int length, int by) {
        int i = length;
        while (i >= 8) {
            i -= 8;
            buf.setLong(from + by + i, buf.getLong(from + i));
        }
        while (i > 0) {
            i--;
            buf.setByte(from + by + i, buf.getByte(from + i));
        }
    }

    private static void writeMessageAuthenticator(RadiusView packet, byte[] authenticatorField, byte[] secret) {
        int ma = packet.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
        if (ma >= 0) {
            packet.buffer().setBytes(packet.base() + ma + 2, mac(packet, authenticatorField, secret));
        }
    }

    // ---- User-Password (RFC 2865 §5.2) ----

    /**
     * Re-hides the first User-Password of an Access-Request in place for another secret, using the
     * packet's own Request Authenticator. The hidden length does not change, so nothing moves.
     *
     * @return false if there is no User-Password or its length is not a multiple of 16 in 16..128
     */
    public static boolean rehideUserPassword(RadiusView packet, byte[] fromSecret, byte[] toSecret) {
        int a = packet.find(RadiusAttributeType.USER_PASSWORD.value());
        if (a < 0) {
            return false;
        }
        int length = packet.valueLength(a);
        if (length < 16 || length > 128 || length % 16 != 0) {
            return false;
        }
        ByteBuf buf = packet.buffer();
        int index = packet.base() + a + 2;
        byte[] previousOld = packet.authenticator();
        byte[] previousNew = previousOld.clone();
        byte[] block = new byte[16];
        byte[] oldKey = new byte[16];
        byte[] newKey = new byte[16];
        for (int i = 0; i < length; i += 16) {
            buf.getBytes(index + i, block);
            md5(fromSecret, previousOld, oldKey);
            md5(toSecret, previousNew, newKey);
            System.arraycopy(block, 0, previousOld, 0, 16);
            for (int j = 0; j < 16; j++) {
                // c' = (c xor b_old) xor b_new: the plain text never leaves this loop.
                block[j] = (byte) (block[j] ^ oldKey[j] ^ newKey[j]);
            }
            System.arraycopy(block, 0, previousNew, 0, 16);
            buf.setBytes(index + i, block);
        }
        return true;
    }

    /** Hides {@code password} (at most 128 octets) as RFC 2865 §5.2 prescribes, padding with zeros. */
    public static byte[] hideUserPassword(byte[] password, byte[] secret, byte[] requestAuthenticator) {
        checkAuthenticator(requestAuthenticator);
        if (password.length > 128) {
            throw new IllegalArgumentException("User-Password longer than 128 octets");
        }
        int length = Math.max(16, (password.length + 15) & ~15);
        byte[] out = new byte[length];
        System.arraycopy(password, 0, out, 0, password.length);
        byte[] previous = requestAuthenticator;
        byte[] key = new byte[16];
        for (int i = 0; i < length; i += 16) {
            md5(secret, previous, 0, key);
            for (int j = 0; j < 16; j++) {
                out[i + j] ^= key[j];
            }
            previous = java.util.Arrays.copyOfRange(out, i, i + 16);
        }
        return out;
    }

    /** Reveals a hidden User-Password value; trailing zero padding is removed. */
    public static byte[] revealUserPassword(byte[] hidden, byte[] secret, byte[] requestAuthenticator) {
        checkAuthenticator(requestAuthenticator);
        if (hidden.length < 16 || hidden.length > 128 || hidden.length % 16 != 0) {
            throw new IllegalArgumentException("hidden User-Password length " + hidden.length);
        }
        byte[] out = new byte[hidden.length];
        byte[] previous = requestAuthenticator;
        byte[] key = new byte[16];
        for (int i = 0; i < hidden.length; i += 16) {
            md5(secret, previous, 0, key);
            for (int j = 0; j < 16; j++) {
                out[i + j] = (byte) (hidden[i + j] ^ key[j]);
            }
            previous = java.util.Arrays.copyOfRange(hidden, i, i + 16);
        }
        int end = out.length;
        while (end > 0 && out[end - 1] == 0) {
            end--;
        }
        return java.util.Arrays.copyOf(out, end);
    }

    // ---- internals ----

    /** The digest in this thread's result array ({@link RadiusDigests#result}), valid until its next use. */
    private static byte[] packetDigest(RadiusView packet, byte[] authenticatorField, byte[] secret) {
        ByteBuf buf = packet.buffer();
        int base = packet.base();
        MessageDigest md = RadiusDigests.md5();
        try {
            RadiusDigests.update(md, buf, base, RadiusView.AUTHENTICATOR_OFFSET);
            md.update(authenticatorField);
            RadiusDigests.update(md, buf, base + RadiusView.HEADER_LENGTH, packet.length() - RadiusView.HEADER_LENGTH);
            md.update(secret);
            byte[] out = RadiusDigests.result();
            md.digest(out, 0, MD5_LENGTH);
            return out;
        } catch (DigestException e) {
            throw new IllegalStateException(e);
        } catch (RuntimeException e) {
            md.reset(); // the thread's instance is used again
            throw e;
        }
    }

    private static void md5(byte[] secret, byte[] block, byte[] out) {
        md5(secret, block, 0, out);
    }

    private static void md5(byte[] secret, byte[] block, int offset, byte[] out) {
        MessageDigest md = RadiusDigests.md5();
        md.update(secret);
        md.update(block, offset, 16);
        try {
            md.digest(out, 0, MD5_LENGTH);
        } catch (DigestException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean equalsAt(ByteBuf buf, int index, byte[] expected) {
        // Constant time: the comparison must not tell an attacker how many octets matched.
        int diff = 0;
        for (int i = 0; i < expected.length; i++) {
            diff |= buf.getByte(index + i) ^ expected[i];
        }
        return diff == 0;
    }

    private static void checkAuthenticator(byte[] authenticator) {
        if (authenticator.length != RadiusView.AUTHENTICATOR_LENGTH) {
            throw new IllegalArgumentException("authenticator must be 16 octets, was " + authenticator.length);
        }
    }
}
