package io.switchboard.l4.dispatch;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The counters of one dispatched-mode farm: every captured frame ends in exactly one outcome of
 * {@code switchboard_dispatched_frames_total{farm,kind,outcome}}; every flow given a real counts once in
 * {@code switchboard_dispatched_selections_total{farm,kind,reason}}.
 */
final class DispatchMetrics {

    enum Outcome {
        /** Sent to the chosen real's MAC address. */
        FORWARDED("forwarded"),
        /** Addressed to the director itself: left to its own IP stack. */
        LOCAL("local"),
        /** Cut short or with contradicting IPv4 header fields. */
        MALFORMED("malformed"),
        /** Not IPv4, or not a protocol or address this farm dispatches. */
        UNEXPECTED("unexpected"),
        /** A UDP datagram to a GTP port, left to the host by an all-port farm (IOS all-port rule). */
        GTP_PORT("gtp-port"),
        /** No real could take a new flow (all failed, or all at maxconns). */
        NO_REAL("no-real-available"),
        /** The interface refused the frame. */
        SEND_FAILED("send-failed"),
        /** Anything else that went wrong with one frame; the capture loop goes on. */
        ERROR("error");

        final String tag;

        Outcome(String tag) {
            this.tag = tag;
        }
    }

    private final MeterRegistry registry;
    private final Tags tags;
    private final Map<Outcome, Counter> frames = new EnumMap<>(Outcome.class);
    private final Map<String, Counter> selections = new ConcurrentHashMap<>();

    DispatchMetrics(MeterRegistry registry, String farm, String kind) {
        this.registry = registry;
        this.tags = Tags.of("farm", farm, "kind", kind);
        for (Outcome outcome : Outcome.values()) {
            frames.put(outcome, Counter.builder("switchboard.dispatched.frames")
                    .description("Frames captured by a dispatched-mode farm, by outcome")
                    .tags(tags).tag("outcome", outcome.tag).register(registry));
        }
    }

    void frame(Outcome outcome) {
        frames.get(outcome).increment();
    }

    double frames(Outcome outcome) {
        return frames.get(outcome).count();
    }

    /** A flow given a real: {@code hash}, {@code sticky}, {@code framed-ip}, {@code reassigned}, ... */
    void selected(String reason) {
        selections.computeIfAbsent(reason, r -> Counter.builder("switchboard.dispatched.selections")
                .description("Flows given a real by a dispatched-mode farm, by how it was chosen")
                .tags(tags).tag("reason", r).register(registry)).increment();
    }

    double selectedCount(String reason) {
        Counter c = selections.get(reason);
        return c == null ? 0 : c.count();
    }
}
