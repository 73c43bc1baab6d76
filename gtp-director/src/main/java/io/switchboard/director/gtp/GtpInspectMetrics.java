package io.switchboard.director.gtp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.RealView;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@code gtp-inspect} virtual server's metrics ({@link GtpMeters}), all tagged {@code vserver}:
 *
 * <ul>
 *   <li>{@code switchboard.gtp.messages{real, version, type, cause, initiator}}: every GTP message it
 *       passes between a requester and a real, by message type and (for responses) cause.
 *       {@code initiator} says whose transaction it is: {@code requester} (SGSN/MME request to the
 *       real and its answer) or {@code real} (a GGSN/PGW request relayed to the requester and its
 *       answer). Counters are created on first use and then found by one map lookup.</li>
 *   <li>{@code switchboard.gtp.sessions.open{real}} (gauge), and the sessions that ended by
 *       {@code expired} (idleness), {@code purged} (their real restarted), {@code cleared} (an operator's
 *       {@code clear sessions}), {@code replaced} (a create
 *       for the same subscriber and bearer).</li>
 *   <li>{@code switchboard.gtp.rewrite.skipped}: addresses left as they were.</li>
 * </ul>
 *
 * Until {@link #attach} (tests, offline tools) everything counts into a registry of its own.
 */
final class GtpInspectMetrics {

    /** Whose transaction a message is part of. */
    enum Initiator { REQUESTER, REAL }

    private volatile MeterRegistry registry;
    private volatile Tags tags;
    private volatile Map<Long, Counter> messages;
    private volatile Counter sessionsExpired;
    private volatile Counter sessionsPurged;
    private volatile Counter sessionsCleared;
    private volatile Counter sessionsReplaced;

    GtpInspectMetrics() {
        register(new SimpleMeterRegistry(), Tags.empty());
    }

    /** Registers every metric in the engine's registry, tagged with the virtual server. */
    void attach(MeterRegistry registry, String virtualServer, GtpEndpointRewriter rewriter) {
        Tags tags = Tags.of("vserver", virtualServer);
        register(registry, tags);
        GtpMeters.REWRITE_SKIPPED.functionCounter(rewriter, GtpEndpointRewriter::skipped).tags(tags).register(registry);
    }

    private void register(MeterRegistry registry, Tags tags) {
        this.registry = registry;
        this.tags = tags;
        this.messages = new ConcurrentHashMap<>();
        sessionsExpired = counter(GtpMeters.SESSIONS_EXPIRED);
        sessionsPurged = counter(GtpMeters.SESSIONS_PURGED);
        sessionsCleared = counter(GtpMeters.SESSIONS_CLEARED);
        sessionsReplaced = counter(GtpMeters.SESSIONS_REPLACED);
    }

    private Counter counter(MetricSpec spec) {
        return spec.counter().tags(tags).register(registry);
    }

    /** Counts the message in {@code view} (read after any rewrite: type and cause do not change). */
    void message(GtpMessageView view, int cause, RealView real, Initiator initiator) {
        int version = view.version();
        int type = view.messageTypeValue();
        long key = ((long) real.slot() << 24) | ((long) version << 20) | ((long) type << 11) | ((cause + 1L) << 1)
                | initiator.ordinal();
        Map<Long, Counter> counters = messages;
        Counter counter = counters.get(key);
        if (counter == null) {
            counter = counters.computeIfAbsent(key, k -> GtpMeters.MESSAGES.counter()
                    .tags(tags).tag("real", real.id()).tag("version", Integer.toString(version))
                    .tag("type", typeName(view)).tag("cause", cause < 0 ? "none" : Integer.toString(cause))
                    .tag("initiator", initiator.name().toLowerCase(Locale.ROOT)).register(registry));
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

    /** The gauge of {@code real}'s open sessions, reading {@code count}. */
    void openSessions(RealView real, AtomicInteger count) {
        GtpMeters.SESSIONS_OPEN.gauge(count, AtomicInteger::get).tags(tags).tag("real", real.id()).register(registry);
    }

    void sessionExpired() {
        sessionsExpired.increment();
    }

    void sessionPurged() {
        sessionsPurged.increment();
    }

    void sessionCleared() {
        sessionsCleared.increment();
    }

    void sessionReplaced() {
        sessionsReplaced.increment();
    }

}
