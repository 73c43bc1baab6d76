package io.switchboard.pcap;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipHeaderView;
import java.util.List;
import java.util.Locale;

/**
 * Makes many requests out of a few captured ones (load generation): the i-th request is template
 * {@code i mod templates}, with a fresh transaction id (GTP sequence number; RADIUS identifier and
 * Request Authenticator; Mobile IP Identification; R6 transaction id), and with each varied key field
 * rewritten to value {@code i mod K} — written over the field's last digits (or, for addresses and
 * MSIDs, its low bits), so that no length changes. RADIUS requests are signed again with
 * {@code secret} when one is given (Message-Authenticator, Accounting-Request authenticator); a
 * User-Password hidden with the captured authenticator is left as it is.
 *
 * <p>{@link #write} works in a buffer of the caller's, so that a load generator allocates nothing per
 * request but the RADIUS signature's digests.
 */
public final class Template {

    /**
     * What to vary and over how many values: {@code imsi:1000}, {@code username:50},
     * {@code calling-station-id:50}, {@code framed-ip:256}, {@code msid:1000}, {@code sequence:16}.
     */
    public record Variation(String field, int count) {

        static final List<String> FIELDS = List.of("imsi", "msid", "calling-station-id", "username", "framed-ip",
                "sequence");

        public static Variation parse(String text) {
            int colon = text.lastIndexOf(':');
            String field = colon < 0 ? text : text.substring(0, colon).toLowerCase(Locale.ROOT);
            if (!FIELDS.contains(field)) {
                throw new IllegalArgumentException("--vary " + text + ": can vary " + String.join(", ", FIELDS));
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

        /** Whether this field exists in requests of {@code protocol}. */
        boolean appliesTo(SignalingProtocol protocol) {
            if (protocol == null) {
                return false;
            }
            return switch (field) {
                case "imsi" -> protocol == SignalingProtocol.GTPV1 || protocol == SignalingProtocol.GTPV2;
                case "msid" -> protocol == SignalingProtocol.R6 || protocol == SignalingProtocol.MIP;
                case "sequence" -> true;
                default -> protocol == SignalingProtocol.RADIUS;
            };
        }
    }

    /** The largest request a template may be (RADIUS's maximum, TS/RFC limits of the others are below). */
    public static final int MAX_LENGTH = 65_535;

    private final List<Replay.Request> templates;
    private final SignalingProtocol protocol;
    private final List<Variation> variations;
    private final int sequenceValues;
    private final byte[] secret;

    /**
     * @param secret null to leave RADIUS signatures as captured
     * @throws IllegalArgumentException when a template lacks a field to vary, or it is too short
     */
    public Template(Replay.Requests requests, List<Variation> variations, byte[] secret) {
        this.templates = requests.requests();
        this.protocol = requests.protocol();
        this.variations = variations.stream().filter(v -> !v.field().equals("sequence")).toList();
        this.sequenceValues = variations.stream().filter(v -> v.field().equals("sequence"))
                .mapToInt(Variation::count).findFirst().orElse(0);
        this.secret = secret == null ? null : secret.clone();
        for (Variation v : variations) {
            if (!v.appliesTo(protocol)) {
                throw new IllegalArgumentException("--vary " + v.field() + " does not apply to "
                        + (protocol == null ? "this traffic" : protocol.label()));
            }
        }
        for (int i = 0; i < templates.size(); i++) {
            make(i); // every template can be varied: fail now, not in the middle of a run
        }
    }

    /** The i-th request, with transaction id {@code i}. */
    public byte[] make(int i) {
        byte[] p = new byte[templates.get(i % templates.size()).payload().length];
        write(i, i, p);
        return p;
    }

    /**
     * Writes the i-th request into {@code into} with transaction id {@code transaction} (over
     * {@code sequence:K}'s K values when given; else the protocol's whole id space), and returns its
     * length. A load generator numbers transactions per socket, so that each socket has the whole
     * id space.
     */
    public int write(int i, int transaction, byte[] into) {
        Replay.Request template = templates.get(i % templates.size());
        byte[] p = into;
        int length = template.payload().length;
        System.arraycopy(template.payload(), 0, p, 0, length);
        int id = sequenceValues > 0 ? Math.floorMod(transaction, sequenceValues) : transaction;
        try {
            switch (protocol == null ? SignalingProtocol.MIP : protocol) {
                case GTPV0 -> gtpV0(p, id);
                case GTPV1 -> gtpV1(p, length, i, id);
                case GTPV2 -> gtpV2(p, length, i, id);
                case RADIUS -> radius(p, length, i, id);
                case MIP -> {
                    if (protocol != null) {
                        mip(p, length, i, id);
                    }
                }
                case R6 -> r6(p, i, id);
            }
        } catch (DecodeException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("frame " + template.frame() + ": cannot vary this request: "
                    + e.getMessage());
        }
        return length;
    }

    private static void gtpV0(byte[] p, int id) {
        p[4] = (byte) (id >> 8); // GSM 09.60 §6: sequence number, octets 5-6
        p[5] = (byte) id;
    }

    private void gtpV2(byte[] p, int length, int i, int id) {
        boolean teid = (p[0] & 0x08) != 0;
        int seq = teid ? 8 : 4; // TS 29.274 §5.1: sequence after the TEID when T is set
        int n = id & 0xFFFFFF;
        p[seq] = (byte) (n >> 16);
        p[seq + 1] = (byte) (n >> 8);
        p[seq + 2] = (byte) n;
        int end = Math.min(length, 4 + (((p[2] & 0xFF) << 8) | (p[3] & 0xFF)));
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
            int ieLength = ((p[at + 1] & 0xFF) << 8) | (p[at + 2] & 0xFF);
            tbcd(p, at + 4, ieLength, i % v.count(), v.digits());
        }
    }

    private void gtpV1(byte[] p, int length, int i, int id) {
        int flags = p[0] & 0x07;
        if ((flags & 0x02) != 0) { // S flag: TS 29.060 §6
            p[8] = (byte) (id >> 8);
            p[9] = (byte) id;
        }
        int ie = flags != 0 ? 12 : 8;
        for (Variation v : variations) {
            if (ie + 9 > length || (p[ie] & 0xFF) != 2) { // IMSI, TV, 8 octets: the first IE when present
                throw new IndexOutOfBoundsException("no IMSI IE");
            }
            tbcd(p, ie + 1, 8, i % v.count(), v.digits());
        }
    }

    /** Writes {@code value} over the last {@code width} digits of the TBCD number at {@code at}. */
    private static void tbcd(byte[] p, int at, int length, int value, int width) {
        int digits = 0;
        for (int k = 0; k < length; k++) {
            digits += ((p[at + k] & 0x0F) <= 9 ? 1 : 0) + (((p[at + k] >> 4) & 0x0F) <= 9 ? 1 : 0);
        }
        if (digits < width) {
            throw new IndexOutOfBoundsException("IMSI of " + digits + " digits, need " + width);
        }
        // Digit d sits in octet d / 2, low nibble first (TS 29.274 §8.3, TS 29.060 §7.7.2); the
        // digits are contiguous from the first, a filler 0xF may follow the last.
        for (int d = digits - 1, left = width; left > 0; d--, left--) {
            int digit = value % 10;
            value /= 10;
            int octet = at + d / 2;
            p[octet] = (byte) ((d & 1) == 0 ? (p[octet] & 0xF0) | digit : (p[octet] & 0x0F) | (digit << 4));
        }
    }

    private void radius(byte[] p, int length, int i, int id) throws DecodeException {
        p[1] = (byte) id;
        if (!RadiusCode.hasHashedRequestAuthenticator(p[0] & 0xFF)) {
            // a fresh Request Authenticator: otherwise the director takes a reused identifier for a retransmission
            long x = 0x9E3779B97F4A7C15L * (i + 1);
            for (int k = 0; k < 16; k++) {
                x ^= x >>> 29;
                x *= 0xBF58476D1CE4E5B9L;
                p[4 + k] = (byte) (x >>> 56);
            }
        }
        RadiusView view = RadiusView.wrap(Unpooled.wrappedBuffer(p, 0, length));
        for (Variation v : variations) {
            int type = switch (v.field()) {
                case "username" -> 1;          // User-Name, RFC 2865 §5.1
                case "framed-ip" -> 8;         // Framed-IP-Address, RFC 2865 §5.8
                default -> 31;                 // Calling-Station-Id, RFC 2865 §5.31
            };
            int a = view.find(type);
            if (a < 0) {
                throw new IndexOutOfBoundsException("no " + v.field() + " attribute");
            }
            int at = view.base() + view.valueOffset(a);
            int valueLength = view.valueLength(a);
            if (type == 8) {
                if (valueLength != 4) {
                    throw new IndexOutOfBoundsException("a Framed-IP-Address of " + valueLength + " octets");
                }
                lowBits(p, at, 4, i % v.count(), v.count());
                continue;
            }
            int width = v.digits();
            if (valueLength < width) {
                throw new IndexOutOfBoundsException(v.field() + " shorter than " + width + " characters");
            }
            decimal(p, at + valueLength - width, width, i % v.count());
        }
        if (secret != null) {
            RadiusAuthenticators.signRequest(view, secret);
        }
    }

    /** Mobile IP: a fresh Identification (low 32 bits; RFC 5944 §5.7), MSID = the home address or, when 0, the MN-NAI. */
    private void mip(byte[] p, int length, int i, int id) throws DecodeException {
        MipHeaderView view = MipHeaderView.wrap(Unpooled.wrappedBuffer(p, 0, length));
        if (!view.isRequest()) {
            throw new IndexOutOfBoundsException("not a Registration Request");
        }
        int identification = MipHeaderView.REQUEST_LENGTH - 4; // RFC 5944 §3.3: the low half of the Identification
        p[identification] = (byte) (id >> 24);
        p[identification + 1] = (byte) (id >> 16);
        p[identification + 2] = (byte) (id >> 8);
        p[identification + 3] = (byte) id;
        for (Variation v : variations) {
            if (view.homeAddress() != 0) {
                lowBits(p, 4, 4, i % v.count(), v.count()); // RFC 5944 §3.3: Home Address, octets 5-8
                continue;
            }
            int e = view.findExtension(MipExtensionType.MN_NAI.value());
            if (e < 0) {
                throw new IndexOutOfBoundsException("neither a home address nor an MN-NAI extension to vary");
            }
            int at = view.extensionDataOffset(e);
            int naiLength = view.extensionDataLength(e);
            int user = naiLength;
            for (int k = 0; k < naiLength; k++) {
                if (p[at + k] == '@') {
                    user = k;
                    break;
                }
            }
            if (user < v.digits()) {
                throw new IndexOutOfBoundsException("an MN-NAI user part shorter than " + v.digits() + " characters");
            }
            decimal(p, at + user - v.digits(), v.digits(), i % v.count());
        }
    }

    /** R6: a fresh transaction id and the MSID's low bits (NWG Stage 3 header: MSID octets 7-12, TID 17-18). */
    private void r6(byte[] p, int i, int id) {
        p[16] = (byte) (id >> 8);
        p[17] = (byte) id;
        for (Variation v : variations) {
            lowBits(p, 6, 6, i % v.count(), v.count());
        }
    }

    /** Writes {@code value} over the bits of the {@code width}-octet number at {@code at} that {@code count} values need. */
    private static void lowBits(byte[] p, int at, int width, int value, int count) {
        int bits = 32 - Integer.numberOfLeadingZeros(Math.max(1, count - 1));
        for (int k = width - 1, shift = 0; k >= 0 && shift < bits; k--, shift += 8) {
            int keep = shift + 8 <= bits ? 0 : 0xFF << (bits - shift);
            p[at + k] = (byte) ((p[at + k] & keep) | ((value >>> shift) & ~keep & 0xFF));
        }
    }

    /** Writes {@code value} as {@code width} zero-padded ASCII digits at {@code at}. */
    private static void decimal(byte[] p, int at, int width, int value) {
        for (int k = width - 1; k >= 0; k--) {
            p[at + k] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
