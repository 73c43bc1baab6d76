package io.switchboard.director.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A server farm: its reals, predictor, failure detection, optional backup farm, the names of the
 * probes run against its reals (all must pass), the slow-start time of a real put (back) in
 * service (empty: none), and the route map of {@code predictor: route-map}.
 *
 * @param routeMap the route-map ("turbo") predictor's prefixes, each with the real (of this farm)
 *                 that takes the subscribers addressed in it, the longest matching prefix winning;
 *                 only with {@link PredictorKind#ROUTE_MAP}, which balances unrouted work by
 *                 weighted round robin (the loader also refuses that predictor without prefixes)
 */
public record FarmConfig(String name, PredictorKind predictor, FailureDetection failure,
        List<RealConfig> reals, Optional<String> backup, List<String> probes, Optional<java.time.Duration> slowStart,
        Map<Subnet, Endpoint> routeMap) {

    public FarmConfig {
        reals = List.copyOf(reals);
        probes = List.copyOf(probes);
        slowStart = slowStart == null ? Optional.empty() : slowStart;
        routeMap = Collections.unmodifiableMap(new LinkedHashMap<>(routeMap));
        if (!routeMap.isEmpty() && predictor != PredictorKind.ROUTE_MAP) {
            throw new IllegalArgumentException("farm " + name + ": a route map needs predictor route-map, not "
                    + predictor.configName());
        }
        List<Endpoint> endpoints = reals.stream().map(RealConfig::endpoint).toList();
        routeMap.forEach((prefix, real) -> {
            if (!endpoints.contains(real)) {
                throw new IllegalArgumentException("farm " + name + ": route-map " + prefix + " names " + real
                        + ", which is not a real of the farm");
            }
        });
    }

    /** A farm without a route map. */
    public FarmConfig(String name, PredictorKind predictor, FailureDetection failure, List<RealConfig> reals,
            Optional<String> backup, List<String> probes, Optional<java.time.Duration> slowStart) {
        this(name, predictor, failure, reals, backup, probes, slowStart, Map.of());
    }

    /** A farm without slow start. */
    public FarmConfig(String name, PredictorKind predictor, FailureDetection failure, List<RealConfig> reals,
            Optional<String> backup, List<String> probes) {
        this(name, predictor, failure, reals, backup, probes, Optional.empty());
    }

    /** A farm without probes. */
    public FarmConfig(String name, PredictorKind predictor, FailureDetection failure, List<RealConfig> reals,
            Optional<String> backup) {
        this(name, predictor, failure, reals, backup, List.of());
    }
}
