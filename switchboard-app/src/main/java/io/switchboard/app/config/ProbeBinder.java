package io.switchboard.app.config;

import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.ProbeType;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Binds one {@code probes.NAME} section: the common keys (interval, timeout, failures, port) here,
 * the keys of its type by that type's binder (the engine's generic types and the plug-ins', from
 * {@link Plugins}); a key of another type is an error at its path. Problems go to the section's
 * error list.
 */
final class ProbeBinder {

    /**
     * A probe section: the common keys, with each type's own keys as the variant of its {@code type}
     * (declared by the type, the plug-ins' by the plug-in), in {@link Plugins}' order.
     */
    static final Schema PROBE = schema(Plugins.installed().probeTypes());

    private final List<ProbeType> types = Plugins.installed().probeTypes();

    private static Schema schema(List<ProbeType> types) {
        Schema common = Schema.of("a health check of every real of the farms naming it",
                Key.oneOf("type", types.stream().map(ProbeType::name).toList()).required()
                        .note("What the check does; each type's own keys are listed below it."),
                Key.duration("interval").defaultValue(ProbeConfig.DEFAULT_INTERVAL)
                        .note("Time between the end of one check and the start of the next."),
                Key.duration("timeout").defaultValue(ProbeConfig.DEFAULT_TIMEOUT).note("How long one check may take."),
                Key.integer("failures", 1, 100).defaultValue(ProbeConfig.DEFAULT_FAILURES)
                        .note("Failed checks in a row before the real is failed (`PROBE_FAILED`)."),
                Key.integer("port", 1, 65535).byDefault("the real's port").note("The port checked."));
        Map<String, Schema> variants = new LinkedHashMap<>();
        types.forEach(type -> variants.put(type.name(),
                Schema.of("the keys only probes of this type take, declared by the type", type.declaration())));
        return common.withVariants("type", variants);
    }

    /** The probe of section {@code s}, or empty when it has errors (each added to the list). */
    Optional<ProbeConfig> bind(String name, Section s) {
        String known = String.join(", ", types.stream().map(ProbeType::name).sorted().toList());
        if (!s.require("type", "required: one of " + known)) {
            return Optional.empty();
        }
        Optional<String> typeName = s.string("type");
        if (typeName.isEmpty()) {
            return Optional.empty();
        }
        Optional<ProbeType> type = types.stream().filter(t -> t.name().equals(typeName.get())).findFirst();
        if (type.isEmpty()) {
            s.error(s.pathOf("type"), "unknown probe type '" + typeName.get() + "' (known: " + known + ")");
            return Optional.empty();
        }
        List<String> own = type.get().keys();
        for (ProbeType other : types) {
            other.keys().stream().filter(key -> !own.contains(key) && s.has(key))
                    .forEach(key -> s.error(s.pathOf(key), "only for probes of type " + other.name()));
        }
        Duration interval = s.positiveDuration("interval").orElse(ProbeConfig.DEFAULT_INTERVAL);
        Duration timeout = s.positiveDuration("timeout").orElse(ProbeConfig.DEFAULT_TIMEOUT);
        int failures = s.integer("failures").orElse(ProbeConfig.DEFAULT_FAILURES);
        OptionalInt port = s.optionalInt("port", 1, 65535);
        Optional<ProbeCheck> check = type.get().bind(s.as(s.schema().variant(type.get().name())));
        return check.map(c -> new ProbeConfig(name, c, interval, timeout, failures, port));
    }
}
