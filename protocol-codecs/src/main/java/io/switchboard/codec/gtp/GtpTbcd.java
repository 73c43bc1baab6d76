package io.switchboard.codec.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * Telephony BCD (TS 29.002 TBCD-STRING, used for IMSI and MSISDN): two digits per octet, the first
 * digit in the low nibble, an odd count padded with filler 0xF in the last high nibble. Nibbles
 * 0xA..0xE are the TBCD characters {@code * # a b c}.
 */
public final class GtpTbcd {

    private static final byte[] DIGITS = {
        '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#', 'a', 'b', 'c'};

    private GtpTbcd() {
    }

    /** Decodes {@code length} octets at {@code offset}; stops at the first filler nibble. */
    public static String decode(ByteBuf buf, int offset, int length) {
        // Per request on the director's path (the IMSI of every create): digits into one array,
        // then one String, without a StringBuilder's per-character checks.
        byte[] digits = new byte[length * 2];
        int n = 0;
        for (int i = 0; i < length; i++) {
            int b = buf.getUnsignedByte(offset + i);
            int low = b & 0x0F;
            int high = b >> 4;
            if (low == 0x0F) {
                break;
            }
            digits[n++] = DIGITS[low];
            if (high == 0x0F) {
                break;
            }
            digits[n++] = DIGITS[high];
        }
        return new String(digits, 0, n, StandardCharsets.ISO_8859_1);
    }

    public static String decode(byte[] bytes, int offset, int length) {
        return decode(Unpooled.wrappedBuffer(bytes), offset, length);
    }

    /** Encodes into exactly {@code octets} bytes, filling unused nibbles with 0xF. */
    public static byte[] encode(String digits, int octets) {
        if (digits.length() > octets * 2) {
            throw new IllegalArgumentException("too many digits for " + octets + " octets: " + digits);
        }
        byte[] out = new byte[octets];
        for (int i = 0; i < octets * 2; i++) {
            int nibble = i < digits.length() ? nibbleOf(digits.charAt(i)) : 0x0F;
            out[i / 2] |= (byte) ((i & 1) == 0 ? nibble : nibble << 4);
        }
        return out;
    }

    /** Encodes into the fewest octets ({@code (n + 1) / 2}). */
    public static byte[] encode(String digits) {
        return encode(digits, (digits.length() + 1) / 2);
    }

    private static int nibbleOf(char c) {
        for (int i = 0; i < DIGITS.length; i++) {
            if (DIGITS[i] == c) {
                return i;
            }
        }
        throw new IllegalArgumentException("not a TBCD digit: " + c);
    }
}
