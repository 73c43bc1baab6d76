package io.switchboard.codec.gtp.v1;

import io.switchboard.codec.gtp.GtpControlEndpoint;
import java.util.List;
import java.util.Optional;

/**
 * A decoded GTPv1 message (TS 29.060 §6-7): header fields as on the wire, the information
 * elements in wire order, and the body of a message type this codec does not know kept as raw
 * octets. Encoding it gives back the decoded bytes.
 */
public interface GtpV1Message {

    /** Octet 1 as on the wire (version, PT, E, S, PN). */
    int flags();

    GtpV1MessageType type();

    long teid();

    /** The sequence number field; meaningful when the S flag is set. */
    int sequence();

    /** The N-PDU number field; meaningful when the PN flag is set. */
    int npduNumber();

    /** The first extension header type (octet 12); 0 when there is none. */
    int nextExtensionType();

    /** The extension header chain after octet 12, verbatim; empty when the E flag is clear. */
    byte[] extensionHeaders();

    /** The information elements in wire order; empty for a message kept as {@link #opaqueBody()}. */
    List<GtpV1Ie> ies();

    /** The body of a message type that is not decoded as IEs (unknown types, T-PDU); usually empty. */
    byte[] opaqueBody();

    default boolean hasSequence() {
        return (flags() & GtpV1Header.FLAG_S) != 0;
    }

    /** The first IE of this record type, if any. */
    default <T extends GtpV1Ie> Optional<T> first(Class<T> type) {
        for (GtpV1Ie ie : ies()) {
            if (type.isInstance(ie)) {
                return Optional.of(type.cast(ie));
            }
        }
        return Optional.empty();
    }

    /** The IMSI (IE 2), present in Create PDP Context Request except for secondary contexts. */
    default Optional<String> imsi() {
        return first(GtpV1Ie.Imsi.class).map(GtpV1Ie.Imsi::digits);
    }

    /**
     * The Linked NSAPI of a secondary PDP context activation: TS 29.060 §7.3.1 carries it as a second
     * NSAPI element (type 20) after the context's own NSAPI; such a request has no IMSI and names the
     * primary context by its header TEID.
     */
    default Optional<Integer> linkedNsapi() {
        return ies().stream()
                .filter(GtpV1Ie.Nsapi.class::isInstance)
                .map(ie -> ((GtpV1Ie.Nsapi) ie).nsapi())
                .skip(1)
                .findFirst();
    }

    /** The Cause (IE 1) of a response. */
    default Optional<GtpV1Cause> cause() {
        return first(GtpV1Ie.Cause.class).map(c -> GtpV1Cause.of(c.value()));
    }

    /** The Recovery (IE 14) restart counter. */
    default Optional<Integer> recovery() {
        return first(GtpV1Ie.Recovery.class).map(GtpV1Ie.Recovery::restartCounter);
    }

    /**
     * Where the sender wants its control-plane messages for this session: its TEID Control Plane
     * (IE 17) and the first GSN Address (IE 133, the control-plane address, TS 29.060 §7.3.1).
     */
    default Optional<GtpControlEndpoint> senderControlPlane() {
        Optional<GtpV1Ie.TeidControlPlane> teid = first(GtpV1Ie.TeidControlPlane.class);
        Optional<GtpV1Ie.GsnAddress> address = first(GtpV1Ie.GsnAddress.class);
        if (teid.isEmpty() || address.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(GtpControlEndpoint.of(teid.get().teid(), address.get().address()));
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
