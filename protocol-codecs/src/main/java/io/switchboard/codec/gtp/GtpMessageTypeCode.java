package io.switchboard.codec.gtp;

import io.switchboard.codec.OctetCode;

/**
 * What the message types of every GTP version share: whether a type is a request, a response or a
 * notification, and whether it creates a tunnel (the messages a director balances).
 */
public abstract class GtpMessageTypeCode extends OctetCode {

    protected static final int REQUEST = 1;
    protected static final int RESPONSE = 2;
    protected static final int NOTIFICATION = 3;
    protected static final int TUNNEL = 0x10;

    private final int kind;

    protected GtpMessageTypeCode(int value, String name, int kind, boolean named) {
        super(value, name, named);
        this.kind = kind;
    }

    public final boolean isRequest() {
        return (kind & 0x0F) == REQUEST;
    }

    public final boolean isResponse() {
        return (kind & 0x0F) == RESPONSE;
    }

    public final boolean createsTunnel() {
        return (kind & TUNNEL) != 0;
    }
}
