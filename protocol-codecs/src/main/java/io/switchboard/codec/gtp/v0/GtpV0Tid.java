package io.switchboard.codec.gtp.v0;

/**
 * The GTPv0 Tunnel Identifier (GSM 09.60 §6): 15 IMSI digits in TBCD and a 4-bit NSAPI in 8
 * octets, in either {@link GtpV0TidOrder}. The TID is handled as the big-endian {@code long} of its
 * 8 wire octets, so reading it costs no allocation.
 */
public final class GtpV0Tid {

    private GtpV0Tid() {
    }

    /** Wire octet {@code index} (0..7) of {@code tid}. */
    private static int octet(long tid, int index) {
        return (int) (tid >>> (56 - 8 * index)) & 0xFF;
    }

    /** The IMSI digits of {@code tid}; digits stop at the first filler (0xF) nibble. */
    public static String imsi(long tid, GtpV0TidOrder order) {
        StringBuilder digits = new StringBuilder(15);
        for (int i = 0; i < 15; i++) {
            int b = octet(tid, order.octet(i / 2));
            int nibble = (i & 1) == 0 ? b & 0x0F : b >> 4;
            if (nibble == 0x0F) {
                break;
            }
            digits.append(Character.forDigit(nibble, 16));
        }
        return digits.toString();
    }

    public static int nsapi(long tid, GtpV0TidOrder order) {
        return octet(tid, order.octet(7)) >> 4;
    }

    /** The TID for {@code imsi} (up to 15 digits, filler-padded) and {@code nsapi}. */
    public static long of(String imsi, int nsapi, GtpV0TidOrder order) {
        if (imsi.length() > 15 || nsapi < 0 || nsapi > 15) {
            throw new IllegalArgumentException("IMSI of at most 15 digits and NSAPI 0..15 expected");
        }
        long tid = 0;
        for (int i = 0; i < 16; i++) {
            int nibble = i == 15 ? nsapi : i < imsi.length() ? Character.digit(imsi.charAt(i), 10) : 0x0F;
            if (nibble < 0) {
                throw new IllegalArgumentException("not a digit in IMSI " + imsi);
            }
            int octet = order.octet(i / 2);
            int shift = 56 - 8 * octet + ((i & 1) == 0 ? 0 : 4);
            tid |= (long) nibble << shift;
        }
        return tid;
    }
}
