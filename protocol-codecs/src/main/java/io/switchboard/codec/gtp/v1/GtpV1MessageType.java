package io.switchboard.codec.gtp.v1;

import io.switchboard.codec.OctetCodes;
import io.switchboard.codec.gtp.GtpMessageTypeCode;

/**
 * GTPv1 message type (TS 29.060 §7.1 Table 1). An open value class: every value 0..255 has an
 * instance, unknown ones are named {@code unknown(NN)} and never rejected.
 */
public final class GtpV1MessageType extends GtpMessageTypeCode {

    private static final OctetCodes<GtpV1MessageType> CODES = new OctetCodes<>("GTPv1 message type");

    // TS 29.060 §7.2 path management
    public static final GtpV1MessageType ECHO_REQUEST = define(1, "echo-request", REQUEST);
    public static final GtpV1MessageType ECHO_RESPONSE = define(2, "echo-response", RESPONSE);
    public static final GtpV1MessageType VERSION_NOT_SUPPORTED = define(3, "version-not-supported", NOTIFICATION);
    public static final GtpV1MessageType NODE_ALIVE_REQUEST = define(4, "node-alive-request", REQUEST);
    public static final GtpV1MessageType NODE_ALIVE_RESPONSE = define(5, "node-alive-response", RESPONSE);
    public static final GtpV1MessageType REDIRECTION_REQUEST = define(6, "redirection-request", REQUEST);
    public static final GtpV1MessageType REDIRECTION_RESPONSE = define(7, "redirection-response", RESPONSE);
    // TS 29.060 §7.3 tunnel management
    public static final GtpV1MessageType CREATE_PDP_CONTEXT_REQUEST =
            define(16, "create-pdp-context-request", REQUEST | TUNNEL);
    public static final GtpV1MessageType CREATE_PDP_CONTEXT_RESPONSE = define(17, "create-pdp-context-response", RESPONSE);
    public static final GtpV1MessageType UPDATE_PDP_CONTEXT_REQUEST = define(18, "update-pdp-context-request", REQUEST);
    public static final GtpV1MessageType UPDATE_PDP_CONTEXT_RESPONSE = define(19, "update-pdp-context-response", RESPONSE);
    public static final GtpV1MessageType DELETE_PDP_CONTEXT_REQUEST = define(20, "delete-pdp-context-request", REQUEST);
    public static final GtpV1MessageType DELETE_PDP_CONTEXT_RESPONSE = define(21, "delete-pdp-context-response", RESPONSE);
    public static final GtpV1MessageType INITIATE_PDP_CONTEXT_ACTIVATION_REQUEST =
            define(22, "initiate-pdp-context-activation-request", REQUEST);
    public static final GtpV1MessageType INITIATE_PDP_CONTEXT_ACTIVATION_RESPONSE =
            define(23, "initiate-pdp-context-activation-response", RESPONSE);
    public static final GtpV1MessageType ERROR_INDICATION = define(26, "error-indication", NOTIFICATION);
    public static final GtpV1MessageType PDU_NOTIFICATION_REQUEST = define(27, "pdu-notification-request", REQUEST);
    public static final GtpV1MessageType PDU_NOTIFICATION_RESPONSE = define(28, "pdu-notification-response", RESPONSE);
    public static final GtpV1MessageType PDU_NOTIFICATION_REJECT_REQUEST =
            define(29, "pdu-notification-reject-request", REQUEST);
    public static final GtpV1MessageType PDU_NOTIFICATION_REJECT_RESPONSE =
            define(30, "pdu-notification-reject-response", RESPONSE);
    public static final GtpV1MessageType SUPPORTED_EXTENSION_HEADERS_NOTIFICATION =
            define(31, "supported-extension-headers-notification", NOTIFICATION);
    // TS 29.060 §7.4 location management
    public static final GtpV1MessageType SEND_ROUTING_INFO_REQUEST = define(32, "send-routing-info-request", REQUEST);
    public static final GtpV1MessageType SEND_ROUTING_INFO_RESPONSE = define(33, "send-routing-info-response", RESPONSE);
    // TS 29.060 §7.5 mobility management
    public static final GtpV1MessageType IDENTIFICATION_REQUEST = define(48, "identification-request", REQUEST);
    public static final GtpV1MessageType IDENTIFICATION_RESPONSE = define(49, "identification-response", RESPONSE);
    public static final GtpV1MessageType SGSN_CONTEXT_REQUEST = define(50, "sgsn-context-request", REQUEST);
    public static final GtpV1MessageType SGSN_CONTEXT_RESPONSE = define(51, "sgsn-context-response", RESPONSE);
    public static final GtpV1MessageType SGSN_CONTEXT_ACKNOWLEDGE = define(52, "sgsn-context-acknowledge", NOTIFICATION);
    // TS 29.060 §9 (GTP-U), not balanced but seen on shared captures
    public static final GtpV1MessageType END_MARKER = define(254, "end-marker", 0);
    public static final GtpV1MessageType T_PDU = define(255, "t-pdu", 0);

    static {
        CODES.complete(value -> new GtpV1MessageType(value, "unknown(" + value + ")", 0, false));
    }

    private GtpV1MessageType(int value, String name, int kind, boolean named) {
        super(value, name, kind, named);
    }

    private static GtpV1MessageType define(int value, String name, int kind) {
        return CODES.define(new GtpV1MessageType(value, name, kind, true));
    }

    /** The type with this wire value (0..255); never {@code null}, never throws for an unknown value. */
    public static GtpV1MessageType of(int value) {
        return CODES.of(value);
    }

    /** A type this codec knows; its body is decoded as information elements, an unknown one is kept raw. */
    public boolean isKnown() {
        return isNamed() && value() != T_PDU.value() && value() != END_MARKER.value();
    }
}
