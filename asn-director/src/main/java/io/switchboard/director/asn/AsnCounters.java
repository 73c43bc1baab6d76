package io.switchboard.director.asn;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.spi.MetricSpec;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * R6 counters of one virtual server: messages sent to a gateway and responses relayed from it, by
 * message type ({@code MS_PreAttachment_Req}, {@code MS_PreAttachment_Ack}, or function type and
 * OP-ID for the other messages). Shared by the virtual server's event loops. {@link #MESSAGES} is the
 * module's one metric ({@link AsnModule#metrics()}).
 */
final class AsnCounters {

    static final MetricSpec MESSAGES = new MetricSpec("switchboard.asn.messages", MetricSpec.Type.COUNTER,
            "R6 messages sent to a gateway or relayed from it, by message type", List.of("direction", "type", "real"));

    private final MeterRegistry registry;
    private final String virtualServer;
    /** direction → real → type → counter. */
    private final ConcurrentMap<String, ConcurrentMap<String, ConcurrentMap<String, Counter>>> counters =
            new ConcurrentHashMap<>();

    AsnCounters(MeterRegistry registry, String virtualServer) {
        this.registry = registry;
        this.virtualServer = virtualServer;
    }

    /** @param direction {@code to-gateway} or {@code from-gateway} */
    void message(String direction, String type, String real) {
        ConcurrentMap<String, Counter> byType = counters.computeIfAbsent(direction, d -> new ConcurrentHashMap<>())
                .computeIfAbsent(real, r -> new ConcurrentHashMap<>());
        Counter c = byType.get(type);
        if (c == null) {
            c = byType.computeIfAbsent(type, k -> MESSAGES.counter()
                    .tag("vserver", virtualServer).tag("direction", direction).tag("type", type).tag("real", real)
                    .register(registry));
        }
        c.increment();
    }
}
