package io.switchboard.codec.mip;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The first octet of a Mobile IPv4 message on UDP 434. An open value class. */
public final class MipMessageType {

    private static final Map<Integer, MipMessageType> NAMED = new ConcurrentHashMap<>();

    public static final MipMessageType REGISTRATION_REQUEST = named(1, "Registration-Request");  // RFC 5944 §3.3
    public static final MipMessageType REGISTRATION_REPLY = named(3, "Registration-Reply");      // RFC 5944 §3.4
    public static final MipMessageType NAT_TUNNEL_DATA = named(4, "Tunnel-Data");               // RFC 3519 §3.3
    public static final MipMessageType REGISTRATION_REVOCATION = named(7, "Registration-Revocation");         // RFC 3543 §5.1
    public static final MipMessageType REGISTRATION_REVOCATION_ACK = named(15, "Registration-Revocation-Ack"); // RFC 3543 §5.2

    private final int value;
    private final String name;

    private MipMessageType(int value, String name) {
        this.value = value;
        this.name = name;
    }

    private static MipMessageType named(int value, String name) {
        MipMessageType type = new MipMessageType(value, name);
        NAMED.put(value, type);
        return type;
    }

    public static MipMessageType valueOf(int value) {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("Mobile IP message type out of range: " + value);
        }
        MipMessageType known = NAMED.get(value);
        return known != null ? known : new MipMessageType(value, "Type-" + value);
    }

    public int value() {
        return value;
    }

    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MipMessageType other && other.value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }

    @Override
    public String toString() {
        return name + "(" + value + ")";
    }
}
