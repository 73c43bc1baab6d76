package io.switchboard.codec.gtp.v1;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * GTPv1 information element type (TS 29.060 §7.7, Table 37). Types below 128 are TV with a length
 * fixed by the specification; 128 and above are TLV with a 2-octet length. An open value class:
 * every value 0..255 has an instance; {@link #tvLength()} is -1 for a TV type whose length is not
 * known, which the decoder must reject because it cannot skip it.
 */
public final class GtpV1IeType extends OctetCode {

    /** {@link #tvLength()} of a TLV type. */
    public static final int TLV = Integer.MIN_VALUE;

    private static final OctetCodes<GtpV1IeType> CODES = new OctetCodes<>("GTPv1 IE type");

    // TV types, TS 29.060 §7.7.x, value length in octets after the type octet
    public static final GtpV1IeType CAUSE = tv(1, "cause", 1);                            // §7.7.1
    public static final GtpV1IeType IMSI = tv(2, "imsi", 8);                              // §7.7.2
    public static final GtpV1IeType RAI = tv(3, "routeing-area-identity", 6);             // §7.7.3
    public static final GtpV1IeType TLLI = tv(4, "tlli", 4);                              // §7.7.4
    public static final GtpV1IeType P_TMSI = tv(5, "p-tmsi", 4);                          // §7.7.5
    public static final GtpV1IeType REORDERING_REQUIRED = tv(8, "reordering-required", 1); // §7.7.6
    public static final GtpV1IeType AUTHENTICATION_TRIPLET = tv(9, "authentication-triplet", 28); // §7.7.7
    public static final GtpV1IeType MAP_CAUSE = tv(11, "map-cause", 1);                    // §7.7.8
    public static final GtpV1IeType P_TMSI_SIGNATURE = tv(12, "p-tmsi-signature", 3);      // §7.7.9
    public static final GtpV1IeType MS_VALIDATED = tv(13, "ms-validated", 1);              // §7.7.10
    public static final GtpV1IeType RECOVERY = tv(14, "recovery", 1);                      // §7.7.11
    public static final GtpV1IeType SELECTION_MODE = tv(15, "selection-mode", 1);          // §7.7.12
    public static final GtpV1IeType TEID_DATA_I = tv(16, "teid-data-i", 4);                // §7.7.13
    public static final GtpV1IeType TEID_CONTROL_PLANE = tv(17, "teid-control-plane", 4);  // §7.7.14
    public static final GtpV1IeType TEID_DATA_II = tv(18, "teid-data-ii", 5);              // §7.7.15
    public static final GtpV1IeType TEARDOWN_IND = tv(19, "teardown-ind", 1);              // §7.7.16
    public static final GtpV1IeType NSAPI = tv(20, "nsapi", 1);                            // §7.7.17
    public static final GtpV1IeType RANAP_CAUSE = tv(21, "ranap-cause", 1);                // §7.7.18
    public static final GtpV1IeType RAB_CONTEXT = tv(22, "rab-context", 9);                // §7.7.19
    public static final GtpV1IeType RADIO_PRIORITY_SMS = tv(23, "radio-priority-sms", 1);  // §7.7.20
    public static final GtpV1IeType RADIO_PRIORITY = tv(24, "radio-priority", 1);          // §7.7.21
    public static final GtpV1IeType PACKET_FLOW_ID = tv(25, "packet-flow-id", 2);          // §7.7.22
    public static final GtpV1IeType CHARGING_CHARACTERISTICS = tv(26, "charging-characteristics", 2); // §7.7.23
    public static final GtpV1IeType TRACE_REFERENCE = tv(27, "trace-reference", 2);        // §7.7.24
    public static final GtpV1IeType TRACE_TYPE = tv(28, "trace-type", 2);                  // §7.7.25
    public static final GtpV1IeType MS_NOT_REACHABLE_REASON = tv(29, "ms-not-reachable-reason", 1); // §7.7.25A
    public static final GtpV1IeType CHARGING_ID = tv(127, "charging-id", 4);               // §7.7.26
    // TLV types
    public static final GtpV1IeType END_USER_ADDRESS = tlv(128, "end-user-address");       // §7.7.27
    public static final GtpV1IeType MM_CONTEXT = tlv(129, "mm-context");                   // §7.7.28
    public static final GtpV1IeType PDP_CONTEXT = tlv(130, "pdp-context");                 // §7.7.29
    public static final GtpV1IeType APN = tlv(131, "access-point-name");                   // §7.7.30
    public static final GtpV1IeType PCO = tlv(132, "protocol-configuration-options");      // §7.7.31
    public static final GtpV1IeType GSN_ADDRESS = tlv(133, "gsn-address");                 // §7.7.32
    public static final GtpV1IeType MSISDN = tlv(134, "msisdn");                           // §7.7.33
    public static final GtpV1IeType QOS_PROFILE = tlv(135, "qos-profile");                 // §7.7.34
    public static final GtpV1IeType TFT = tlv(137, "traffic-flow-template");               // §7.7.36
    public static final GtpV1IeType COMMON_FLAGS = tlv(148, "common-flags");               // §7.7.48
    public static final GtpV1IeType RAT_TYPE = tlv(151, "rat-type");                       // §7.7.50
    public static final GtpV1IeType USER_LOCATION_INFORMATION = tlv(152, "user-location-information"); // §7.7.51
    public static final GtpV1IeType MS_TIME_ZONE = tlv(153, "ms-time-zone");               // §7.7.52
    public static final GtpV1IeType IMEI_SV = tlv(154, "imei-sv");                         // §7.7.53
    public static final GtpV1IeType CHARGING_GATEWAY_ADDRESS = tlv(251, "charging-gateway-address"); // §7.7.44
    public static final GtpV1IeType PRIVATE_EXTENSION = tlv(255, "private-extension");     // §7.7.46

    static {
        CODES.complete(value -> new GtpV1IeType(value, "unknown(" + value + ")", value >= 128 ? TLV : -1, false));
    }

    private final int tvLength;

    private GtpV1IeType(int value, String name, int tvLength, boolean named) {
        super(value, name, named);
        this.tvLength = tvLength;
    }

    private static GtpV1IeType tv(int value, String name, int length) {
        return CODES.define(new GtpV1IeType(value, name, length, true));
    }

    private static GtpV1IeType tlv(int value, String name) {
        return CODES.define(new GtpV1IeType(value, name, TLV, true));
    }

    public static GtpV1IeType of(int value) {
        return CODES.of(value);
    }

    /** The fixed value length of a TV type, -1 if unknown; {@link #TLV} for TLV types. */
    public static int tvLength(int type) {
        return CODES.of(type).tvLength;
    }

    public boolean isTlv() {
        return value() >= 128;
    }

    public int tvLength() {
        return tvLength;
    }
}
