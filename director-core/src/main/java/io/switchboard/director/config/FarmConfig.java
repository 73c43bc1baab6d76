package io.switchboard.director.config;

import java.util.List;
import java.util.Optional;

/** A server farm: its reals, predictor, failure detection and optional backup farm. */
public record FarmConfig(String name, PredictorKind predictor, FailureDetection failure,
        List<RealConfig> reals, Optional<String> backup) {

    public FarmConfig {
        reals = List.copyOf(reals);
    }
}
