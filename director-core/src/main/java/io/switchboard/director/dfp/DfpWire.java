package io.switchboard.director.dfp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * DFP messages to and from bytes (draft-eck-dfp-01 §4.1), with the MD5 Security TLV (§5.1.1) when a
 * key is configured. All fields are in network byte order (§4).
 *
 * <p>The MD5 digest is RFC 1828's keyed MD5, as §5.1.1 asks: MD5 over the key padded with zeros to
 * 64 bytes, the whole message from its signal header, and the key again. The draft's sentence on
 * what the Authentication Data field holds while the digest is worked out is cut short ("The
 * Authentication Data and Key ID fields"); this implementation zeroes the Authentication Data and
 * keeps the Key ID, as RFC 1828 zeroes its own authentication data (docs/dfp.md says so).
 */
public final class DfpWire {

    /** §4.1: the signal header is 8 bytes. */
    public static final int HEADER = 8;
    /** The longest message accepted: 128 hosts (§6.1) in one Load TLV fit in far less. */
    public static final int MAX_LENGTH = 64 * 1024;
    /** §5.1.1: up to 64 ASCII characters. */
    public static final int MAX_KEY = 64;
    static final int MD5_SECURITY = 0x00000001;
    private static final int SECURITY_VALUE = 4 + 4 + 16; // algorithm, key ID, digest

    private final Optional<byte[]> key;

    /** @param password the MD5 key; empty for messages without security */
    public DfpWire(Optional<String> password) {
        this.key = password.map(p -> p.getBytes(StandardCharsets.US_ASCII));
        if (key.isPresent() && key.get().length > MAX_KEY) {
            throw new IllegalArgumentException("a DFP password has at most 64 characters");
        }
    }

    /** The Message Length of a signal header (§4.1). @throws DfpException outside 8..{@link #MAX_LENGTH} */
    public static int length(byte[] header, int offset) {
        if ((header[offset] & 0xFF) != DfpMessage.VERSION) {
            throw new DfpException("DFP version " + (header[offset] & 0xFF) + ", not 1");
        }
        long length = ByteBuffer.wrap(header, offset + 4, 4).getInt() & 0xFFFF_FFFFL;
        if (length < HEADER || length > MAX_LENGTH) {
            throw new DfpException("Message Length " + length + " is not within 8.." + MAX_LENGTH);
        }
        return (int) length;
    }

    /** The message as sent: signal header, the Security TLV if keyed, then its TLVs. */
    public byte[] encode(DfpMessage m) {
        int length = HEADER + (key.isPresent() ? 4 + SECURITY_VALUE : 0);
        for (DfpMessage.Tlv t : m.tlvs()) {
            length += 4 + t.value().length;
        }
        ByteBuffer b = ByteBuffer.allocate(length);
        b.put((byte) DfpMessage.VERSION).put((byte) 0).putShort((short) m.type()).putInt(length);
        if (key.isPresent()) {
            // §5.1: the Security TLV "must be immediately after the Signal Header".
            b.putShort((short) DfpMessage.TLV_SECURITY).putShort((short) (4 + SECURITY_VALUE));
            b.putInt(MD5_SECURITY).putInt(0).put(new byte[16]); // key ID 0: "the default value for a single key"
        }
        for (DfpMessage.Tlv t : m.tlvs()) {
            byte[] v = t.value();
            b.putShort((short) t.type()).putShort((short) (4 + v.length)).put(v);
        }
        byte[] out = b.array();
        if (key.isPresent()) {
            System.arraycopy(digest(out), 0, out, HEADER + 12, 16);
        }
        return out;
    }

    /**
     * A whole message (its length checked by {@link #length} first). With a key, a message without a
     * valid MD5 Security TLV is refused ({@link DfpException#security()}); without one, a Security TLV
     * is skipped (§5.1).
     */
    public DfpMessage decode(byte[] frame) {
        if (frame.length < HEADER || length(frame, 0) != frame.length) {
            throw new DfpException("frame of " + frame.length + " bytes does not match its Message Length");
        }
        ByteBuffer b = ByteBuffer.wrap(frame);
        b.position(2);
        int type = b.getShort() & 0xFFFF;
        b.position(HEADER);
        List<DfpMessage.Tlv> tlvs = new ArrayList<>();
        boolean secured = false;
        while (b.hasRemaining()) {
            if (b.remaining() < 4) {
                throw new DfpException(b.remaining() + " bytes after the last TLV");
            }
            int start = b.position();
            int tlvType = b.getShort() & 0xFFFF;
            int tlvLength = b.getShort() & 0xFFFF; // §4.1: "the length of the TLV data plus the TLV header"
            if (tlvLength < 4 || tlvLength - 4 > b.remaining()) {
                throw new DfpException("TLV 0x" + Integer.toHexString(tlvType) + " of length " + tlvLength
                        + " does not fit the message");
            }
            byte[] value = new byte[tlvLength - 4];
            b.get(value);
            if (tlvType == DfpMessage.TLV_SECURITY) {
                if (start != HEADER) {
                    throw new DfpException("Security TLV not immediately after the signal header (§5.1)");
                }
                secured = key.isEmpty() || verify(frame, value);
                continue;
            }
            tlvs.add(new DfpMessage.Tlv(tlvType, value));
        }
        if (key.isPresent() && !secured) {
            throw new DfpException("no MD5 Security TLV, and a password is configured (§5.1)", true);
        }
        return new DfpMessage(type, tlvs);
    }

    private boolean verify(byte[] frame, byte[] value) {
        ByteBuffer v = ByteBuffer.wrap(value);
        if (value.length != SECURITY_VALUE || v.getInt() != MD5_SECURITY) {
            throw new DfpException("Security TLV is not MD5 with a 4-byte key ID and 16-byte digest", true);
        }
        byte[] received = new byte[16];
        System.arraycopy(frame, HEADER + 12, received, 0, 16);
        byte[] zeroed = frame.clone();
        java.util.Arrays.fill(zeroed, HEADER + 12, HEADER + 28, (byte) 0);
        if (!MessageDigest.isEqual(received, digest(zeroed))) {
            throw new DfpException("MD5 digest does not match: another password?", true);
        }
        return true;
    }

    /** RFC 1828 keyed MD5: key, key fill to 64 bytes, the message, key. */
    private byte[] digest(byte[] message) {
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has MD5", e);
        }
        byte[] k = key.orElseThrow();
        byte[] filled = new byte[MAX_KEY];
        System.arraycopy(k, 0, filled, 0, k.length);
        md5.update(filled);
        md5.update(message);
        md5.update(k);
        return md5.digest();
    }
}
