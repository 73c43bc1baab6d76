package io.switchboard.codec.gtp.v2;

/**
 * GTPv2-C cause value (TS 29.274 §8.4, Table 8.4-1). Open: every value 0..255 has an instance.
 * 16..63 are acceptances, 64..239 rejections.
 */
public final class GtpV2Cause {

    private static final GtpV2Cause[] ALL = new GtpV2Cause[256];

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
        for (int i = 0; i < ALL.length; i++) {
            if (ALL[i] == null) {
                ALL[i] = new GtpV2Cause(i, "unknown(" + i + ")");
            }
        }
    }

    private final int value;
    private final String name;

    private GtpV2Cause(int value, String name) {
        this.value = value;
        this.name = name;
    }

    private static GtpV2Cause define(int value, String name) {
        GtpV2Cause cause = new GtpV2Cause(value, name);
        ALL[value] = cause;
        return cause;
    }

    public static GtpV2Cause of(int value) {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("cause out of range: " + value);
        }
        return ALL[value];
    }

    public int value() {
        return value;
    }

    public String name() {
        return name;
    }

    /** TS 29.274 §8.4: 16..63 accept the request. */
    public boolean isAccepted() {
        return value >= 16 && value <= 63;
    }

    /** TS 29.274 §8.4: 64..239 reject it. */
    public boolean isRejected() {
        return value >= 64 && value <= 239;
    }

    @Override
    public String toString() {
        return name;
    }
}
