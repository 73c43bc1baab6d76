package io.switchboard.director.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One whole, validated configuration document. Maps keep the document's order. {@code transport}
 * is empty without the key: epoll where available, else NIO ({@link TransportKind}).
 */
public record SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
        Map<String, VirtualServerConfig> virtualServers, Map<String, ProbeConfig> probes, RouteHealthConfig routeHealth,
        DebugCaptureConfig debugCapture, DispatchedConfig dispatched, PersistenceConfig persistence, DfpConfig dfp,
        StaticNatConfig staticNat, Optional<TransportKind> transport) {

    public SwitchboardConfig {
        farms = Collections.unmodifiableMap(new LinkedHashMap<>(farms));
        virtualServers = Collections.unmodifiableMap(new LinkedHashMap<>(virtualServers));
        probes = Collections.unmodifiableMap(new LinkedHashMap<>(probes));
        dispatched = dispatched == null ? DispatchedConfig.NONE : dispatched;
        persistence = persistence == null ? PersistenceConfig.NONE : persistence;
        dfp = dfp == null ? DfpConfig.NONE : dfp;
        staticNat = staticNat == null ? StaticNatConfig.NONE : staticNat;
        transport = transport == null ? Optional.empty() : transport;
    }

    /** A configuration without static NAT and without a {@code transport} key. */
    public SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
            Map<String, VirtualServerConfig> virtualServers, Map<String, ProbeConfig> probes,
            RouteHealthConfig routeHealth, DebugCaptureConfig debugCapture, DispatchedConfig dispatched,
            PersistenceConfig persistence, DfpConfig dfp) {
        this(cluster, admin, farms, virtualServers, probes, routeHealth, debugCapture, dispatched, persistence, dfp,
                StaticNatConfig.NONE, Optional.empty());
    }

    /** A configuration with static NAT, without a {@code transport} key. */
    public SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
            Map<String, VirtualServerConfig> virtualServers, Map<String, ProbeConfig> probes,
            RouteHealthConfig routeHealth, DebugCaptureConfig debugCapture, DispatchedConfig dispatched,
            PersistenceConfig persistence, DfpConfig dfp, StaticNatConfig staticNat) {
        this(cluster, admin, farms, virtualServers, probes, routeHealth, debugCapture, dispatched, persistence, dfp,
                staticNat, Optional.empty());
    }

    /** This configuration on {@code kind}. */
    public SwitchboardConfig withTransport(TransportKind kind) {
        return new SwitchboardConfig(cluster, admin, farms, virtualServers, probes, routeHealth, debugCapture,
                dispatched, persistence, dfp, staticNat, Optional.of(kind));
    }

    /** A configuration without DFP. */
    public SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
            Map<String, VirtualServerConfig> virtualServers, Map<String, ProbeConfig> probes,
            RouteHealthConfig routeHealth, DebugCaptureConfig debugCapture, DispatchedConfig dispatched,
            PersistenceConfig persistence) {
        this(cluster, admin, farms, virtualServers, probes, routeHealth, debugCapture, dispatched, persistence,
                DfpConfig.NONE);
    }

    /** A configuration without persistence. */
    public SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
            Map<String, VirtualServerConfig> virtualServers, Map<String, ProbeConfig> probes,
            RouteHealthConfig routeHealth, DebugCaptureConfig debugCapture, DispatchedConfig dispatched) {
        this(cluster, admin, farms, virtualServers, probes, routeHealth, debugCapture, dispatched,
                PersistenceConfig.NONE);
    }

    /** A configuration without dispatched-mode farms. */
    public SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
            Map<String, VirtualServerConfig> virtualServers, Map<String, ProbeConfig> probes,
            RouteHealthConfig routeHealth, DebugCaptureConfig debugCapture) {
        this(cluster, admin, farms, virtualServers, probes, routeHealth, debugCapture, DispatchedConfig.NONE);
    }

    /** A configuration with the default debug capture settings (nothing captured). */
    public SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
            Map<String, VirtualServerConfig> virtualServers, Map<String, ProbeConfig> probes,
            RouteHealthConfig routeHealth) {
        this(cluster, admin, farms, virtualServers, probes, routeHealth, DebugCaptureConfig.DEFAULT);
    }

    /** A configuration without route health injection. */
    public SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
            Map<String, VirtualServerConfig> virtualServers, Map<String, ProbeConfig> probes) {
        this(cluster, admin, farms, virtualServers, probes, RouteHealthConfig.NONE);
    }

    /** A configuration without probes. */
    public SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
            Map<String, VirtualServerConfig> virtualServers) {
        this(cluster, admin, farms, virtualServers, Map.of());
    }
}
