package io.switchboard.codec.asn.r6;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Function Type octet of the R6 header (WiMAX Forum NWG Stage 3, R1.0 v1.2.1 §5.3; values as
 * tshark's wimaxasncp dissector names them). An open value class.
 */
public final class R6FunctionType {

    private static final Map<Integer, R6FunctionType> NAMED = new ConcurrentHashMap<>();

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

    private final int value;
    private final String name;

    private R6FunctionType(int value, String name) {
        this.value = value;
        this.name = name;
    }

    private static R6FunctionType named(int value, String name) {
        R6FunctionType type = new R6FunctionType(value, name);
        NAMED.put(value, type);
        return type;
    }

    public static R6FunctionType valueOf(int value) {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("R6 function type out of range: " + value);
        }
        R6FunctionType known = NAMED.get(value);
        return known != null ? known : new R6FunctionType(value, "Function-" + value);
    }

    public int value() {
        return value;
    }

    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof R6FunctionType other && other.value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }

    @Override
    public String toString() {
        return name + "(" + value + ")";
    }
}
