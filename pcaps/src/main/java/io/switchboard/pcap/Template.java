package io.switchboard.pcap;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Makes many requests out of a few captured ones (load generation): the i-th request is template
 * {@code i mod templates}, with a fresh transaction id (GTP sequence number; RADIUS identifier and
 * Request Authenticator), and with each varied key field rewritten to value {@code i mod K} — written
 * over the field's last digits, so that no length changes. RADIUS requests are signed again with
 * {@code secret} when one is given (Message-Authenticator, Accounting-Request authenticator); a
 * User-Password hidden with the captured authenticator is left as it is.
 */
public final class Template {

    /** What to vary and over how many values: {@code imsi:1000}, {@code username:50}, {@code calling-station-id:50}. */
    public record Variation(String field, int count) {

        static final List<String> FIELDS = List.of("imsi", "username", "calling-station-id");

        public static Variation parse(String text) {
            int colon = text.lastIndexOf(':');
            String field = colon < 0 ? text : text.substring(0, colon).toLowerCase(Locale.ROOT);
            if (!FIELDS.contains(field)) {
                throw new IllegalArgumentException("--vary " + text + ": can vary " + String.join(", ", FIELDS)
                        + " (msid, framed-ip and sequence are not supported yet; every request gets a fresh transaction id anyway)");
            }
            int count;
            try {
                count = colon < 0 ? -1 : Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 1) {
                throw new IllegalArgumentException("--vary " + text + ": expected FIELD:K with K >= 1, e.g. imsi:1000");
            }
            return new Variation(field, count);
        }

        int digits() {
            return Integer.toString(Math.max(0, count - 1)).length();
        }
    }

    private final List<Replay.Request> templates;
    private final SignalingProtocol protocol;
    private final List<Variation> variations;
    private final byte[] secret;

    /**
     * @param secret null to leave RADIUS signatures as captured
     * @throws IllegalArgumentException when a template lacks a field to vary, or it is too short
     */
    public Template(Replay.Requests requests, List<Variation> variations, byte[] secret) {
        this.templates = requests.requests();
        this.protocol = requests.protocol();
        this.variations = List.copyOf(variations);
        this.secret = secret == null ? null : secret.clone();
        for (Variation v : variations) {
            boolean fits = switch (v.field()) {
                case "imsi" -> protocol == SignalingProtocol.GTPV1 || protocol == SignalingProtocol.GTPV2;
                default -> protocol == SignalingProtocol.RADIUS;
            };
            if (!fits) {
                throw new IllegalArgumentException("--vary " + v.field() + " does not apply to "
                        + (protocol == null ? "this traffic" : protocol.label()));
            }
        }
        for (int i = 0; i < templates.size(); i++) {
            make(i); // every template can be varied: fail now, not in the middle of a run
        }
    }

    /** The i-th request. */
    public byte[] make(int i) {
        Replay.Request template = templates.get(i % templates.size());
        byte[] p = template.payload().clone();
        try {
            switch (protocol == null ? SignalingProtocol.MIP : protocol) {
                case GTPV1 -> gtpV1(p, i);
                case GTPV2 -> gtpV2(p, i);
                case RADIUS -> radius(p, i);
                default -> {
                    // other protocols are sent as captured
                }
            }
        } catch (DecodeException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("frame " + template.frame() + ": cannot vary this request: "
                    + e.getMessage());
        }
        return p;
    }

    private void gtpV2(byte[] p, int i) {
        boolean teid = (p[0] & 0x08) != 0;
        int seq = teid ? 8 : 4;
        int n = i & 0xFFFFFF;
        p[seq] = (byte) (n >> 16);
        p[seq + 1] = (byte) (n >> 8);
        p[seq + 2] = (byte) n;
        int end = Math.min(p.length, 4 + (((p[2] & 0xFF) << 8) | (p[3] & 0xFF)));
        for (Variation v : variations) {
            int at = -1;
            for (int ie = seq + 4; ie + 4 <= end; ie += 4 + (((p[ie + 1] & 0xFF) << 8) | (p[ie + 2] & 0xFF))) {
                if ((p[ie] & 0xFF) == 1) { // IMSI, TS 29.274 §8.3
                    at = ie;
                    break;
                }
            }
            if (at < 0) {
                throw new IndexOutOfBoundsException("no IMSI IE");
            }
            int length = ((p[at + 1] & 0xFF) << 8) | (p[at + 2] & 0xFF);
            tbcd(p, at + 4, length, i % v.count(), v.digits());
        }
    }

    private void gtpV1(byte[] p, int i) {
        int flags = p[0] & 0x07;
        if ((flags & 0x02) != 0) { // S flag: TS 29.060 §6
            p[8] = (byte) (i >> 8);
            p[9] = (byte) i;
        }
        int ie = flags != 0 ? 12 : 8;
        for (Variation v : variations) {
            if (ie >= p.length || (p[ie] & 0xFF) != 2) { // IMSI, TV, 8 octets: the first IE when present
                throw new IndexOutOfBoundsException("no IMSI IE");
            }
            tbcd(p, ie + 1, 8, i % v.count(), v.digits());
        }
    }

    /** Writes {@code value} over the last {@code width} digits of the TBCD number at {@code at}. */
    private static void tbcd(byte[] p, int at, int length, int value, int width) {
        StringBuilder digits = new StringBuilder();
        for (int k = 0; k < length; k++) {
            int lo = p[at + k] & 0x0F;
            int hi = (p[at + k] >> 4) & 0x0F;
            if (lo <= 9) {
                digits.append((char) ('0' + lo));
            }
            if (hi <= 9) {
                digits.append((char) ('0' + hi));
            }
        }
        if (digits.length() < width) {
            throw new IndexOutOfBoundsException("IMSI of " + digits.length() + " digits, need " + width);
        }
        String v = String.format("%0" + width + "d", value);
        digits.replace(digits.length() - width, digits.length(), v);
        for (int k = 0, d = 0; k < length; k++, d += 2) {
            int lo = d < digits.length() ? digits.charAt(d) - '0' : 0x0F;
            int hi = d + 1 < digits.length() ? digits.charAt(d + 1) - '0' : 0x0F;
            p[at + k] = (byte) ((hi << 4) | lo);
        }
    }

    private void radius(byte[] p, int i) throws DecodeException {
        p[1] = (byte) i;
        if (!RadiusCode.hasHashedRequestAuthenticator(p[0] & 0xFF)) {
            // a fresh Request Authenticator: otherwise the director takes a reused identifier for a retransmission
            long x = 0x9E3779B97F4A7C15L * (i + 1);
            for (int k = 0; k < 16; k++) {
                x ^= x >>> 29;
                x *= 0xBF58476D1CE4E5B9L;
                p[4 + k] = (byte) (x >>> 56);
            }
        }
        RadiusView view = RadiusView.wrap(Unpooled.wrappedBuffer(p));
        for (Variation v : variations) {
            int type = v.field().equals("username") ? 1 : 31;
            int a = view.find(type);
            if (a < 0) {
                throw new IndexOutOfBoundsException("no " + v.field() + " attribute");
            }
            int width = v.digits();
            int length = view.valueLength(a);
            if (length < width) {
                throw new IndexOutOfBoundsException(v.field() + " shorter than " + width + " characters");
            }
            byte[] digits = String.format("%0" + width + "d", i % v.count()).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(digits, 0, p, view.base() + view.valueOffset(a) + length - width, width);
        }
        if (secret != null) {
            RadiusAuthenticators.signRequest(view, secret);
        }
    }
}
