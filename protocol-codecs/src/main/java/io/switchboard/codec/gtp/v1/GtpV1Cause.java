package io.switchboard.codec.gtp.v1;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * GTPv1 cause value (TS 29.060 §7.7.1 Table 38; GSM 09.60 §7.9.1 uses the same values). Open: every
 * value 0..255 has an instance. 0..127 are request causes, 128..191 acceptances, 192..255 rejections.
 */
public final class GtpV1Cause extends OctetCode {

    private static final OctetCodes<GtpV1Cause> CODES = new OctetCodes<>("GTPv1 cause");

    public static final GtpV1Cause REQUEST_ACCEPTED = define(128, "request-accepted");
    public static final GtpV1Cause NON_EXISTENT = define(192, "non-existent");
    public static final GtpV1Cause INVALID_MESSAGE_FORMAT = define(193, "invalid-message-format");
    public static final GtpV1Cause VERSION_NOT_SUPPORTED = define(198, "version-not-supported");
    public static final GtpV1Cause NO_RESOURCES_AVAILABLE = define(199, "no-resources-available");
    public static final GtpV1Cause SERVICE_NOT_SUPPORTED = define(200, "service-not-supported");
    public static final GtpV1Cause MANDATORY_IE_INCORRECT = define(201, "mandatory-ie-incorrect");
    public static final GtpV1Cause MANDATORY_IE_MISSING = define(202, "mandatory-ie-missing");
    public static final GtpV1Cause OPTIONAL_IE_INCORRECT = define(203, "optional-ie-incorrect");
    public static final GtpV1Cause SYSTEM_FAILURE = define(204, "system-failure");
    public static final GtpV1Cause USER_AUTHENTICATION_FAILED = define(209, "user-authentication-failed");
    public static final GtpV1Cause ALL_DYNAMIC_PDP_ADDRESSES_OCCUPIED =
            define(211, "all-dynamic-pdp-addresses-occupied");
    public static final GtpV1Cause NO_MEMORY_AVAILABLE = define(212, "no-memory-available");
    public static final GtpV1Cause MISSING_OR_UNKNOWN_APN = define(219, "missing-or-unknown-apn");
    public static final GtpV1Cause UNKNOWN_PDP_ADDRESS_OR_TYPE = define(220, "unknown-pdp-address-or-type");

    static {
        CODES.complete(value -> new GtpV1Cause(value, "unknown(" + value + ")", false));
    }

    private GtpV1Cause(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static GtpV1Cause define(int value, String name) {
        return CODES.define(new GtpV1Cause(value, name, true));
    }

    public static GtpV1Cause of(int value) {
        return CODES.of(value);
    }

    /** TS 29.060 §7.7.1: values 128..191 mean the request was accepted (fully or partly). */
    public boolean isAccepted() {
        return value() >= 128 && value() <= 191;
    }

    /** TS 29.060 §7.7.1: values 192..255 reject the request. */
    public boolean isRejected() {
        return value() >= 192;
    }
}
