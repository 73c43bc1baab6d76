package io.switchboard.codec.asn.r6;

import java.util.List;
import java.util.Objects;

/** An immutable {@link R6Message}. */
public record DefaultR6Message(int version, int flags, R6FunctionType functionType, int opId, int messageType,
                               long msid, int transactionId, int reserved1, int reserved2, List<R6Tlv> tlvs)
        implements R6Message {

    public DefaultR6Message {
        Objects.requireNonNull(functionType, "functionType");
        if (version < 0 || version > 0xFF || flags < 0 || flags > 0xFF || opId < 0 || opId > 7
                || messageType < 0 || messageType > 0x1F || transactionId < 0 || transactionId > 0xFFFF
                || reserved2 < 0 || reserved2 > 0xFFFF || msid < 0 || msid > 0xFFFF_FFFF_FFFFL) {
            throw new IllegalArgumentException("R6 header field out of range");
        }
        tlvs = List.copyOf(tlvs);
    }

    /** A message with zero reserved fields, as a sender builds one. */
    public static DefaultR6Message of(int flags, R6FunctionType functionType, int opId, int messageType, long msid,
                                      int transactionId, List<R6Tlv> tlvs) {
        return new DefaultR6Message(1, flags, functionType, opId, messageType, msid, transactionId, 0, 0, tlvs);
    }

    /** An MS_PreAttachment message numbered for {@code release}. */
    public static DefaultR6Message preAttachment(NwgRelease release, R6PreAttachment message, long msid,
                                                 int transactionId, List<R6Tlv> tlvs) {
        int opId = switch (message) {
            case REQUEST -> R6OpId.REQUEST;
            case RESPONSE -> R6OpId.RESPONSE;
            case ACK -> R6OpId.ACK;
        };
        return of(0, R6FunctionType.MS_STATE, opId, release.messageType(message), msid, transactionId, tlvs);
    }
}
