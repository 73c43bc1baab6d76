package io.switchboard.director.spi;

import java.util.List;
import java.util.Optional;

/**
 * What a plug-in module brings to a build, found through {@code ServiceLoader}: a module lists its
 * implementation in {@code META-INF/services/io.switchboard.director.spi.PluginModule}, and nothing
 * outside the module names it. Everything the configuration, the admin API and the cluster know
 * about a protocol comes from here: its services (each with its {@link ServiceSpec}), the sticky
 * key kinds its plug-ins extract, its probe types, the per-real keys it reads and the metrics it
 * exports.
 *
 * <p>Names are global: two modules declaring the same service, sticky kind, probe type, real key or
 * metric is an error when the modules are loaded. Lists of names in errors follow the order of the
 * modules on the class path (the application's dependency list), then each module's own order.
 */
public interface PluginModule {

    /** The services this module implements. */
    List<DatagramService> services();

    /** The sticky key kinds the module's plug-ins extract (beyond the engine's client address). */
    default List<StickyKind> stickyKinds() {
        return List.of();
    }

    /** The probe types of the module's protocols (beyond the engine's generic ones). */
    default List<ProbeType> probeTypes() {
        return List.of();
    }

    /** The keys of a real that the module's plug-ins read (RADIUS's {@code secret}). */
    default List<RealKey<?>> realKeys() {
        return List.of();
    }

    /**
     * Every meter the module's plug-ins and probes register (the engine's own per virtual server and
     * per real are not the module's to declare).
     */
    default List<MetricSpec> metrics() {
        return List.of();
    }

    /** How reals of the module's services turn reported load into weight, if they report it. */
    default Optional<LoadWeights> loadWeights() {
        return Optional.empty();
    }
}
