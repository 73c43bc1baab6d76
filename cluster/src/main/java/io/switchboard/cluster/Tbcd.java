package io.switchboard.cluster;

import io.switchboard.director.sticky.StickyKey;

/**
 * Up to 15 decimal digits (an IMSI) packed as TBCD into a {@code long}: the bytes, most significant
 * first, are the GTP IMSI Information Element's (3GPP TS 29.274 §8.3): two digits per byte, the
 * first digit in the low nibble (TS 24.008 §10.5.1.4), unused nibbles 0xF — so the digit count,
 * leading zeros included, is kept. 15 digits leave the last nibble 0xF; the long is never 0.
 */
final class Tbcd {

    static final int MAX_DIGITS = 15;
    /** The sticky kind whose keys are IMSIs (the GTP and RADIUS plug-ins' {@code imsi}). */
    static final String IMSI_KIND = "imsi";

    private Tbcd() {
    }

    /**
     * The TBCD form of an IMSI key ({@code kind} {@value #IMSI_KIND}, 1 to 15 ASCII digits), 0 for any
     * other key. Reads the key in place: it runs on every lookup of the packet path.
     */
    static long imsi(StickyKey key) {
        int n = key.length();
        if (n == 0 || n > MAX_DIGITS || !key.kind().configName().equals(IMSI_KIND)) {
            return 0;
        }
        long packed = -1L;
        for (int i = 0; i < n; i++) {
            int digit = key.byteAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return 0;
            }
            int shift = nibbleShift(i);
            packed &= ~(0xFL << shift);
            packed |= (long) digit << shift;
        }
        return packed;
    }

    /** The ASCII digits of {@code packed}; refuses anything {@link #imsi} does not write. */
    static byte[] digits(long packed) {
        int n = 0;
        while (n < 16 && ((packed >>> nibbleShift(n)) & 0xF) != 0xF) {
            n++;
        }
        if (n == 0 || n > MAX_DIGITS) {
            throw new IllegalArgumentException("not a TBCD IMSI: " + Long.toHexString(packed));
        }
        byte[] ascii = new byte[n];
        for (int i = 0; i < n; i++) {
            int d = (int) ((packed >>> nibbleShift(i)) & 0xF);
            if (d > 9) {
                throw new IllegalArgumentException("not a TBCD IMSI: " + Long.toHexString(packed));
            }
            ascii[i] = (byte) ('0' + d);
        }
        for (int i = n; i < 16; i++) {
            if (((packed >>> nibbleShift(i)) & 0xF) != 0xF) {
                throw new IllegalArgumentException("not a TBCD IMSI (digits after the filler): "
                        + Long.toHexString(packed));
            }
        }
        return ascii;
    }

    /** Digit i sits in byte i / 2 (byte 0 the most significant), low nibble first. */
    private static int nibbleShift(int i) {
        return (7 - i / 2) * 8 + (i % 2) * 4;
    }
}
