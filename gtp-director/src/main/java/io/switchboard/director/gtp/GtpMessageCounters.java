package io.switchboard.director.gtp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.real.RealServer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code switchboard.gtp.messages{vserver, real, version, type, cause, initiator}}: every GTP message a
 * {@code gtp-inspect} virtual server passes between a requester and a real, by message type and (for
 * responses) cause. {@code initiator} says whose transaction it is: {@code requester} (SGSN/MME
 * request to the real and its answer) or {@code real} (a GGSN/PGW request relayed to the requester
 * and its answer). Counters are created on first use and then found by one map lookup.
 */
final class GtpMessageCounters {

    enum Initiator { REQUESTER, REAL }

    private final MeterRegistry registry;
    private final Tags tags;
    private final Map<Long, Counter> counters = new ConcurrentHashMap<>();

    GtpMessageCounters(MeterRegistry registry, Tags tags) {
        this.registry = registry;
        this.tags = tags;
    }

    /** Counts the message in {@code view} (read after any rewrite: type and cause do not change). */
    void count(GtpMessageView view, int cause, RealServer real, Initiator initiator) {
        int version = view.version();
        int type = view.messageTypeValue();
        long key = ((long) real.slot() << 24) | ((long) version << 20) | ((long) type << 11) | ((cause + 1L) << 1)
                | initiator.ordinal();
        Counter counter = counters.get(key);
        if (counter == null) {
            counter = counters.computeIfAbsent(key, k -> Counter.builder("switchboard.gtp.messages")
                    .description("GTP messages passed by gtp-inspect, by type and cause")
                    .tags(tags).tag("real", real.id()).tag("version", Integer.toString(version))
                    .tag("type", typeName(view)).tag("cause", cause < 0 ? "none" : Integer.toString(cause))
                    .tag("initiator", initiator.name().toLowerCase(java.util.Locale.ROOT)).register(registry));
        }
        counter.increment();
    }

    private static String typeName(GtpMessageView view) {
        return switch (view.version()) {
            case 0 -> view.v0().messageType().name();
            case 1 -> view.v1().messageType().name();
            default -> view.v2().messageType().name();
        };
    }
}
