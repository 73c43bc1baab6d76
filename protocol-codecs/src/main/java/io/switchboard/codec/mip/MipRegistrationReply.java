package io.switchboard.codec.mip;

import java.util.List;

/** A Registration Reply (RFC 5944 §3.4). Addresses are IPv4 addresses as 32-bit values in network order. */
public interface MipRegistrationReply extends MipMessage {

    @Override
    default MipMessageType type() {
        return MipMessageType.REGISTRATION_REPLY;
    }

    MipReplyCode code();

    int lifetime();

    int homeAddress();

    int homeAgent();

    long identification();

    List<MipExtension> extensions();

    /** The first extension of {@code type}, or null. */
    default MipExtension extension(MipExtensionType type) {
        return MipExtension.first(extensions(), type);
    }
}
