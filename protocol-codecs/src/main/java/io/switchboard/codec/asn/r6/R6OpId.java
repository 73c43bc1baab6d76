package io.switchboard.codec.asn.r6;

/** The OP-ID: the three high bits of the fourth header octet (NWG Stage 3 §5.3). 0 and 5..7 are invalid or reserved. */
public final class R6OpId {

    public static final int REQUEST = 1;    // "Request/Initiation"
    public static final int RESPONSE = 2;
    public static final int ACK = 3;
    public static final int INDICATION = 4;

    private R6OpId() {
    }

    public static String name(int opId) {
        return switch (opId) {
            case REQUEST -> "Request";
            case RESPONSE -> "Response";
            case ACK -> "Ack";
            case INDICATION -> "Indication";
            default -> "OP-ID-" + opId;
        };
    }
}
