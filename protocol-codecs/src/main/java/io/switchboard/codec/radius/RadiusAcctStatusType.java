package io.switchboard.codec.radius;

/** Values of Acct-Status-Type (RFC 2866 §5.1) that a director acts on. Other values pass through as ints. */
public final class RadiusAcctStatusType {

    public static final int START = 1;
    public static final int STOP = 2;
    public static final int INTERIM_UPDATE = 3;     // RFC 2866 §5.1 (named Alive there)
    public static final int ACCOUNTING_ON = 7;
    public static final int ACCOUNTING_OFF = 8;

    private RadiusAcctStatusType() {
    }
}
