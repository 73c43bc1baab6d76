package io.switchboard.codec.gtp.v2;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import java.util.Optional;

/**
 * Which F-TEID of a GTPv2-C message names its sender's own control plane: the rule, once, for the
 * in-place view a director rewrites and for the decoded model.
 *
 * <ul>
 *   <li>The "Sender F-TEID for Control Plane" is instance 0 of IE 87 in every message whose table has
 *       one (TS 29.274 Tables 7.2.1-1, 7.2.2-1, 7.2.7-1, 7.2.18-1, 7.3.x): the MME's or SGW's in a
 *       Create Session Request, the SGW's in a Create Session Response on S11/S4, a relocated MME's
 *       or SGW's in a Modify Bearer Request.</li>
 *   <li>A Create Session Response on S5/S8, S2a or S2b leaves it out: Table 7.2.2-1 says it "is not
 *       needed because its content would be identical to the IE PGW S5/S8/S2a/S2b F-TEID for PMIP
 *       based interface or for GTP based Control Plane interface", instance 1. So there, and only
 *       when instance 0 is absent, instance 1 names the sender, if its interface type is a PGW's
 *       GTP-C one (Table 8.22-1: 7, 32, 36).</li>
 *   <li>On S11/S4 the response carries both, and instance 1 is the PGW's endpoint told to the MME,
 *       not the answering SGW's: it is left alone. Instance 1 of a Create Session Request on S11/S4
 *       ("PGW S5/S8 Address for Control Plane or PMIP", Table 7.2.1-1) likewise.</li>
 *   <li>A PGW that sends both on S5/S8 sends the same endpoint twice: {@link #twin} finds the copy,
 *       which a director rewrites with the original so that the two still agree.</li>
 * </ul>
 */
public final class GtpV2SenderFteid {

    /** TS 29.274: "Sender F-TEID for Control Plane", wherever a message table has it. */
    public static final int SENDER_INSTANCE = 0;
    /** TS 29.274 Table 7.2.2-1: "PGW S5/S8/S2a/S2b F-TEID for PMIP based interface or for GTP based Control Plane interface". */
    public static final int PGW_INSTANCE = 1;

    private GtpV2SenderFteid() {
    }

    /** Whether an instance-1 F-TEID of this interface type stands for the sender of a message of this type. */
    public static boolean pgwStandsForSender(GtpV2MessageType type, int interfaceType) {
        return type == GtpV2MessageType.CREATE_SESSION_RESPONSE && GtpV2InterfaceType.of(interfaceType).isPgwControlPlane();
    }

    /**
     * The offset of the F-TEID naming the sender's control plane, carrying a TEID and an address of
     * a flagged family (TS 29.274 §8.22), or -1.
     */
    public static int locate(ByteBuf buf, GtpV2Header header) throws DecodeException {
        int sender = usable(buf, GtpV2Ies.indexOf(buf, header.bodyOffset(), header.endOffset(),
                GtpV2IeType.F_TEID.value(), SENDER_INSTANCE));
        if (sender >= 0 || header.messageType() != GtpV2MessageType.CREATE_SESSION_RESPONSE) {
            return sender;
        }
        int pgw = usable(buf, GtpV2Ies.indexOf(buf, header.bodyOffset(), header.endOffset(),
                GtpV2IeType.F_TEID.value(), PGW_INSTANCE));
        return pgw >= 0 && pgwStandsForSender(header.messageType(), interfaceType(buf, pgw)) ? pgw : -1;
    }

    /**
     * In a Create Session Response whose sender F-TEID is instance 0 at {@code sender}, the offset of
     * an instance-1 PGW GTP-C F-TEID with the same interface type, TEID and addresses (an S5/S8 PGW
     * that sent both), else -1. On S11 the two differ (an SGW's and a PGW's interface type at least),
     * and instance 1 is not the sender's.
     */
    public static int twin(ByteBuf buf, GtpV2Header header, int sender) throws DecodeException {
        if (sender < 0 || header.messageType() != GtpV2MessageType.CREATE_SESSION_RESPONSE
                || (buf.getUnsignedByte(sender + 3) & 0x0F) != SENDER_INSTANCE) {
            return -1;
        }
        int pgw = usable(buf, GtpV2Ies.indexOf(buf, header.bodyOffset(), header.endOffset(),
                GtpV2IeType.F_TEID.value(), PGW_INSTANCE));
        if (pgw < 0 || !pgwStandsForSender(header.messageType(), interfaceType(buf, pgw))) {
            return -1;
        }
        int length = GtpV2Ies.valueLength(buf, sender);
        if (GtpV2Ies.valueLength(buf, pgw) != length) {
            return -1;
        }
        // Flags, interface type, TEID and addresses equal: the same endpoint. A combined SGW/PGW on S11
        // may name one address and TEID in both, but as S11/S4 SGW (11) and S5/S8 PGW (7): the PGW's
        // stays the MME's information, not the director's to rewrite.
        int a = sender + GtpV2Ies.IE_HEADER_LENGTH;
        int b = pgw + GtpV2Ies.IE_HEADER_LENGTH;
        for (int i = 0; i < length; i++) {
            if (buf.getByte(a + i) != buf.getByte(b + i)) {
                return -1;
            }
        }
        return pgw;
    }

    /** The model's reading of the same rule. */
    public static Optional<GtpV2Ie.Fteid> of(GtpV2Message message) {
        Optional<GtpV2Ie.Fteid> sender = first(message, SENDER_INSTANCE).filter(f -> hasAddress(f));
        if (sender.isPresent() || message.type() != GtpV2MessageType.CREATE_SESSION_RESPONSE) {
            return sender;
        }
        return first(message, PGW_INSTANCE)
                .filter(f -> hasAddress(f) && pgwStandsForSender(message.type(), f.interfaceType()));
    }

    /**
     * The first F-TEID of {@code instance} as {@link #locate} reads it: the first IE 87 of that instance, whatever
     * the model made of it. One longer than its flags call for is kept {@link GtpV2Ie.Raw} by the decoder (so that
     * it re-encodes as it came), but it is still an F-TEID: TS 29.274 §8.22 allows octets after the addresses
     * ("present only if explicitly specified"), which a receiver that does not know them ignores (§8.2.1). A shorter
     * one, or none, is empty — not a later one, which the view would not see either (found by the gtp-ies fuzz
     * target: the view took an F-TEID with extra octets for the sender's, the model did not).
     */
    private static Optional<GtpV2Ie.Fteid> first(GtpV2Message message, int instance) {
        for (GtpV2Ie ie : message.ies()) {
            if (ie.instance() != instance) {
                continue;
            }
            if (ie instanceof GtpV2Ie.Fteid f) {
                return Optional.of(f);
            }
            if (ie instanceof GtpV2Ie.Raw raw && raw.type() == GtpV2IeType.F_TEID.value()) {
                return Optional.ofNullable(GtpV2Ies.fteidPrefix(instance, raw.value()));
            }
        }
        return Optional.empty();
    }

    private static boolean hasAddress(GtpV2Ie.Fteid f) {
        return f.ipv4() != null || f.ipv6() != null;
    }

    private static int interfaceType(ByteBuf buf, int ie) {
        return buf.getUnsignedByte(ie + GtpV2Ies.IE_HEADER_LENGTH) & GtpV2Ies.FTEID_INTERFACE_TYPE;
    }

    /** {@code ie} when it is an F-TEID with a TEID and an address of each flagged family, else -1. */
    private static int usable(ByteBuf buf, int ie) {
        if (ie < 0) {
            return -1;
        }
        int length = GtpV2Ies.valueLength(buf, ie);
        if (length < 5) {
            return -1;
        }
        int flags = buf.getUnsignedByte(ie + GtpV2Ies.IE_HEADER_LENGTH);
        boolean hasV4 = (flags & GtpV2Ies.FTEID_V4) != 0;
        boolean hasV6 = (flags & GtpV2Ies.FTEID_V6) != 0;
        return (!hasV4 && !hasV6) || length < 5 + (hasV4 ? 4 : 0) + (hasV6 ? 16 : 0) ? -1 : ie;
    }
}
