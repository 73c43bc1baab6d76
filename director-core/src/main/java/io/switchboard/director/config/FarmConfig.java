package io.switchboard.director.config;

import java.util.List;
import java.util.Optional;

/**
 * A server farm: its reals, predictor, failure detection, optional backup farm, and the names of the
 * probes run against its reals (all must pass).
 */
public record FarmConfig(String name, PredictorKind predictor, FailureDetection failure,
        List<RealConfig> reals, Optional<String> backup, List<String> probes) {

    public FarmConfig {
        reals = List.copyOf(reals);
        probes = List.copyOf(probes);
    }

    /** A farm without probes. */
    public FarmConfig(String name, PredictorKind predictor, FailureDetection failure, List<RealConfig> reals,
            Optional<String> backup) {
        this(name, predictor, failure, reals, backup, List.of());
    }
}
