package io.switchboard.codec.gtp.v2;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * GTPv2-C cause value (TS 29.274 §8.4, Table 8.4-1). Open: every value 0..255 has an instance.
 * 16..63 are acceptances, 64..239 rejections.
 */
public final class GtpV2Cause extends OctetCode {

    private static final OctetCodes<GtpV2Cause> CODES = new OctetCodes<>("GTPv2 cause");

    public static final GtpV2Cause REQUEST_ACCEPTED = define(16, "request-accepted");
    public static final GtpV2Cause REQUEST_ACCEPTED_PARTIALLY = define(17, "request-accepted-partially");
    public static final GtpV2Cause CONTEXT_NOT_FOUND = define(64, "context-not-found");
    public static final GtpV2Cause INVALID_MESSAGE_FORMAT = define(65, "invalid-message-format");
    public static final GtpV2Cause VERSION_NOT_SUPPORTED_BY_NEXT_PEER = define(66, "version-not-supported-by-next-peer");
    public static final GtpV2Cause INVALID_LENGTH = define(67, "invalid-length");
    public static final GtpV2Cause SERVICE_NOT_SUPPORTED = define(68, "service-not-supported");
    public static final GtpV2Cause MANDATORY_IE_INCORRECT = define(69, "mandatory-ie-incorrect");
    public static final GtpV2Cause MANDATORY_IE_MISSING = define(70, "mandatory-ie-missing");
    public static final GtpV2Cause SYSTEM_FAILURE = define(72, "system-failure");
    public static final GtpV2Cause NO_RESOURCES_AVAILABLE = define(73, "no-resources-available");
    public static final GtpV2Cause MISSING_OR_UNKNOWN_APN = define(78, "missing-or-unknown-apn");
    public static final GtpV2Cause ALL_DYNAMIC_ADDRESSES_OCCUPIED = define(84, "all-dynamic-addresses-occupied");
    public static final GtpV2Cause NO_MEMORY_AVAILABLE = define(91, "no-memory-available");
    public static final GtpV2Cause USER_AUTHENTICATION_FAILED = define(92, "user-authentication-failed");

    static {
        CODES.complete(value -> new GtpV2Cause(value, "unknown(" + value + ")", false));
    }

    private GtpV2Cause(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static GtpV2Cause define(int value, String name) {
        return CODES.define(new GtpV2Cause(value, name, true));
    }

    public static GtpV2Cause of(int value) {
        return CODES.of(value);
    }

    /** TS 29.274 §8.4: 16..63 accept the request. */
    public boolean isAccepted() {
        return value() >= 16 && value() <= 63;
    }

    /** TS 29.274 §8.4: 64..239 reject it. */
    public boolean isRejected() {
        return value() >= 64 && value() <= 239;
    }
}
