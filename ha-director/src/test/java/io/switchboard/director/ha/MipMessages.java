package io.switchboard.director.ha;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.mip.MipAuthenticators;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.codec.mip.MipMessageType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Mobile IPv4 registration messages built by hand for the tests, and mutated copies of them. */
final class MipMessages {

    private MipMessages() {
    }

    /** RRQ (RFC 5944 §3.3), with an MN-NAI extension (RFC 2794 §2) when {@code nai} is not null. */
    static byte[] request(int flags, int lifetime, int homeAddress, int homeAgent, int careOfAddress,
            long identification, String nai) {
        ByteBuffer b = ByteBuffer.allocate(MipHeaderView.REQUEST_LENGTH + naiLength(nai));
        b.put((byte) MipMessageType.REGISTRATION_REQUEST.value()).put((byte) flags).putShort((short) lifetime)
                .putInt(homeAddress).putInt(homeAgent).putInt(careOfAddress).putLong(identification);
        return nai(b, nai);
    }

    /** RRP (RFC 5944 §3.4), with an MN-NAI extension when {@code nai} is not null. */
    static byte[] reply(int code, int lifetime, int homeAddress, int homeAgent, long identification, String nai) {
        ByteBuffer b = ByteBuffer.allocate(MipHeaderView.REPLY_LENGTH + naiLength(nai));
        b.put((byte) MipMessageType.REGISTRATION_REPLY.value()).put((byte) code).putShort((short) lifetime)
                .putInt(homeAddress).putInt(homeAgent).putLong(identification);
        return nai(b, nai);
    }

    /**
     * {@code message} with an authentication extension appended: SPI and a 16-octet HMAC-MD5 over the
     * message up to and including the SPI (RFC 5944 §3.5.1). {@code type} 32..34 uses the short header
     * (RFC 5944 §3.5.2-§3.5.4); 36 is the Generalized Authentication extension with the long header
     * and Subtype 1, MN-AAA (RFC 3012 §5), whose authenticator the director never checks either.
     */
    static byte[] authenticated(byte[] message, MipExtensionType type, int spi, byte[] key) {
        boolean longHeader = MipExtensionType.hasLongHeader(type.value());
        ByteBuffer b = ByteBuffer.allocate(message.length + (longHeader ? 4 : 2) + 4 + 16).put(message);
        if (longHeader) {
            b.put((byte) type.value()).put((byte) 1).putShort((short) 20);
        } else {
            b.put((byte) type.value()).put((byte) 20);
        }
        b.putInt(spi);
        try {
            MipAuthenticators.sign(MipHeaderView.wrap(Unpooled.wrappedBuffer(b.array())), message.length, key);
        } catch (DecodeException e) {
            throw new IllegalArgumentException("not a registration message", e);
        }
        return b.array();
    }

    private static int naiLength(String nai) {
        return nai == null ? 0 : 2 + nai.getBytes(StandardCharsets.UTF_8).length;
    }

    private static byte[] nai(ByteBuffer b, String nai) {
        if (nai != null) {
            byte[] n = nai.getBytes(StandardCharsets.UTF_8);
            b.put((byte) MipExtensionType.MN_NAI.value()).put((byte) n.length).put(n);
        }
        return b.array();
    }
}
