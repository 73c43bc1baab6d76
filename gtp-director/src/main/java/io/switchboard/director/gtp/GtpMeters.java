package io.switchboard.director.gtp;

import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.MetricSpec.Type;
import java.util.List;

/**
 * The meters of the GTP plug-ins ({@link GtpModule#metrics()}), each tagged {@code vserver}:
 * {@link GtpInspectMetrics} builds those of {@code gtp-inspect}, {@link GtpLoadFeedback} the load
 * control outcomes of both services.
 */
final class GtpMeters {

    static final MetricSpec MESSAGES = new MetricSpec("switchboard.gtp.messages", Type.COUNTER,
            "GTP messages passed by gtp-inspect, by type and cause",
            List.of("real", "version", "type", "cause", "initiator"));
    static final MetricSpec SESSIONS_OPEN = new MetricSpec("switchboard.gtp.sessions.open", Type.GAUGE,
            "Open gtp-inspect sessions per real", List.of("real"));
    static final MetricSpec SESSIONS_EXPIRED = new MetricSpec("switchboard.gtp.sessions.expired", Type.COUNTER,
            "Sessions ended after session-idle without a message", List.of());
    static final MetricSpec SESSIONS_PURGED = new MetricSpec("switchboard.gtp.sessions.purged", Type.COUNTER,
            "Sessions ended because their real restarted", List.of());
    static final MetricSpec SESSIONS_CLEARED = new MetricSpec("switchboard.gtp.sessions.cleared", Type.COUNTER,
            "Sessions ended by an operator (clear sessions)", List.of());
    static final MetricSpec SESSIONS_REPLACED = new MetricSpec("switchboard.gtp.sessions.replaced", Type.COUNTER,
            "Sessions ended because a create for the same subscriber and bearer was accepted", List.of());
    static final MetricSpec REWRITE_SKIPPED = new MetricSpec("switchboard.gtp.rewrite.skipped",
            Type.FUNCTION_COUNTER, "Control-plane addresses left unchanged: no director address of their family",
            List.of());
    static final MetricSpec LOAD_CONTROL = new MetricSpec("switchboard.gtp.load.control", Type.COUNTER,
            "GTPv2 Load/Overload Control Information from reals, by outcome", List.of("ie", "result"));

    static final List<MetricSpec> ALL = List.of(MESSAGES, SESSIONS_OPEN, SESSIONS_EXPIRED, SESSIONS_PURGED,
            SESSIONS_CLEARED, SESSIONS_REPLACED, REWRITE_SKIPPED, LOAD_CONTROL);

    private GtpMeters() {
    }
}
