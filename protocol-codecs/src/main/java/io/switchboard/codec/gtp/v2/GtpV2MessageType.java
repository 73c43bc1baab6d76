package io.switchboard.codec.gtp.v2;

import io.switchboard.codec.OctetCodes;
import io.switchboard.codec.gtp.GtpMessageTypeCode;

/**
 * GTPv2-C message type (TS 29.274 §6.1, Table 6.1-1). An open value class: every value 0..255 has
 * an instance, unknown ones are named {@code unknown(NN)} and kept raw by the codec.
 */
public final class GtpV2MessageType extends GtpMessageTypeCode {

    private static final OctetCodes<GtpV2MessageType> CODES = new OctetCodes<>("GTPv2 message type");

    // TS 29.274 §7.1 path management
    public static final GtpV2MessageType ECHO_REQUEST = define(1, "echo-request", REQUEST);
    public static final GtpV2MessageType ECHO_RESPONSE = define(2, "echo-response", RESPONSE);
    public static final GtpV2MessageType VERSION_NOT_SUPPORTED = define(3, "version-not-supported", NOTIFICATION);
    // TS 29.274 §7.2 tunnel management
    public static final GtpV2MessageType CREATE_SESSION_REQUEST = define(32, "create-session-request", REQUEST | TUNNEL);
    public static final GtpV2MessageType CREATE_SESSION_RESPONSE = define(33, "create-session-response", RESPONSE);
    public static final GtpV2MessageType MODIFY_BEARER_REQUEST = define(34, "modify-bearer-request", REQUEST);
    public static final GtpV2MessageType MODIFY_BEARER_RESPONSE = define(35, "modify-bearer-response", RESPONSE);
    public static final GtpV2MessageType DELETE_SESSION_REQUEST = define(36, "delete-session-request", REQUEST);
    public static final GtpV2MessageType DELETE_SESSION_RESPONSE = define(37, "delete-session-response", RESPONSE);
    public static final GtpV2MessageType CHANGE_NOTIFICATION_REQUEST = define(38, "change-notification-request", REQUEST);
    public static final GtpV2MessageType CHANGE_NOTIFICATION_RESPONSE =
            define(39, "change-notification-response", RESPONSE);
    // TS 29.274 §7.2.x commands (answered by the triggered request or a failure indication)
    public static final GtpV2MessageType MODIFY_BEARER_COMMAND = define(64, "modify-bearer-command", REQUEST);
    public static final GtpV2MessageType MODIFY_BEARER_FAILURE_INDICATION =
            define(65, "modify-bearer-failure-indication", RESPONSE);
    public static final GtpV2MessageType DELETE_BEARER_COMMAND = define(66, "delete-bearer-command", REQUEST);
    public static final GtpV2MessageType DELETE_BEARER_FAILURE_INDICATION =
            define(67, "delete-bearer-failure-indication", RESPONSE);
    public static final GtpV2MessageType BEARER_RESOURCE_COMMAND = define(68, "bearer-resource-command", REQUEST);
    public static final GtpV2MessageType BEARER_RESOURCE_FAILURE_INDICATION =
            define(69, "bearer-resource-failure-indication", RESPONSE);
    public static final GtpV2MessageType DOWNLINK_DATA_NOTIFICATION_FAILURE_INDICATION =
            define(70, "downlink-data-notification-failure-indication", RESPONSE);
    public static final GtpV2MessageType TRACE_SESSION_ACTIVATION = define(71, "trace-session-activation", NOTIFICATION);
    public static final GtpV2MessageType TRACE_SESSION_DEACTIVATION =
            define(72, "trace-session-deactivation", NOTIFICATION);
    public static final GtpV2MessageType STOP_PAGING_INDICATION = define(73, "stop-paging-indication", NOTIFICATION);
    public static final GtpV2MessageType CREATE_BEARER_REQUEST = define(95, "create-bearer-request", REQUEST);
    public static final GtpV2MessageType CREATE_BEARER_RESPONSE = define(96, "create-bearer-response", RESPONSE);
    public static final GtpV2MessageType UPDATE_BEARER_REQUEST = define(97, "update-bearer-request", REQUEST);
    public static final GtpV2MessageType UPDATE_BEARER_RESPONSE = define(98, "update-bearer-response", RESPONSE);
    public static final GtpV2MessageType DELETE_BEARER_REQUEST = define(99, "delete-bearer-request", REQUEST);
    public static final GtpV2MessageType DELETE_BEARER_RESPONSE = define(100, "delete-bearer-response", RESPONSE);
    public static final GtpV2MessageType DELETE_PDN_CONNECTION_SET_REQUEST =
            define(101, "delete-pdn-connection-set-request", REQUEST);
    public static final GtpV2MessageType DELETE_PDN_CONNECTION_SET_RESPONSE =
            define(102, "delete-pdn-connection-set-response", RESPONSE);
    // TS 29.274 §7.3 mobility management (S3/S10/S16), a few that appear next to S11/S5 traffic
    public static final GtpV2MessageType CONTEXT_REQUEST = define(130, "context-request", REQUEST);
    public static final GtpV2MessageType CONTEXT_RESPONSE = define(131, "context-response", RESPONSE);
    public static final GtpV2MessageType CONTEXT_ACKNOWLEDGE = define(132, "context-acknowledge", NOTIFICATION);
    public static final GtpV2MessageType RELEASE_ACCESS_BEARERS_REQUEST =
            define(170, "release-access-bearers-request", REQUEST);
    public static final GtpV2MessageType RELEASE_ACCESS_BEARERS_RESPONSE =
            define(171, "release-access-bearers-response", RESPONSE);
    public static final GtpV2MessageType DOWNLINK_DATA_NOTIFICATION = define(176, "downlink-data-notification", REQUEST);
    public static final GtpV2MessageType DOWNLINK_DATA_NOTIFICATION_ACKNOWLEDGE =
            define(177, "downlink-data-notification-acknowledge", RESPONSE);
    public static final GtpV2MessageType MODIFY_ACCESS_BEARERS_REQUEST =
            define(211, "modify-access-bearers-request", REQUEST);
    public static final GtpV2MessageType MODIFY_ACCESS_BEARERS_RESPONSE =
            define(212, "modify-access-bearers-response", RESPONSE);

    static {
        CODES.complete(value -> new GtpV2MessageType(value, "unknown(" + value + ")", 0, false));
    }

    private GtpV2MessageType(int value, String name, int kind, boolean named) {
        super(value, name, kind, named);
    }

    private static GtpV2MessageType define(int value, String name, int kind) {
        return CODES.define(new GtpV2MessageType(value, name, kind, true));
    }

    /** The type with this wire value (0..255); never {@code null}, never throws for an unknown value. */
    public static GtpV2MessageType of(int value) {
        return CODES.of(value);
    }

    /** A type this codec knows; its body is decoded as information elements, an unknown one is kept raw. */
    public boolean isKnown() {
        return isNamed();
    }
}
