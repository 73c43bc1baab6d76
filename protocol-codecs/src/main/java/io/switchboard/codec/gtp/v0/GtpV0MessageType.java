package io.switchboard.codec.gtp.v0;

import io.switchboard.codec.OctetCodes;
import io.switchboard.codec.gtp.GtpMessageTypeCode;

/**
 * GTPv0 message type (GSM 09.60 §7.1, Table 1). Open value class: every value 0..255 has an
 * instance, unknown ones are named {@code unknown(NN)} and kept raw.
 */
public final class GtpV0MessageType extends GtpMessageTypeCode {

    private static final OctetCodes<GtpV0MessageType> CODES = new OctetCodes<>("GTPv0 message type");

    // GSM 09.60 §7.4 path management
    public static final GtpV0MessageType ECHO_REQUEST = define(1, "echo-request", REQUEST);
    public static final GtpV0MessageType ECHO_RESPONSE = define(2, "echo-response", RESPONSE);
    public static final GtpV0MessageType VERSION_NOT_SUPPORTED = define(3, "version-not-supported", NOTIFICATION);
    // GSM 09.60 §7.5 tunnel management
    public static final GtpV0MessageType CREATE_PDP_CONTEXT_REQUEST =
            define(16, "create-pdp-context-request", REQUEST | TUNNEL);
    public static final GtpV0MessageType CREATE_PDP_CONTEXT_RESPONSE = define(17, "create-pdp-context-response", RESPONSE);
    public static final GtpV0MessageType UPDATE_PDP_CONTEXT_REQUEST = define(18, "update-pdp-context-request", REQUEST);
    public static final GtpV0MessageType UPDATE_PDP_CONTEXT_RESPONSE = define(19, "update-pdp-context-response", RESPONSE);
    public static final GtpV0MessageType DELETE_PDP_CONTEXT_REQUEST = define(20, "delete-pdp-context-request", REQUEST);
    public static final GtpV0MessageType DELETE_PDP_CONTEXT_RESPONSE = define(21, "delete-pdp-context-response", RESPONSE);
    public static final GtpV0MessageType CREATE_AA_PDP_CONTEXT_REQUEST =
            define(22, "create-aa-pdp-context-request", REQUEST | TUNNEL);
    public static final GtpV0MessageType CREATE_AA_PDP_CONTEXT_RESPONSE =
            define(23, "create-aa-pdp-context-response", RESPONSE);
    public static final GtpV0MessageType DELETE_AA_PDP_CONTEXT_REQUEST =
            define(24, "delete-aa-pdp-context-request", REQUEST);
    public static final GtpV0MessageType DELETE_AA_PDP_CONTEXT_RESPONSE =
            define(25, "delete-aa-pdp-context-response", RESPONSE);
    public static final GtpV0MessageType ERROR_INDICATION = define(26, "error-indication", NOTIFICATION);
    public static final GtpV0MessageType PDU_NOTIFICATION_REQUEST = define(27, "pdu-notification-request", REQUEST);
    public static final GtpV0MessageType PDU_NOTIFICATION_RESPONSE = define(28, "pdu-notification-response", RESPONSE);
    public static final GtpV0MessageType PDU_NOTIFICATION_REJECT_REQUEST =
            define(29, "pdu-notification-reject-request", REQUEST);
    public static final GtpV0MessageType PDU_NOTIFICATION_REJECT_RESPONSE =
            define(30, "pdu-notification-reject-response", RESPONSE);
    // GSM 09.60 §7.6/§7.7 location and mobility management
    public static final GtpV0MessageType SEND_ROUTEING_INFO_REQUEST = define(32, "send-routeing-info-request", REQUEST);
    public static final GtpV0MessageType SEND_ROUTEING_INFO_RESPONSE = define(33, "send-routeing-info-response", RESPONSE);
    public static final GtpV0MessageType SGSN_CONTEXT_REQUEST = define(50, "sgsn-context-request", REQUEST);
    public static final GtpV0MessageType SGSN_CONTEXT_RESPONSE = define(51, "sgsn-context-response", RESPONSE);
    public static final GtpV0MessageType SGSN_CONTEXT_ACKNOWLEDGE = define(52, "sgsn-context-acknowledge", NOTIFICATION);
    // GSM 09.60 §8: user data, not IEs
    public static final GtpV0MessageType T_PDU = define(255, "t-pdu", 0);

    static {
        CODES.complete(value -> new GtpV0MessageType(value, "unknown(" + value + ")", 0, false));
    }

    private GtpV0MessageType(int value, String name, int kind, boolean named) {
        super(value, name, kind, named);
    }

    private static GtpV0MessageType define(int value, String name, int kind) {
        return CODES.define(new GtpV0MessageType(value, name, kind, true));
    }

    /** The type with this wire value (0..255); never {@code null}, never throws for an unknown value. */
    public static GtpV0MessageType of(int value) {
        return CODES.of(value);
    }

    /** A type this codec knows; its body is decoded as information elements, an unknown one is kept raw. */
    public boolean isKnown() {
        return isNamed() && value() != T_PDU.value();
    }
}
