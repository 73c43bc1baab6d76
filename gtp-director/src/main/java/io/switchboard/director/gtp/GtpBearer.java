package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v1.GtpV1IeType;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import io.switchboard.codec.gtp.v2.GtpV2IeType;
import io.switchboard.codec.gtp.v2.GtpV2Ies;

/**
 * The bearer a primary create names, as one number: what makes a later create of the same
 * subscriber a replacement of an existing session rather than another one.
 *
 * <ul>
 *   <li>GTPv2 (TS 29.274 §7.2.1): a Create Session Request that collides with an existing PDN
 *       connection, identified by the triplet [IMSI, EPS Bearer ID, interface type], is a request for
 *       a new session, and the receiver deletes the existing one locally first. The EBI is the one of
 *       the first Bearer Context to be created (§8.28, IE 93 holding the EBI, §8.8, IE 73); the
 *       interface type is the sender F-TEID's (§8.22).</li>
 *   <li>GTPv1 (TS 29.060 §7.3.1): a Create PDP Context Request for an IMSI and NSAPI (§7.7.17, IE 20)
 *       that already have an active PDP context is handled as a new activation that replaces it.</li>
 * </ul>
 *
 * <p>{@code 0x1000 | interface type << 4 | EBI} for v2, {@code 0x1000 | NSAPI} for v1, and 0 when the
 * create names none (v0 creates are keyed by their TID, which holds IMSI and NSAPI already).
 */
final class GtpBearer {

    static final int NONE = 0;
    private static final int PRESENT = 0x1000;
    /**
     * Not a bearer: the temporary context an SGW opens for indirect data forwarding during a handover
     * (TS 29.274 §7.2.18, §7.2.19), named by the Sender F-TEID of its Create Indirect Data Forwarding
     * Tunnel Response and ended by a Delete Indirect Data Forwarding Tunnel Request (§7.2.22).
     */
    static final int INDIRECT_FORWARDING = 0x2000;

    private GtpBearer() {
    }

    static int of(GtpMessageView view) throws DecodeException {
        switch (view.version()) {
            case 1: {
                ByteBuf buf = view.v1().buffer();
                int nsapi = GtpV1Ies.indexOf(buf, view.v1().bodyOffset(), view.v1().endOffset(), GtpV1IeType.NSAPI.value(), 0);
                return nsapi < 0 ? NONE : PRESENT | buf.getUnsignedByte(nsapi + 1) & 0x0F;
            }
            case 2: {
                ByteBuf buf = view.v2().buffer();
                int context = GtpV2Ies.indexOf(buf, view.v2().bodyOffset(), view.v2().endOffset(),
                        GtpV2IeType.BEARER_CONTEXT.value(), 0);
                if (context < 0) {
                    return NONE;
                }
                int from = context + GtpV2Ies.IE_HEADER_LENGTH;
                int ebi = GtpV2Ies.indexOf(buf, from, from + GtpV2Ies.valueLength(buf, context), GtpV2IeType.EBI.value(), 0);
                if (ebi < 0 || GtpV2Ies.valueLength(buf, ebi) < 1) {
                    return NONE;
                }
                int fteid = view.senderFteid();
                int interfaceType = fteid < 0 ? 0 : buf.getUnsignedByte(fteid + GtpV2Ies.IE_HEADER_LENGTH) & GtpV2Ies.FTEID_INTERFACE_TYPE;
                return PRESENT | interfaceType << 4 | buf.getUnsignedByte(ebi + GtpV2Ies.IE_HEADER_LENGTH) & 0x0F;
            }
            default:
                return NONE;
        }
    }
}
