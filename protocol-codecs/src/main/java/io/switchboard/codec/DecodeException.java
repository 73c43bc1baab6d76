package io.switchboard.codec;

/**
 * The one exception a codec raises for malformed input. Stackless: malformed packets are an
 * expected, counted outcome on the hot path, and filling in a stack trace per packet would cost
 * more than decoding it.
 */
public final class DecodeException extends Exception {

    private final DropReason reason;

    public DecodeException(DropReason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    /** Shorthand for a length check: {@code need} bytes were required at {@code offset}, {@code have} present. */
    public static DecodeException truncated(String what, int offset, int need, int have) {
        return new DecodeException(DropReason.TRUNCATED,
                what + ": need " + need + " bytes at offset " + offset + ", have " + have);
    }

    public DropReason reason() {
        return reason;
    }
}
