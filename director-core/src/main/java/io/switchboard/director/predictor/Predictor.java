package io.switchboard.director.predictor;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.RealServer;
import java.util.List;

/**
 * Chooses a real for new work. Implementations keep an immutable snapshot of the candidate reals,
 * rebuilt off the hot path by {@link #rebuild} whenever a real's state or weight changes; a pick
 * only reads the snapshot and claims a real with {@link RealServer#tryTakeNewWork()}.
 */
public interface Predictor {

    /**
     * @param keyHash hash of the sticky key (only the consistent hash uses it)
     * @return a real that has been claimed for the new work, or null when none may take it
     */
    RealServer pick(long keyHash);

    /** Replaces the snapshot; {@code reals} is every real of the farm, in configuration order. */
    void rebuild(List<RealServer> reals);

    static Predictor create(PredictorKind kind) {
        return switch (kind) {
            case ROUNDROBIN -> new WeightedRoundRobin();
            case LEASTCONNS -> new WeightedLeastConnections();
            case HASH -> new ConsistentHash();
            // The farm's route map (ServerFarm.routeMap) is matched by the radius plug-in against
            // each request's Framed-IP-Address; the predictor balances what it does not route.
            case ROUTE_MAP -> new WeightedRoundRobin();
        };
    }
}
