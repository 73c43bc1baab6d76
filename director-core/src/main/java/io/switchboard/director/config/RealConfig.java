package io.switchboard.director.config;

import io.switchboard.director.spi.RealKey;
import java.net.InetAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A real server of a farm.
 *
 * @param weight   static weight 1..255 (IOS default 8); weight 0 is only set at run time, by the
 *                 API or dynamic feedback, and stops new work going to the real
 * @param maxconns at most this many connections (in-flight transactions for datagram services)
 *                 before the real is MAXCONNS_THROTTLED; empty for no limit
 * @param inService false starts the real OUTOFSERVICE (IOS {@code no inservice})
 * @param values   what the plug-ins' own keys of the real say (RADIUS's {@code secret}), by key, in
 *                 the order they were declared; empty where none is configured
 * @param removal  what happens to the real's subscribers when a reload removes it ({@code on-remove},
 *                 {@code drain-deadline})
 * @param limits   the real's {@code rate} and {@code maxclients} (IOS's of the same names)
 */
public record RealConfig(InetAddress address, int port, int weight, OptionalInt maxconns, boolean inService,
        Map<RealKey<?>, Object> values, RemovalPolicy removal, RealLimits limits) {

    public static final int DEFAULT_WEIGHT = 8;

    public RealConfig {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        removal = removal == null ? RemovalPolicy.DEFAULT : removal;
        limits = limits == null ? RealLimits.NONE : limits;
    }

    /** A real without {@code rate} or {@code maxclients}. */
    public RealConfig(InetAddress address, int port, int weight, OptionalInt maxconns, boolean inService,
            Map<RealKey<?>, Object> values, RemovalPolicy removal) {
        this(address, port, weight, maxconns, inService, values, removal, RealLimits.NONE);
    }

    /** A real removed by the default policy ({@link RemovalPolicy#DEFAULT}). */
    public RealConfig(InetAddress address, int port, int weight, OptionalInt maxconns, boolean inService,
            Map<RealKey<?>, Object> values) {
        this(address, port, weight, maxconns, inService, values, RemovalPolicy.DEFAULT);
    }

    /** A real without plug-in values. */
    public RealConfig(InetAddress address, int port, int weight, OptionalInt maxconns, boolean inService) {
        this(address, port, weight, maxconns, inService, Map.of());
    }

    public Endpoint endpoint() {
        return new Endpoint(address, port);
    }

    /** The value a plug-in's key has for this real. */
    public <T> Optional<T> value(RealKey<T> key) {
        return key.in(values);
    }

    /**
     * As the record would print it, with the values of secret keys (RADIUS's {@code secret}) masked:
     * a real's configuration reaches log lines and assertion messages.
     */
    @Override
    public String toString() {
        StringBuilder shown = new StringBuilder();
        values.forEach((key, value) -> shown.append(shown.length() == 0 ? "" : ", ").append(key.name()).append('=')
                .append(io.switchboard.director.config.bind.Secrets.keyNames().contains(key.name()) ? "****" : value));
        return "RealConfig[address=" + address.getHostAddress() + ", port=" + port + ", weight=" + weight
                + ", maxconns=" + maxconns + ", inService=" + inService + ", values={" + shown + "}, removal=" + removal
                + "]";
    }

    /** This real, with {@code key} set to {@code value}. */
    public <T> RealConfig with(RealKey<T> key, T value) {
        Map<RealKey<?>, Object> more = new LinkedHashMap<>(values);
        more.put(key, value);
        return new RealConfig(address, port, weight, maxconns, inService, more, removal, limits);
    }
}
