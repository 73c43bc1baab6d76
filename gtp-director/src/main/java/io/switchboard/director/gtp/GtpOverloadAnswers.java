package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v0.GtpV0Header;
import io.switchboard.codec.gtp.v0.GtpV0IeType;
import io.switchboard.codec.gtp.v1.GtpV1Header;
import io.switchboard.codec.gtp.v1.GtpV1IeType;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import io.switchboard.codec.gtp.GtpControlEndpoint;

/**
 * The director's refusal of a create it does not admit ({@code overload:}): a Create PDP Context
 * Response (v0, v1) or Create Session Response (v2) with cause "No resources available", addressed to
 * the requester's own TEID so that it matches the requester's pending create, from the virtual
 * address. Only creates are answered; a request of a session the director sheds goes unanswered and
 * the requester's retransmission (T3-RESPONSE × N3-REQUESTS) tries again.
 */
final class GtpOverloadAnswers {

    /** TS 29.060 §7.7.1 (and GSM 09.60 §7.9.1): "No resources available". */
    static final int V1_NO_RESOURCES = 199;
    /** TS 29.274 §8.4, Table 8.4-1: "No resources available". */
    static final int V2_NO_RESOURCES = 73;

    private static final int V1_CREATE_PDP_CONTEXT_RESPONSE = 17;
    private static final int V2_CREATE_SESSION_RESPONSE = 33;
    private static final int V2_CAUSE = 2;

    private GtpOverloadAnswers() {
    }

    /** The refusal of the create the view is wrapped around, or null when it is no create. */
    static ByteBuf noResources(GtpMessageView create, ByteBufAllocator alloc) throws DecodeException {
        if (!create.isRequest() || !create.createsTunnel()) {
            return null;
        }
        switch (create.version()) {
            case 0:
                return v0(create.v0(), alloc);
            case 1:
                return v1(create.v1(), alloc);
            default: {
                // TS 29.274 §5.5.2: a response goes to the TEID the request's Sender F-TEID for Control
                // Plane gave; 0 only when the request carried none that can be read.
                GtpControlEndpoint sender = create.senderControlPlane();
                long teid = sender == null ? 0 : sender.teid();
                ByteBuf out = alloc.buffer(18);
                // TS 29.274 §5.1: version 2, T flag; length counts from the sequence number on.
                out.writeByte(0x48).writeByte(V2_CREATE_SESSION_RESPONSE).writeShort(14).writeInt((int) teid)
                        .writeMedium(create.sequence()).writeByte(0);
                // §8.4: Cause, length 2, instance 0; flags 0 (not the remote node's cause, CS = 0).
                out.writeByte(V2_CAUSE).writeShort(2).writeByte(0).writeByte(V2_NO_RESOURCES).writeByte(0);
                return out;
            }
        }
    }

    /**
     * TS 29.060 §7.3.2: with a cause other than "Request accepted" only the Cause is included; the
     * header TEID is the requester's TEID Control Plane (§7.7.14) — 0 when the create carried none.
     */
    private static ByteBuf v1(GtpV1Header request, ByteBufAllocator alloc) throws DecodeException {
        ByteBuf in = request.buffer();
        int ie = GtpV1Ies.indexOf(in, request.bodyOffset(), request.endOffset(), GtpV1IeType.TEID_CONTROL_PLANE.value(), 0);
        long teid = ie < 0 ? 0 : in.getUnsignedInt(ie + 1);
        ByteBuf out = alloc.buffer(14);
        // §6: version 1, PT 1, S flag; length counts the 4 optional header octets and the Cause.
        out.writeByte(0x32).writeByte(V1_CREATE_PDP_CONTEXT_RESPONSE).writeShort(6).writeInt((int) teid)
                .writeShort(request.sequence()).writeByte(0).writeByte(0);
        out.writeByte(GtpV1IeType.CAUSE.value()).writeByte(V1_NO_RESOURCES);
        return out;
    }

    /**
     * GSM 09.60 §7.5.2: the request's TID, the flow label the SGSN gave for signalling (§7.9.15), the
     * request's sequence number, and the Cause alone.
     */
    private static ByteBuf v0(GtpV0Header request, ByteBufAllocator alloc) throws DecodeException {
        ByteBuf in = request.buffer();
        int at = request.offset();
        int ie = GtpV1Ies.indexOf(in, request.bodyOffset(), request.endOffset(),
                GtpV0IeType.FLOW_LABEL_SIGNALLING.value(), 0, GtpV0Codec.TV_LENGTHS);
        ByteBuf out = alloc.buffer(22);
        out.writeBytes(in, at, 20);
        out.setByte(1, V1_CREATE_PDP_CONTEXT_RESPONSE);
        out.setShort(2, 2);
        out.setShort(6, ie < 0 ? 0 : in.getUnsignedShort(ie + 1));
        out.writeByte(GtpV0IeType.CAUSE.value()).writeByte(V1_NO_RESOURCES);
        return out;
    }
}
