package io.switchboard.codec.gtp.v0;

/**
 * GTPv0 message type (GSM 09.60 §7.1, Table 1). Open value class: every value 0..255 has an
 * instance, unknown ones are named {@code unknown(NN)} and kept raw.
 */
public final class GtpV0MessageType {

    private static final int REQUEST = 1;
    private static final int RESPONSE = 2;
    private static final int NOTIFICATION = 3;
    private static final int TUNNEL = 0x10;

    private static final GtpV0MessageType[] ALL = new GtpV0MessageType[256];

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
        for (int i = 0; i < ALL.length; i++) {
            if (ALL[i] == null) {
                ALL[i] = new GtpV0MessageType(i, "unknown(" + i + ")", 0, false);
            }
        }
    }

    private final int value;
    private final String name;
    private final int kind;
    private final boolean known;

    private GtpV0MessageType(int value, String name, int kind, boolean known) {
        this.value = value;
        this.name = name;
        this.kind = kind;
        this.known = known;
    }

    private static GtpV0MessageType define(int value, String name, int kind) {
        GtpV0MessageType type = new GtpV0MessageType(value, name, kind, true);
        ALL[value] = type;
        return type;
    }

    public static GtpV0MessageType of(int value) {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("message type out of range: " + value);
        }
        return ALL[value];
    }

    public int value() {
        return value;
    }

    public String name() {
        return name;
    }

    /** A type whose body is decoded as IEs (T-PDU and unknown types are kept raw). */
    public boolean isKnown() {
        return known && value != T_PDU.value;
    }

    public boolean isRequest() {
        return (kind & 0x0F) == REQUEST;
    }

    public boolean isResponse() {
        return (kind & 0x0F) == RESPONSE;
    }

    /** Create (AA) PDP Context Request: opens a tunnel, balanced with IMSI stickiness. */
    public boolean createsTunnel() {
        return (kind & TUNNEL) != 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
