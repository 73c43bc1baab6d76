package io.switchboard.codec.mip;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * The Code of a Registration Reply (RFC 5944 §3.4). An open value class: 0 and 1 accept, 64..127 are
 * denials by the foreign agent, 128..255 denials by the home agent.
 */
public final class MipReplyCode extends OctetCode {

    private static final OctetCodes<MipReplyCode> CODES = new OctetCodes<>("Registration Reply code");

    // RFC 5944 §3.4: accepted
    public static final MipReplyCode ACCEPTED = named(0, "registration accepted");
    public static final MipReplyCode ACCEPTED_NO_SIMULTANEOUS_BINDINGS =
            named(1, "registration accepted, but simultaneous mobility bindings unsupported");
    // RFC 5944 §3.4: denied by the foreign agent
    public static final MipReplyCode FA_REASON_UNSPECIFIED = named(64, "FA: reason unspecified");
    public static final MipReplyCode FA_ADMINISTRATIVELY_PROHIBITED = named(65, "FA: administratively prohibited");
    public static final MipReplyCode FA_INSUFFICIENT_RESOURCES = named(66, "FA: insufficient resources");
    public static final MipReplyCode FA_MOBILE_NODE_FAILED_AUTHENTICATION = named(67, "FA: mobile node failed authentication");
    public static final MipReplyCode FA_HOME_AGENT_FAILED_AUTHENTICATION = named(68, "FA: home agent failed authentication");
    public static final MipReplyCode FA_LIFETIME_TOO_LONG = named(69, "FA: requested Lifetime too long");
    public static final MipReplyCode FA_POORLY_FORMED_REQUEST = named(70, "FA: poorly formed Request");
    public static final MipReplyCode FA_POORLY_FORMED_REPLY = named(71, "FA: poorly formed Reply");
    public static final MipReplyCode FA_HOME_AGENT_UNREACHABLE = named(88, "FA: home agent unreachable");
    // RFC 5944 §3.4: denied by the home agent
    public static final MipReplyCode HA_REASON_UNSPECIFIED = named(128, "HA: reason unspecified");
    public static final MipReplyCode HA_ADMINISTRATIVELY_PROHIBITED = named(129, "HA: administratively prohibited");
    public static final MipReplyCode HA_INSUFFICIENT_RESOURCES = named(130, "HA: insufficient resources");
    public static final MipReplyCode HA_MOBILE_NODE_FAILED_AUTHENTICATION = named(131, "HA: mobile node failed authentication");
    public static final MipReplyCode HA_FOREIGN_AGENT_FAILED_AUTHENTICATION = named(132, "HA: foreign agent failed authentication");
    public static final MipReplyCode HA_IDENTIFICATION_MISMATCH = named(133, "HA: registration Identification mismatch");
    public static final MipReplyCode HA_POORLY_FORMED_REQUEST = named(134, "HA: poorly formed Request");
    public static final MipReplyCode HA_TOO_MANY_BINDINGS = named(135, "HA: too many simultaneous mobility bindings");
    public static final MipReplyCode HA_UNKNOWN_HOME_AGENT_ADDRESS = named(136, "HA: unknown home agent address");

    static {
        CODES.complete(value -> new MipReplyCode(value, "code " + value, false));
    }

    private MipReplyCode(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static MipReplyCode named(int value, String name) {
        return CODES.define(new MipReplyCode(value, name, true));
    }

    /** The code with this value, named or not; never null for 0..255. */
    public static MipReplyCode valueOf(int value) {
        return CODES.of(value);
    }

    /** 0 or 1 (RFC 5944 §3.4). */
    public boolean isAccepted() {
        return isAccepted(value());
    }

    public static boolean isAccepted(int code) {
        return code == 0 || code == 1;
    }

    /** 64..127: the foreign agent refused the registration. */
    public boolean isForeignAgentDenial() {
        return value() >= 64 && value() < 128;
    }

    /** 128..255: the home agent refused the registration (a director's signal that a real is unwell, e.g. 130). */
    public boolean isHomeAgentDenial() {
        return value() >= 128;
    }

    @Override
    public String toString() {
        return name() + " (" + value() + ")";
    }
}
