package io.switchboard.director.spi;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * One meter a plug-in module's plug-ins or probes register, as {@link PluginModule#metrics()} declares
 * it: so that what a build exports can be listed (the metrics reference, alert rules) without
 * running it. The module's metrics classes build their meters from the spec ({@link #counter()},
 * {@link #gauge}, {@link #functionCounter}), so that the name and the description are written once;
 * each module's test holds the meters its plug-ins register against what it declares.
 *
 * <p>A plug-in's meters all carry {@code vserver}, the virtual server they count for (the engine's
 * own also carry {@code service}); {@code tags} are the keys beyond those, in the order a reader
 * expects them. Names are global, like services: two modules declaring one name fail when the
 * modules are loaded.
 *
 * @param name        the Micrometer name, as registered ({@code switchboard.gtp.messages}; Prometheus
 *                    shows a counter as {@code switchboard_gtp_messages_total})
 * @param type        the meter's type
 * @param description the meter's description (Prometheus's {@code # HELP})
 * @param tags        the tag keys beyond {@code vserver}
 */
public record MetricSpec(String name, Type type, String description, List<String> tags) {

    /** The Micrometer meter types, by the interface a registered meter implements. */
    public enum Type {
        COUNTER(Counter.class),
        FUNCTION_COUNTER(FunctionCounter.class),
        GAUGE(Gauge.class),
        TIMER(Timer.class),
        DISTRIBUTION_SUMMARY(DistributionSummary.class);

        private final Class<? extends Meter> meter;

        Type(Class<? extends Meter> meter) {
            this.meter = meter;
        }

        /** The type of a registered meter; empty for one of no type here (a long task timer, ...). */
        public static Optional<Type> of(Meter meter) {
            for (Type type : values()) {
                if (type.meter.isInstance(meter)) {
                    return Optional.of(type);
                }
            }
            return Optional.empty();
        }
    }

    public MetricSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(description, "description");
        tags = List.copyOf(tags);
        if (!name.startsWith("switchboard.")) {
            throw new IllegalArgumentException("metric " + name + ": not under switchboard.");
        }
        if (tags.contains("vserver") || tags.contains("service")) {
            throw new IllegalArgumentException("metric " + name + ": vserver and service are not declared");
        }
    }

    /** A builder of this counter, named and described; the caller adds the tags and registers it. */
    public Counter.Builder counter() {
        expect(Type.COUNTER);
        return Counter.builder(name).description(description);
    }

    /** A builder of this gauge, reading {@code f} of {@code obj}. */
    public <T> Gauge.Builder<T> gauge(T obj, ToDoubleFunction<T> f) {
        expect(Type.GAUGE);
        return Gauge.builder(name, obj, f).description(description);
    }

    /** A builder of this function counter, reading {@code f} of {@code obj}. */
    public <T> FunctionCounter.Builder<T> functionCounter(T obj, ToDoubleFunction<T> f) {
        expect(Type.FUNCTION_COUNTER);
        return FunctionCounter.builder(name, obj, f).description(description);
    }

    private void expect(Type built) {
        if (type != built) {
            throw new IllegalStateException("metric " + name + " is declared a " + type + ", not a " + built);
        }
    }
}
