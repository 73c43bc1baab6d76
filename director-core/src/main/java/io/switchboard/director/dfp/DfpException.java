package io.switchboard.director.dfp;

/** A DFP message that does not follow draft-eck-dfp-01, or that fails its Security TLV. */
public final class DfpException extends RuntimeException {

    private final boolean security;

    public DfpException(String message) {
        this(message, false);
    }

    DfpException(String message, boolean security) {
        super(message);
        this.security = security;
    }

    /** Whether the message failed (or lacked) its Security TLV rather than being malformed. */
    public boolean security() {
        return security;
    }
}
