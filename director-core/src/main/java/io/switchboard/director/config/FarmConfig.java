package io.switchboard.director.config;

import java.util.List;
import java.util.Optional;

/**
 * A server farm: its reals, predictor, failure detection, optional backup farm, the names of the
 * probes run against its reals (all must pass), and the slow-start time of a real put (back) in
 * service (empty: none).
 */
public record FarmConfig(String name, PredictorKind predictor, FailureDetection failure,
        List<RealConfig> reals, Optional<String> backup, List<String> probes, Optional<java.time.Duration> slowStart) {

    public FarmConfig {
        reals = List.copyOf(reals);
        probes = List.copyOf(probes);
        slowStart = slowStart == null ? Optional.empty() : slowStart;
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
