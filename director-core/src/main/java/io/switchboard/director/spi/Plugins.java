package io.switchboard.director.spi;

import io.switchboard.director.probe.GenericProbeTypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The catalog of what the installed {@link PluginModule}s declare, by name, with the engine's own
 * generic parts first (the client-address sticky kind, the generic probe types). Built once per
 * class loader from {@code ServiceLoader}; {@link #of} builds one from given modules (tests).
 */
public final class Plugins {

    private static volatile Plugins installed;

    private final Map<String, DatagramService> services = new LinkedHashMap<>();
    private final Map<String, StickyKind> stickyKinds = new LinkedHashMap<>();
    private final Map<String, ProbeType> probeTypes = new LinkedHashMap<>();
    private final Map<String, RealKey<?>> realKeys = new LinkedHashMap<>();
    private final Map<String, MetricSpec> metrics = new LinkedHashMap<>();
    private LoadWeights loadWeights;

    private Plugins(List<PluginModule> modules) {
        stickyKinds.put(StickyKind.CLIENT_ADDRESS.configName(), StickyKind.CLIENT_ADDRESS);
        GenericProbeTypes.ALL.forEach(type -> probeTypes.put(type.name(), type));
        realKeys.put(io.switchboard.director.dfp.DfpBindId.KEY.name(), io.switchboard.director.dfp.DfpBindId.KEY);
        for (PluginModule module : modules) {
            addAll(services, module.services(), s -> s.spec().name(), "service", module);
            addAll(stickyKinds, module.stickyKinds(), StickyKind::configName, "sticky key kind", module);
            addAll(probeTypes, module.probeTypes(), ProbeType::name, "probe type", module);
            addAll(realKeys, module.realKeys(), RealKey::name, "real key", module);
            addAll(metrics, module.metrics(), MetricSpec::name, "metric", module);
            module.loadWeights().ifPresent(weights -> {
                if (loadWeights != null) {
                    throw new IllegalStateException(module.getClass().getName()
                            + " declares load weights, which another module declares too");
                }
                loadWeights = weights;
            });
        }
    }

    /** The modules on the class path, loaded on first use. */
    public static Plugins installed() {
        Plugins p = installed;
        if (p == null) {
            synchronized (Plugins.class) {
                p = installed;
                if (p == null) {
                    List<PluginModule> modules = new ArrayList<>();
                    ServiceLoader.load(PluginModule.class, PluginModule.class.getClassLoader()).forEach(modules::add);
                    installed = p = new Plugins(modules);
                }
            }
        }
        return p;
    }

    public static Plugins of(List<PluginModule> modules) {
        return new Plugins(modules);
    }

    /** Every service, in module order. */
    public List<DatagramService> services() {
        return List.copyOf(services.values());
    }

    public Optional<DatagramService> service(String name) {
        return Optional.ofNullable(services.get(name));
    }

    /** Every sticky key kind, the client address first. */
    public List<StickyKind> stickyKinds() {
        return List.copyOf(stickyKinds.values());
    }

    public Optional<StickyKind> stickyKind(String name) {
        return Optional.ofNullable(stickyKinds.get(name));
    }

    /** Every probe type, the generic ones first. */
    public List<ProbeType> probeTypes() {
        return List.copyOf(probeTypes.values());
    }

    public Optional<ProbeType> probeType(String name) {
        return Optional.ofNullable(probeTypes.get(name));
    }

    /** The keys of a real that plug-ins read, in module order. */
    public List<RealKey<?>> realKeys() {
        return List.copyOf(realKeys.values());
    }

    /** The plug-ins' metrics, in module order. */
    public List<MetricSpec> metrics() {
        return List.copyOf(metrics.values());
    }

    /** How reported load becomes weight, if a module says. */
    public Optional<LoadWeights> loadWeights() {
        return Optional.ofNullable(loadWeights);
    }

    private static <T> void addAll(Map<String, T> into, List<T> items, Function<T, String> name, String what,
            PluginModule module) {
        for (T item : items) {
            if (into.putIfAbsent(name.apply(item), item) != null) {
                throw new IllegalStateException(module.getClass().getName() + " declares " + what + " '"
                        + name.apply(item) + "', which another module declares too");
            }
        }
    }
}
