package io.switchboard.codec.gtp;

import java.nio.charset.StandardCharsets;

/**
 * Access Point Name encoding (TS 23.003 §9.1, as in DNS): a sequence of length-prefixed labels,
 * exposed as the dotted string ("internet.mnc001.mcc001.gprs"). Some equipment sends the name as
 * plain text without label lengths; {@link #decode} returns {@code null} for anything that is not a
 * clean label sequence so the caller keeps the raw bytes.
 */
public final class GtpApn {

    /** RFC 1035 §2.3.4: labels are 63 octets or less. */
    private static final int MAX_LABEL = 63;

    private GtpApn() {
    }

    /** The dotted name, or {@code null} if the bytes are not a well-formed label sequence. */
    public static String decode(byte[] value) {
        StringBuilder name = new StringBuilder(value.length);
        int i = 0;
        while (i < value.length) {
            int labelLength = value[i] & 0xFF;
            // A label is 1 to 63 octets (TS 23.003 §9.1 encodes the APN as DNS labels, RFC 1035 §2.3.4); a longer
            // one is no label sequence, and encode would refuse the name (the gtp-ies fuzz target's rule: an APN
            // that decodes re-encodes to its bytes; the GTPv2 model threw IllegalArgumentException on one).
            if (labelLength == 0 || labelLength > MAX_LABEL || i + 1 + labelLength > value.length) {
                return null;
            }
            for (int j = i + 1; j <= i + labelLength; j++) {
                int c = value[j] & 0xFF;
                if (c == '.' || c < 0x21 || c > 0x7E) {
                    return null;
                }
            }
            if (name.length() > 0) {
                name.append('.');
            }
            name.append(new String(value, i + 1, labelLength, StandardCharsets.US_ASCII));
            i += 1 + labelLength;
        }
        return name.toString();
    }

    public static byte[] encode(String dotted) {
        if (dotted.isEmpty()) {
            return new byte[0];
        }
        String[] labels = dotted.split("\\.", -1);
        int size = 0;
        for (String label : labels) {
            if (label.isEmpty() || label.length() > MAX_LABEL) {
                throw new IllegalArgumentException("bad APN label in " + dotted);
            }
            size += 1 + label.length();
        }
        byte[] out = new byte[size];
        int i = 0;
        for (String label : labels) {
            out[i++] = (byte) label.length();
            byte[] ascii = label.getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(ascii, 0, out, i, ascii.length);
            i += ascii.length;
        }
        return out;
    }
}
