package io.switchboard.codec.radius;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * A RADIUS packet code (octet 0 of the header). An open value class: codes this class does not name
 * are still representable, because a director relays what it does not understand.
 */
public final class RadiusCode extends OctetCode implements Comparable<RadiusCode> {

    private static final OctetCodes<RadiusCode> CODES = new OctetCodes<>("RADIUS code");

    public static final RadiusCode ACCESS_REQUEST = named(1, "Access-Request");           // RFC 2865 §4.1
    public static final RadiusCode ACCESS_ACCEPT = named(2, "Access-Accept");             // RFC 2865 §4.2
    public static final RadiusCode ACCESS_REJECT = named(3, "Access-Reject");             // RFC 2865 §4.3
    public static final RadiusCode ACCOUNTING_REQUEST = named(4, "Accounting-Request");   // RFC 2866 §4.1
    public static final RadiusCode ACCOUNTING_RESPONSE = named(5, "Accounting-Response"); // RFC 2866 §4.2
    public static final RadiusCode ACCESS_CHALLENGE = named(11, "Access-Challenge");      // RFC 2865 §4.4
    public static final RadiusCode STATUS_SERVER = named(12, "Status-Server");            // RFC 2865 §3, RFC 5997
    public static final RadiusCode STATUS_CLIENT = named(13, "Status-Client");            // RFC 2865 §3
    public static final RadiusCode DISCONNECT_REQUEST = named(40, "Disconnect-Request");  // RFC 5176 §3.1
    public static final RadiusCode DISCONNECT_ACK = named(41, "Disconnect-ACK");          // RFC 5176 §3.1
    public static final RadiusCode DISCONNECT_NAK = named(42, "Disconnect-NAK");          // RFC 5176 §3.1
    public static final RadiusCode COA_REQUEST = named(43, "CoA-Request");                // RFC 5176 §3.2
    public static final RadiusCode COA_ACK = named(44, "CoA-ACK");                        // RFC 5176 §3.2
    public static final RadiusCode COA_NAK = named(45, "CoA-NAK");                        // RFC 5176 §3.2

    static {
        CODES.complete(value -> new RadiusCode(value, "Code-" + value, false));
    }

    private RadiusCode(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static RadiusCode named(int value, String name) {
        return CODES.define(new RadiusCode(value, name, true));
    }

    /** The code with this value, named or not; never null for 0..255. */
    public static RadiusCode valueOf(int value) {
        return CODES.of(value);
    }

    /**
     * Whether the Request Authenticator of this code is an MD5 over the packet (RFC 2866 §3,
     * RFC 5176 §2.3) rather than a random nonce (Access-Request, Status-Server).
     */
    public static boolean hasHashedRequestAuthenticator(int code) {
        return code == 4 || code == 40 || code == 43;
    }

    /**
     * Whether this code answers an Access-Request (Access-Accept, Access-Reject, Access-Challenge): the
     * answers BlastRADIUS forges, which must carry a Message-Authenticator (CVE-2024-3596).
     */
    public static boolean isAccessAnswer(int code) {
        return code == 2 || code == 3 || code == 11;
    }

    /**
     * Whether {@code answer} is a code that answers {@code request}: an Access-Request gets Access-Accept, -Reject
     * or -Challenge (RFC 2865 §4.1), an Accounting-Request an Accounting-Response (RFC 2866 §4.1), a Status-Server
     * either of Access-Accept and Accounting-Response (RFC 5997 §3), a Disconnect- or CoA-Request its ACK or NAK (RFC
     * 5176 §3.1, §3.2); any code for requests of other codes, which this cannot judge.
     */
    public static boolean answers(int request, int answer) {
        return switch (request) {
            case 1 -> isAccessAnswer(answer);
            case 4 -> answer == 5;
            case 12 -> answer == 2 || answer == 5;
            case 40 -> answer == 41 || answer == 42;
            case 43 -> answer == 44 || answer == 45;
            default -> true;
        };
    }

    /** Whether packets with this code are requests (their authenticator is not a response authenticator). */
    public static boolean isRequest(int code) {
        return code == 1 || code == 4 || code == 12 || code == 13 || code == 40 || code == 43;
    }

    @Override
    public int compareTo(RadiusCode o) {
        return Integer.compare(value(), o.value());
    }

    @Override
    public String toString() {
        return name() + "(" + value() + ")";
    }
}
