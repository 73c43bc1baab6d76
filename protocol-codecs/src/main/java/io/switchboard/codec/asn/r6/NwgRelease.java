package io.switchboard.codec.asn.r6;

/**
 * The WiMAX Forum NWG Stage 3 release an ASN speaks, a configuration setting: the MS State message
 * numbers changed between releases, and nothing on the wire says which one a peer follows.
 * MS_PreAttachment Req/Rsp/Ack are message types 6/7/8 in R1.0 v1.0.0 and 1/2/3 from v1.2.0 on
 * (as in tshark's wimaxasncp dissector, whose default is v1.2.1).
 */
public enum NwgRelease {
    R1_0_V1_0_0(6),
    R1_0_V1_2_0(1),
    R1_0_V1_2_1(1);

    private final int preAttachmentRequest;

    NwgRelease(int preAttachmentRequest) {
        this.preAttachmentRequest = preAttachmentRequest;
    }

    /** The message type number of {@code message} in this release (function type MS State). */
    public int messageType(R6PreAttachment message) {
        return preAttachmentRequest + message.ordinal();
    }

    /**
     * Which MS_PreAttachment message a header with this function type and message type is, or null.
     * The OP-ID is not consulted: it is the message type that names the message.
     */
    public R6PreAttachment preAttachment(int functionType, int messageType) {
        if (functionType != R6FunctionType.MS_STATE.value()) {
            return null;
        }
        int index = messageType - preAttachmentRequest;
        return index >= 0 && index < 3 ? R6PreAttachment.values()[index] : null;
    }

    public R6PreAttachment preAttachment(R6View view) {
        return preAttachment(view.functionType(), view.messageType());
    }
}
