package io.switchboard.codec.asn.r6;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * The Function Type octet of the R6 header (WiMAX Forum NWG Stage 3, R1.0 v1.2.1 §5.3; values as
 * tshark's wimaxasncp dissector names them). An open value class.
 */
public final class R6FunctionType extends OctetCode {

    private static final OctetCodes<R6FunctionType> CODES = new OctetCodes<>("R6 function type");

    public static final R6FunctionType QOS = named(1, "QoS");
    public static final R6FunctionType HO_CONTROL = named(2, "HO Control");
    public static final R6FunctionType DATA_PATH_CONTROL = named(3, "Data Path Control");
    public static final R6FunctionType CONTEXT_TRANSFER = named(4, "Context Transfer");
    public static final R6FunctionType R3_MOBILITY = named(5, "R3 Mobility");
    public static final R6FunctionType PAGING = named(6, "Paging");
    public static final R6FunctionType RRM = named(7, "RRM");
    public static final R6FunctionType AUTHENTICATION_RELAY = named(8, "Authentication Relay");
    /** MS State: carries MS_PreAttachment Req/Rsp/Ack, see {@link NwgRelease}. */
    public static final R6FunctionType MS_STATE = named(9, "MS State");
    public static final R6FunctionType IM_OPERATIONS = named(10, "IM Operations");
    public static final R6FunctionType ACCOUNTING = named(11, "Accounting");

    static {
        CODES.complete(value -> new R6FunctionType(value, "Function-" + value, false));
    }

    private R6FunctionType(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static R6FunctionType named(int value, String name) {
        return CODES.define(new R6FunctionType(value, name, true));
    }

    /** The code with this value, named or not; never null for 0..255. */
    public static R6FunctionType valueOf(int value) {
        return CODES.of(value);
    }

    @Override
    public String toString() {
        return name() + "(" + value() + ")";
    }
}
