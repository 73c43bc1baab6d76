package io.switchboard.codec.gtp.v2;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * GTPv2-C information element type (TS 29.274 §8.1, Table 8.1-1). Every IE is TLV (type 1, length
 * 2, spare and instance 1), so an unknown type can always be skipped. Open value class.
 */
public final class GtpV2IeType extends OctetCode {

    private static final OctetCodes<GtpV2IeType> CODES = new OctetCodes<>("GTPv2 IE type");

    public static final GtpV2IeType IMSI = define(1, "imsi");                          // §8.3
    public static final GtpV2IeType CAUSE = define(2, "cause");                        // §8.4
    public static final GtpV2IeType RECOVERY = define(3, "recovery");                  // §8.5
    public static final GtpV2IeType APN = define(71, "apn");                           // §8.6
    public static final GtpV2IeType AMBR = define(72, "ambr");                         // §8.7
    public static final GtpV2IeType EBI = define(73, "ebi");                           // §8.8
    public static final GtpV2IeType IP_ADDRESS = define(74, "ip-address");             // §8.9
    public static final GtpV2IeType MEI = define(75, "mei");                           // §8.10
    public static final GtpV2IeType MSISDN = define(76, "msisdn");                     // §8.11
    public static final GtpV2IeType INDICATION = define(77, "indication");             // §8.12
    public static final GtpV2IeType PCO = define(78, "pco");                           // §8.13
    public static final GtpV2IeType PAA = define(79, "paa");                           // §8.14
    public static final GtpV2IeType BEARER_QOS = define(80, "bearer-qos");             // §8.15
    public static final GtpV2IeType FLOW_QOS = define(81, "flow-qos");                 // §8.16
    public static final GtpV2IeType RAT_TYPE = define(82, "rat-type");                 // §8.17
    public static final GtpV2IeType SERVING_NETWORK = define(83, "serving-network");   // §8.18
    public static final GtpV2IeType BEARER_TFT = define(84, "bearer-tft");             // §8.19
    public static final GtpV2IeType TAD = define(85, "traffic-aggregate-description"); // §8.20
    public static final GtpV2IeType ULI = define(86, "user-location-information");     // §8.21
    public static final GtpV2IeType F_TEID = define(87, "f-teid");                     // §8.22
    public static final GtpV2IeType TMSI = define(88, "tmsi");                         // §8.23
    public static final GtpV2IeType BEARER_CONTEXT = define(93, "bearer-context");     // §8.28
    public static final GtpV2IeType CHARGING_ID = define(94, "charging-id");           // §8.29
    public static final GtpV2IeType CHARGING_CHARACTERISTICS = define(95, "charging-characteristics"); // §8.30
    public static final GtpV2IeType BEARER_FLAGS = define(97, "bearer-flags");         // §8.32
    public static final GtpV2IeType PDN_TYPE = define(99, "pdn-type");                 // §8.34
    public static final GtpV2IeType PTI = define(100, "procedure-transaction-id");     // §8.35
    public static final GtpV2IeType PDN_CONNECTION = define(109, "pdn-connection");    // §8.39
    public static final GtpV2IeType UE_TIME_ZONE = define(114, "ue-time-zone");        // §8.44
    public static final GtpV2IeType APN_RESTRICTION = define(127, "apn-restriction");  // §8.57
    public static final GtpV2IeType SELECTION_MODE = define(128, "selection-mode");    // §8.58
    public static final GtpV2IeType FQ_CSID = define(132, "fq-csid");                  // §8.62
    public static final GtpV2IeType EPC_TIMER = define(156, "epc-timer");              // §8.87
    public static final GtpV2IeType OVERLOAD_CONTROL_INFORMATION = define(180, "overload-control-information"); // §8.111
    public static final GtpV2IeType LOAD_CONTROL_INFORMATION = define(181, "load-control-information"); // §8.112
    public static final GtpV2IeType METRIC = define(182, "metric");                    // §8.113
    public static final GtpV2IeType SEQUENCE_NUMBER = define(183, "sequence-number");  // §8.114
    public static final GtpV2IeType APN_AND_RELATIVE_CAPACITY = define(184, "apn-and-relative-capacity"); // §8.115
    public static final GtpV2IeType PRIVATE_EXTENSION = define(255, "private-extension"); // §8.67

    static {
        CODES.complete(value -> new GtpV2IeType(value, "unknown(" + value + ")", false));
    }

    private GtpV2IeType(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static GtpV2IeType define(int value, String name) {
        return CODES.define(new GtpV2IeType(value, name, true));
    }

    public static GtpV2IeType of(int value) {
        return CODES.of(value);
    }
}
