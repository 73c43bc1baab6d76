package io.switchboard.codec.gtp.v0;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * GTPv0 information element type (GSM 09.60 §7.9, Table 8). Same TV/TLV layout as GTPv1, but a
 * different TV length table: 6 is the GPRS QoS profile, 16/17/18 are flow labels (2, 2 and 3
 * octets), not TEIDs. An unknown TV type (length -1) cannot be skipped and is rejected.
 */
public final class GtpV0IeType extends OctetCode {

    /** {@link #tvLength()} of a TLV type. */
    public static final int TLV = Integer.MIN_VALUE;

    private static final OctetCodes<GtpV0IeType> CODES = new OctetCodes<>("GTPv0 IE type");

    // TV, GSM 09.60 §7.9.x, value length after the type octet
    public static final GtpV0IeType CAUSE = tv(1, "cause", 1);                             // §7.9.1
    public static final GtpV0IeType IMSI = tv(2, "imsi", 8);                               // §7.9.2
    public static final GtpV0IeType RAI = tv(3, "routeing-area-identity", 6);              // §7.9.3
    public static final GtpV0IeType TLLI = tv(4, "tlli", 4);                               // §7.9.4
    public static final GtpV0IeType P_TMSI = tv(5, "p-tmsi", 4);                           // §7.9.5
    public static final GtpV0IeType QOS_PROFILE = tv(6, "qos-profile", 3);                 // §7.9.6
    public static final GtpV0IeType REORDERING_REQUIRED = tv(8, "reordering-required", 1); // §7.9.7
    public static final GtpV0IeType AUTHENTICATION_TRIPLET = tv(9, "authentication-triplet", 28); // §7.9.8
    public static final GtpV0IeType MAP_CAUSE = tv(11, "map-cause", 1);                    // §7.9.9
    public static final GtpV0IeType P_TMSI_SIGNATURE = tv(12, "p-tmsi-signature", 3);      // §7.9.10
    public static final GtpV0IeType MS_VALIDATED = tv(13, "ms-validated", 1);              // §7.9.11
    public static final GtpV0IeType RECOVERY = tv(14, "recovery", 1);                      // §7.9.12
    public static final GtpV0IeType SELECTION_MODE = tv(15, "selection-mode", 1);          // §7.9.13
    public static final GtpV0IeType FLOW_LABEL_DATA_I = tv(16, "flow-label-data-i", 2);    // §7.9.14
    public static final GtpV0IeType FLOW_LABEL_SIGNALLING = tv(17, "flow-label-signalling", 2); // §7.9.15
    public static final GtpV0IeType FLOW_LABEL_DATA_II = tv(18, "flow-label-data-ii", 3);  // §7.9.16
    public static final GtpV0IeType MS_NOT_REACHABLE_REASON = tv(19, "ms-not-reachable-reason", 1); // §7.9.17
    public static final GtpV0IeType CHARGING_ID = tv(127, "charging-id", 4);               // §7.9.18
    // TLV
    public static final GtpV0IeType END_USER_ADDRESS = tlv(128, "end-user-address");       // §7.9.19
    public static final GtpV0IeType MM_CONTEXT = tlv(129, "mm-context");                   // §7.9.20
    public static final GtpV0IeType PDP_CONTEXT = tlv(130, "pdp-context");                 // §7.9.21
    public static final GtpV0IeType APN = tlv(131, "access-point-name");                   // §7.9.22
    public static final GtpV0IeType PCO = tlv(132, "protocol-configuration-options");      // §7.9.23
    public static final GtpV0IeType GSN_ADDRESS = tlv(133, "gsn-address");                 // §7.9.24
    public static final GtpV0IeType MSISDN = tlv(134, "msisdn");                           // §7.9.25
    public static final GtpV0IeType CHARGING_GATEWAY_ADDRESS = tlv(251, "charging-gateway-address"); // §7.9.26
    public static final GtpV0IeType PRIVATE_EXTENSION = tlv(255, "private-extension");     // §7.9.27

    static {
        CODES.complete(value -> new GtpV0IeType(value, "unknown(" + value + ")", value >= 128 ? TLV : -1, false));
    }

    private final int tvLength;

    private GtpV0IeType(int value, String name, int tvLength, boolean named) {
        super(value, name, named);
        this.tvLength = tvLength;
    }

    private static GtpV0IeType tv(int value, String name, int length) {
        return CODES.define(new GtpV0IeType(value, name, length, true));
    }

    private static GtpV0IeType tlv(int value, String name) {
        return CODES.define(new GtpV0IeType(value, name, TLV, true));
    }

    public static GtpV0IeType of(int value) {
        return CODES.of(value);
    }

    /** The fixed value length of a TV type, -1 if unknown; {@link #TLV} for TLV types. */
    public static int tvLength(int type) {
        return CODES.of(type).tvLength;
    }

    public int tvLength() {
        return tvLength;
    }
}
