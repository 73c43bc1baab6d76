package io.switchboard.codec.radius;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * A RADIUS attribute type (first octet of an attribute). An open value class: unnamed types are kept,
 * never rejected. Only the types a director reads or rewrites are named; the full list is the IANA
 * "RADIUS Attribute Types" registry.
 */
public final class RadiusAttributeType extends OctetCode implements Comparable<RadiusAttributeType> {

    private static final OctetCodes<RadiusAttributeType> CODES = new OctetCodes<>("RADIUS attribute type");

    public static final RadiusAttributeType USER_NAME = named(1, "User-Name");                   // RFC 2865 §5.1
    public static final RadiusAttributeType USER_PASSWORD = named(2, "User-Password");           // RFC 2865 §5.2
    public static final RadiusAttributeType CHAP_PASSWORD = named(3, "CHAP-Password");           // RFC 2865 §5.3
    public static final RadiusAttributeType NAS_IP_ADDRESS = named(4, "NAS-IP-Address");         // RFC 2865 §5.4
    public static final RadiusAttributeType NAS_PORT = named(5, "NAS-Port");                     // RFC 2865 §5.5
    public static final RadiusAttributeType SERVICE_TYPE = named(6, "Service-Type");             // RFC 2865 §5.6
    public static final RadiusAttributeType FRAMED_PROTOCOL = named(7, "Framed-Protocol");       // RFC 2865 §5.7
    public static final RadiusAttributeType FRAMED_IP_ADDRESS = named(8, "Framed-IP-Address");   // RFC 2865 §5.8
    public static final RadiusAttributeType REPLY_MESSAGE = named(18, "Reply-Message");          // RFC 2865 §5.18
    public static final RadiusAttributeType STATE = named(24, "State");                          // RFC 2865 §5.24
    public static final RadiusAttributeType CLASS = named(25, "Class");                          // RFC 2865 §5.25
    public static final RadiusAttributeType VENDOR_SPECIFIC = named(26, "Vendor-Specific");      // RFC 2865 §5.26
    public static final RadiusAttributeType SESSION_TIMEOUT = named(27, "Session-Timeout");      // RFC 2865 §5.27
    public static final RadiusAttributeType CALLED_STATION_ID = named(30, "Called-Station-Id");  // RFC 2865 §5.30
    public static final RadiusAttributeType CALLING_STATION_ID = named(31, "Calling-Station-Id"); // RFC 2865 §5.31
    public static final RadiusAttributeType NAS_IDENTIFIER = named(32, "NAS-Identifier");        // RFC 2865 §5.32
    public static final RadiusAttributeType PROXY_STATE = named(33, "Proxy-State");              // RFC 2865 §5.33
    public static final RadiusAttributeType ACCT_STATUS_TYPE = named(40, "Acct-Status-Type");    // RFC 2866 §5.1
    public static final RadiusAttributeType ACCT_SESSION_ID = named(44, "Acct-Session-Id");      // RFC 2866 §5.5
    public static final RadiusAttributeType CHAP_CHALLENGE = named(60, "CHAP-Challenge");        // RFC 2865 §5.40
    public static final RadiusAttributeType NAS_PORT_TYPE = named(61, "NAS-Port-Type");          // RFC 2865 §5.41
    public static final RadiusAttributeType EAP_MESSAGE = named(79, "EAP-Message");              // RFC 3579 §3.1
    public static final RadiusAttributeType MESSAGE_AUTHENTICATOR = named(80, "Message-Authenticator"); // RFC 3579 §3.2
    public static final RadiusAttributeType ERROR_CAUSE = named(101, "Error-Cause");             // RFC 5176 §3.5
    public static final RadiusAttributeType FRAMED_IPV6_PREFIX = named(97, "Framed-IPv6-Prefix"); // RFC 3162 §2.3
    public static final RadiusAttributeType DELEGATED_IPV6_PREFIX = named(123, "Delegated-IPv6-Prefix"); // RFC 4818 §3

    static {
        CODES.complete(value -> new RadiusAttributeType(value, "Attr-" + value, false));
    }

    private RadiusAttributeType(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static RadiusAttributeType named(int value, String name) {
        return CODES.define(new RadiusAttributeType(value, name, true));
    }

    /** The code with this value, named or not; never null for 0..255. */
    public static RadiusAttributeType valueOf(int value) {
        return CODES.of(value);
    }

    @Override
    public int compareTo(RadiusAttributeType o) {
        return Integer.compare(value(), o.value());
    }

    @Override
    public String toString() {
        return name() + "(" + value() + ")";
    }
}
