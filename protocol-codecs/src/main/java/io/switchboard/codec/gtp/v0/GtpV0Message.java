package io.switchboard.codec.gtp.v0;

import io.switchboard.codec.gtp.v1.GtpV1Cause;
import io.switchboard.codec.gtp.v1.GtpV1Ie;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * A decoded GTPv0 message (GSM 09.60). Its information elements have the same TV/TLV layout as
 * GTPv1 and are modelled by {@link GtpV1Ie}; only the elements whose meaning is the same in both
 * versions are typed (Cause, IMSI, Recovery, End User Address, APN, GSN Address, MSISDN), the rest
 * (flow labels, QoS profile...) are {@link GtpV1Ie.Raw}.
 */
public interface GtpV0Message {

    /** Octet 1 as on the wire. */
    int flags();

    GtpV0MessageType type();

    int sequence();

    int flowLabel();

    int sndcpNpduNumber();

    /** Octets 10-12, spare (normally 0xFFFFFF), kept for lossless re-encoding. */
    int spare();

    /** The TID octets as one big-endian number, as on the wire. */
    long tid();

    List<GtpV1Ie> ies();

    /** The body of a message not decoded as IEs (T-PDU, unknown types); usually empty. */
    byte[] opaqueBody();

    /** The IMSI carried in the TID of every GTPv0 header, read in the given byte order. */
    default String imsi(GtpV0TidOrder order) {
        return GtpV0Tid.imsi(tid(), order);
    }

    default int nsapi(GtpV0TidOrder order) {
        return GtpV0Tid.nsapi(tid(), order);
    }

    default <T extends GtpV1Ie> Optional<T> first(Class<T> type) {
        for (GtpV1Ie ie : ies()) {
            if (type.isInstance(ie)) {
                return Optional.of(type.cast(ie));
            }
        }
        return Optional.empty();
    }

    /** The Cause (IE 1) of a response; GSM 09.60 §7.9.1 shares TS 29.060's values. */
    default Optional<GtpV1Cause> cause() {
        return first(GtpV1Ie.Cause.class).map(c -> GtpV1Cause.of(c.value()));
    }

    default Optional<Integer> recovery() {
        return first(GtpV1Ie.Recovery.class).map(GtpV1Ie.Recovery::restartCounter);
    }

    /** The first GSN Address (signalling address of the sender in Create/Update PDP Context). */
    default Optional<InetAddress> senderSignallingAddress() {
        return first(GtpV1Ie.GsnAddress.class).map(GtpV1Ie.GsnAddress::address);
    }

    default boolean isRequest() {
        return type().isRequest();
    }

    default boolean isResponse() {
        return type().isResponse();
    }

    default boolean createsTunnel() {
        return type().createsTunnel();
    }
}
