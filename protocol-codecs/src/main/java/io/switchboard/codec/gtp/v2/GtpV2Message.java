package io.switchboard.codec.gtp.v2;

import io.switchboard.codec.gtp.GtpControlEndpoint;
import java.util.List;
import java.util.Optional;

/**
 * A decoded GTPv2-C message (TS 29.274 §5-7). A datagram may carry two (piggybacking): decode them
 * with {@link GtpV2Codec#decodeAll}.
 */
public interface GtpV2Message {

    /** Octet 1 as on the wire (version, P, T, MP, spare). */
    int flags();

    GtpV2MessageType type();

    default boolean hasTeid() {
        return (flags() & GtpV2Header.FLAG_T) != 0;
    }

    /** P flag: this message was followed by a piggybacked one. */
    default boolean piggybacked() {
        return (flags() & GtpV2Header.FLAG_P) != 0;
    }

    /** The TEID field; meaningful when {@link #hasTeid()}. */
    long teid();

    int sequence();

    /** The octet after the sequence number (spare / message priority). */
    int spareOctet();

    /** Top-level IEs in wire order; empty for a message kept as {@link #opaqueBody()}. */
    List<GtpV2Ie> ies();

    /** The body of a message type not decoded as IEs; usually empty. */
    byte[] opaqueBody();

    /** The first top-level IE of this record type and instance. */
    default <T extends GtpV2Ie> Optional<T> first(Class<T> type, int instance) {
        for (GtpV2Ie ie : ies()) {
            if (type.isInstance(ie) && ie.instance() == instance) {
                return Optional.of(type.cast(ie));
            }
        }
        return Optional.empty();
    }

    /** The IMSI (IE 1, instance 0); absent for emergency attach without UICC and in later messages. */
    default Optional<String> imsi() {
        return first(GtpV2Ie.Imsi.class, 0).map(GtpV2Ie.Imsi::digits);
    }

    /** The Cause (IE 2, instance 0) of a response. */
    default Optional<GtpV2Cause> cause() {
        return first(GtpV2Ie.Cause.class, 0).map(c -> GtpV2Cause.of(c.value()));
    }

    default Optional<Integer> recovery() {
        return first(GtpV2Ie.Recovery.class, 0).map(GtpV2Ie.Recovery::restartCounter);
    }

    /**
     * Where the sender wants control-plane messages: the Sender F-TEID for Control Plane (IE 87
     * instance 0), or in a Create Session Response from a PGW on S5/S8, S2a or S2b, which leaves it
     * out, the PGW's GTP-C F-TEID of instance 1 (TS 29.274 Table 7.2.2-1; see {@link GtpV2SenderFteid}).
     */
    default Optional<GtpControlEndpoint> senderControlPlane() {
        return GtpV2SenderFteid.of(this).map(f -> new GtpControlEndpoint(f.teid(), f.ipv4(), f.ipv6()));
    }

    /**
     * The PGW S5/S8 F-TEID for Control Plane (IE 87, instance 1) of a Create Session Response, TS
     * 29.274 §7.2.2. On S5/S8, S2a and S2b it is the PGW's own, and the only one it sends (seen in the
     * nDPI and magma captures); on S11/S4 it is the PGW's endpoint told to the MME.
     */
    default Optional<GtpControlEndpoint> pgwControlPlane() {
        return first(GtpV2Ie.Fteid.class, 1).map(f -> new GtpControlEndpoint(f.teid(), f.ipv4(), f.ipv6()));
    }

    /** The Bearer Context IEs (IE 93) of any instance, in wire order. */
    default List<GtpV2Ie.BearerContext> bearerContexts() {
        return ies().stream()
                .filter(GtpV2Ie.BearerContext.class::isInstance)
                .map(GtpV2Ie.BearerContext.class::cast)
                .toList();
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
