package io.switchboard.codec.mip;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/** The first octet of a Mobile IPv4 message on UDP 434. An open value class. */
public final class MipMessageType extends OctetCode {

    private static final OctetCodes<MipMessageType> CODES = new OctetCodes<>("Mobile IP message type");

    public static final MipMessageType REGISTRATION_REQUEST = named(1, "Registration-Request");  // RFC 5944 §3.3
    public static final MipMessageType REGISTRATION_REPLY = named(3, "Registration-Reply");      // RFC 5944 §3.4
    public static final MipMessageType NAT_TUNNEL_DATA = named(4, "Tunnel-Data");               // RFC 3519 §3.3
    public static final MipMessageType REGISTRATION_REVOCATION = named(7, "Registration-Revocation");         // RFC 3543 §5.1
    public static final MipMessageType REGISTRATION_REVOCATION_ACK = named(15, "Registration-Revocation-Ack"); // RFC 3543 §5.2

    static {
        CODES.complete(value -> new MipMessageType(value, "Type-" + value, false));
    }

    private MipMessageType(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static MipMessageType named(int value, String name) {
        return CODES.define(new MipMessageType(value, name, true));
    }

    /** The code with this value, named or not; never null for 0..255. */
    public static MipMessageType valueOf(int value) {
        return CODES.of(value);
    }

    @Override
    public String toString() {
        return name() + "(" + value() + ")";
    }
}
