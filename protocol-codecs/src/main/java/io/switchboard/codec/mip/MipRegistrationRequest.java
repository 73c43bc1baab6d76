package io.switchboard.codec.mip;

import java.util.List;

/** A Registration Request (RFC 5944 §3.3). Addresses are IPv4 addresses as 32-bit values in network order. */
public interface MipRegistrationRequest extends MipMessage {

    @Override
    default MipMessageType type() {
        return MipMessageType.REGISTRATION_REQUEST;
    }

    /** S B D M G r T x, see {@link MipFlags}. */
    int flags();

    int lifetime();

    int homeAddress();

    int homeAgent();

    int careOfAddress();

    long identification();

    List<MipExtension> extensions();

    default boolean hasFlag(int flag) {
        return (flags() & flag) != 0;
    }

    /** The first extension of {@code type}, or null. */
    default MipExtension extension(MipExtensionType type) {
        return MipExtension.first(extensions(), type);
    }
}
