package io.switchboard.app.config;

import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.ProbeType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Binds one {@code probes.NAME} section: the common keys (interval, timeout, failures, port) here,
 * the keys of its type by that type's binder (the engine's generic types and the plug-ins', from
 * {@link Plugins}); a key of another type is an error at its path. Problems go to the section's
 * error list.
 */
final class ProbeBinder {

    static final List<String> COMMON_KEYS = List.of("type", "interval", "timeout", "failures", "port");

    private final List<ProbeType> types = Plugins.installed().probeTypes();

    /** The keys a probe section may have: the common ones, then each type's in {@link Plugins}' order. */
    static List<String> keys() {
        List<String> keys = new ArrayList<>(COMMON_KEYS);
        Plugins.installed().probeTypes().forEach(type -> keys.addAll(type.keys()));
        return List.copyOf(keys);
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
        int failures = s.integer("failures", 1, 100).orElse(ProbeConfig.DEFAULT_FAILURES);
        OptionalInt port = s.optionalInt("port", 1, 65535);
        Optional<ProbeCheck> check = type.get().bind(s);
        return check.map(c -> new ProbeConfig(name, c, interval, timeout, failures, port));
    }
}
