package io.switchboard.director.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.PluginModule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Holds the meters a module's plug-ins registered against what the module declares
 * ({@link PluginModule#metrics()}): every meter under {@code switchboard.} in the registry is declared,
 * with its type and tag keys, and carries {@code vserver}; every declared one was registered. A
 * module's test attaches its plug-ins to a registry of their own (the engine's meters elsewhere) and
 * drives them until each meter exists.
 */
public final class DeclaredMeters {

    private DeclaredMeters() {
    }

    public static void assertDeclared(PluginModule module, MeterRegistry registry) {
        assertThat(differences(module.metrics(), registry)).as("%s: registered vs declared metrics",
                module.getClass().getSimpleName()).isEmpty();
    }

    /** What differs, one line a difference; empty when the registry holds exactly what is declared. */
    public static List<String> differences(List<MetricSpec> declared, MeterRegistry registry) {
        Map<String, MetricSpec> byName = new LinkedHashMap<>();
        declared.forEach(spec -> byName.put(spec.name(), spec));
        Set<String> registered = new LinkedHashSet<>();
        Set<String> differences = new LinkedHashSet<>();
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            if (!id.getName().startsWith("switchboard.")) {
                continue;
            }
            registered.add(id.getName());
            MetricSpec spec = byName.get(id.getName());
            if (spec == null) {
                differences.add(id.getName() + ": registered, not declared");
                continue;
            }
            String type = MetricSpec.Type.of(meter).map(Enum::name).orElse(meter.getClass().getSimpleName());
            if (!type.equals(spec.type().name())) {
                differences.add(id.getName() + ": registered a " + type + ", declared a " + spec.type());
            }
            Set<String> keys = new TreeSet<>();
            for (Tag tag : id.getTags()) {
                keys.add(tag.getKey());
            }
            if (!keys.remove("vserver")) {
                differences.add(id.getName() + ": registered without vserver");
            }
            keys.remove("service");
            if (!keys.equals(new TreeSet<>(spec.tags()))) {
                differences.add(id.getName() + ": registered with tags " + keys + ", declared " + spec.tags());
            }
        }
        for (String name : byName.keySet()) {
            if (!registered.contains(name)) {
                differences.add(name + ": declared, not registered");
            }
        }
        return new ArrayList<>(differences);
    }
}
