package io.switchboard.codec.gtp.v2;

import io.switchboard.codec.OctetCodes;
import io.switchboard.codec.gtp.GtpMessageTypeCode;

/**
 * GTPv2-C message type (TS 29.274 §6.1, Table 6.1-1). An open value class: every value 0..255 has
 * an instance, unknown ones are named {@code unknown(NN)} and kept raw by the codec.
 */
public final class GtpV2MessageType extends GtpMessageTypeCode {

    private static final OctetCodes<GtpV2MessageType> CODES = new OctetCodes<>("GTPv2 message type");

    // TS 29.274 Table 6.1-1, every message type the table assigns. Kinds: a request is answered by
    // a response under its sequence number (§7.6); a notification is answered by nothing. Notification
    // / Acknowledge pairs are request and response; Commands are requests answered by the triggered
    // request or a Failure Indication (a response). 4-31 are the S101, S121 and Sv interfaces' (TS
    // 29.276, TS 29.280), not GTPv2-C's. Every GTPv2-C message body is information elements (§5.6),
    // so every named type is decoded as such, and every response carries Cause (§8.4).
    // TS 29.274 §7.1 path management
    public static final GtpV2MessageType ECHO_REQUEST = define(1, "echo-request", REQUEST);
    public static final GtpV2MessageType ECHO_RESPONSE = define(2, "echo-response", RESPONSE);
    public static final GtpV2MessageType VERSION_NOT_SUPPORTED = define(3, "version-not-supported", NOTIFICATION);
    // TS 29.274 §7.2 tunnel management (S4/S11, S5/S8, S2a, S2b)
    public static final GtpV2MessageType CREATE_SESSION_REQUEST = define(32, "create-session-request", REQUEST | TUNNEL);
    public static final GtpV2MessageType CREATE_SESSION_RESPONSE = define(33, "create-session-response", RESPONSE);
    public static final GtpV2MessageType MODIFY_BEARER_REQUEST = define(34, "modify-bearer-request", REQUEST);
    public static final GtpV2MessageType MODIFY_BEARER_RESPONSE = define(35, "modify-bearer-response", RESPONSE);
    public static final GtpV2MessageType DELETE_SESSION_REQUEST = define(36, "delete-session-request", REQUEST);
    public static final GtpV2MessageType DELETE_SESSION_RESPONSE = define(37, "delete-session-response", RESPONSE);
    public static final GtpV2MessageType CHANGE_NOTIFICATION_REQUEST = define(38, "change-notification-request", REQUEST);
    public static final GtpV2MessageType CHANGE_NOTIFICATION_RESPONSE =
            define(39, "change-notification-response", RESPONSE);
    public static final GtpV2MessageType REMOTE_UE_REPORT_NOTIFICATION =
            define(40, "remote-ue-report-notification", REQUEST);
    public static final GtpV2MessageType REMOTE_UE_REPORT_ACKNOWLEDGE =
            define(41, "remote-ue-report-acknowledge", RESPONSE);
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
    // PGW to SGW / MME (S5/S8, S4/S11)
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
    public static final GtpV2MessageType PGW_DOWNLINK_TRIGGERING_NOTIFICATION =
            define(103, "pgw-downlink-triggering-notification", REQUEST);
    public static final GtpV2MessageType PGW_DOWNLINK_TRIGGERING_ACKNOWLEDGE =
            define(104, "pgw-downlink-triggering-acknowledge", RESPONSE);
    // TS 29.274 §7.3 mobility management (S3/S10/S16)
    public static final GtpV2MessageType IDENTIFICATION_REQUEST = define(128, "identification-request", REQUEST);
    public static final GtpV2MessageType IDENTIFICATION_RESPONSE = define(129, "identification-response", RESPONSE);
    public static final GtpV2MessageType CONTEXT_REQUEST = define(130, "context-request", REQUEST);
    public static final GtpV2MessageType CONTEXT_RESPONSE = define(131, "context-response", RESPONSE);
    /** The triggered reply to a Context Response (§7.3.7): nothing answers it. */
    public static final GtpV2MessageType CONTEXT_ACKNOWLEDGE = define(132, "context-acknowledge", NOTIFICATION);
    public static final GtpV2MessageType FORWARD_RELOCATION_REQUEST = define(133, "forward-relocation-request", REQUEST);
    public static final GtpV2MessageType FORWARD_RELOCATION_RESPONSE =
            define(134, "forward-relocation-response", RESPONSE);
    public static final GtpV2MessageType FORWARD_RELOCATION_COMPLETE_NOTIFICATION =
            define(135, "forward-relocation-complete-notification", REQUEST);
    public static final GtpV2MessageType FORWARD_RELOCATION_COMPLETE_ACKNOWLEDGE =
            define(136, "forward-relocation-complete-acknowledge", RESPONSE);
    public static final GtpV2MessageType FORWARD_ACCESS_CONTEXT_NOTIFICATION =
            define(137, "forward-access-context-notification", REQUEST);
    public static final GtpV2MessageType FORWARD_ACCESS_CONTEXT_ACKNOWLEDGE =
            define(138, "forward-access-context-acknowledge", RESPONSE);
    public static final GtpV2MessageType RELOCATION_CANCEL_REQUEST = define(139, "relocation-cancel-request", REQUEST);
    public static final GtpV2MessageType RELOCATION_CANCEL_RESPONSE = define(140, "relocation-cancel-response", RESPONSE);
    public static final GtpV2MessageType CONFIGURATION_TRANSFER_TUNNEL =
            define(141, "configuration-transfer-tunnel", NOTIFICATION);
    // SGSN / MME (S3)
    public static final GtpV2MessageType DETACH_NOTIFICATION = define(149, "detach-notification", REQUEST);
    public static final GtpV2MessageType DETACH_ACKNOWLEDGE = define(150, "detach-acknowledge", RESPONSE);
    public static final GtpV2MessageType CS_PAGING_INDICATION = define(151, "cs-paging-indication", NOTIFICATION);
    public static final GtpV2MessageType RAN_INFORMATION_RELAY = define(152, "ran-information-relay", NOTIFICATION);
    public static final GtpV2MessageType ALERT_MME_NOTIFICATION = define(153, "alert-mme-notification", REQUEST);
    public static final GtpV2MessageType ALERT_MME_ACKNOWLEDGE = define(154, "alert-mme-acknowledge", RESPONSE);
    public static final GtpV2MessageType UE_ACTIVITY_NOTIFICATION = define(155, "ue-activity-notification", REQUEST);
    public static final GtpV2MessageType UE_ACTIVITY_ACKNOWLEDGE = define(156, "ue-activity-acknowledge", RESPONSE);
    public static final GtpV2MessageType ISR_STATUS_INDICATION = define(157, "isr-status-indication", NOTIFICATION);
    // MME to SGW (S11)
    public static final GtpV2MessageType CREATE_FORWARDING_TUNNEL_REQUEST =
            define(160, "create-forwarding-tunnel-request", REQUEST);
    public static final GtpV2MessageType CREATE_FORWARDING_TUNNEL_RESPONSE =
            define(161, "create-forwarding-tunnel-response", RESPONSE);
    public static final GtpV2MessageType SUSPEND_NOTIFICATION = define(162, "suspend-notification", REQUEST);
    public static final GtpV2MessageType SUSPEND_ACKNOWLEDGE = define(163, "suspend-acknowledge", RESPONSE);
    public static final GtpV2MessageType RESUME_NOTIFICATION = define(164, "resume-notification", REQUEST);
    public static final GtpV2MessageType RESUME_ACKNOWLEDGE = define(165, "resume-acknowledge", RESPONSE);
    public static final GtpV2MessageType CREATE_INDIRECT_DATA_FORWARDING_TUNNEL_REQUEST =
            define(166, "create-indirect-data-forwarding-tunnel-request", REQUEST);
    public static final GtpV2MessageType CREATE_INDIRECT_DATA_FORWARDING_TUNNEL_RESPONSE =
            define(167, "create-indirect-data-forwarding-tunnel-response", RESPONSE);
    public static final GtpV2MessageType DELETE_INDIRECT_DATA_FORWARDING_TUNNEL_REQUEST =
            define(168, "delete-indirect-data-forwarding-tunnel-request", REQUEST);
    public static final GtpV2MessageType DELETE_INDIRECT_DATA_FORWARDING_TUNNEL_RESPONSE =
            define(169, "delete-indirect-data-forwarding-tunnel-response", RESPONSE);
    public static final GtpV2MessageType RELEASE_ACCESS_BEARERS_REQUEST =
            define(170, "release-access-bearers-request", REQUEST);
    public static final GtpV2MessageType RELEASE_ACCESS_BEARERS_RESPONSE =
            define(171, "release-access-bearers-response", RESPONSE);
    // SGW to SGSN / MME (S4/S11)
    public static final GtpV2MessageType DOWNLINK_DATA_NOTIFICATION = define(176, "downlink-data-notification", REQUEST);
    public static final GtpV2MessageType DOWNLINK_DATA_NOTIFICATION_ACKNOWLEDGE =
            define(177, "downlink-data-notification-acknowledge", RESPONSE);
    public static final GtpV2MessageType PGW_RESTART_NOTIFICATION = define(179, "pgw-restart-notification", REQUEST);
    public static final GtpV2MessageType PGW_RESTART_NOTIFICATION_ACKNOWLEDGE =
            define(180, "pgw-restart-notification-acknowledge", RESPONSE);
    // SGW to PGW, PGW to SGW (S5/S8)
    public static final GtpV2MessageType UPDATE_PDN_CONNECTION_SET_REQUEST =
            define(200, "update-pdn-connection-set-request", REQUEST);
    public static final GtpV2MessageType UPDATE_PDN_CONNECTION_SET_RESPONSE =
            define(201, "update-pdn-connection-set-response", RESPONSE);
    // MME to SGW (S11)
    public static final GtpV2MessageType MODIFY_ACCESS_BEARERS_REQUEST =
            define(211, "modify-access-bearers-request", REQUEST);
    public static final GtpV2MessageType MODIFY_ACCESS_BEARERS_RESPONSE =
            define(212, "modify-access-bearers-response", RESPONSE);
    // MBMS GW to MME / SGSN (Sm/Sn)
    public static final GtpV2MessageType MBMS_SESSION_START_REQUEST = define(231, "mbms-session-start-request", REQUEST);
    public static final GtpV2MessageType MBMS_SESSION_START_RESPONSE =
            define(232, "mbms-session-start-response", RESPONSE);
    public static final GtpV2MessageType MBMS_SESSION_UPDATE_REQUEST = define(233, "mbms-session-update-request", REQUEST);
    public static final GtpV2MessageType MBMS_SESSION_UPDATE_RESPONSE =
            define(234, "mbms-session-update-response", RESPONSE);
    public static final GtpV2MessageType MBMS_SESSION_STOP_REQUEST = define(235, "mbms-session-stop-request", REQUEST);
    public static final GtpV2MessageType MBMS_SESSION_STOP_RESPONSE = define(236, "mbms-session-stop-response", RESPONSE);

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

    /**
     * TS 29.274 §7.2.x: a Command (Modify Bearer 64, Delete Bearer 66, Bearer Resource 68), answered
     * not by a response but by the request it triggers or a Failure Indication, both under the
     * Command's sequence number (§7.6).
     */
    public boolean isCommand() {
        return this == MODIFY_BEARER_COMMAND || this == DELETE_BEARER_COMMAND || this == BEARER_RESOURCE_COMMAND;
    }

    /** The Failure Indication that answers a Command: the Command's type + 1 (65, 67, 69). */
    public boolean isFailureIndication() {
        return value() > 0 && of(value() - 1).isCommand();
    }

    /** A type this codec knows; its body is decoded as information elements, an unknown one is kept raw. */
    public boolean isKnown() {
        return isNamed();
    }
}
