package io.switchboard.director.predictor;

import io.switchboard.director.real.RealServer;
import java.util.List;

/**
 * Weighted least connections: the real whose connection count after taking this one, divided by its
 * weight, is lowest; ties go to the earlier real. Long-lived connections end up shared in proportion
 * to the weights.
 */
public final class WeightedLeastConnections implements Predictor {

    private volatile RealServer[] candidates = new RealServer[0];

    @Override
    public RealServer pick(long keyHash) {
        RealServer[] c = candidates;
        for (int tries = 0; tries < c.length; tries++) {
            RealServer best = null;
            long bestConns = 0;
            long bestWeight = 1;
            for (RealServer real : c) {
                if (!real.state().takesNewWork() || real.connections() >= real.maxConns()) {
                    continue;
                }
                long conns = real.connections() + 1L;
                long weight = real.weight();
                // conns/weight < bestConns/bestWeight, without division
                if (best == null || conns * bestWeight < bestConns * weight) {
                    best = real;
                    bestConns = conns;
                    bestWeight = weight;
                }
            }
            if (best == null) {
                return null;
            }
            if (best.tryTakeNewWork()) {
                return best;
            }
        }
        return null;
    }

    @Override
    public void rebuild(List<RealServer> reals) {
        candidates = reals.stream().filter(RealServer::isCandidate).toArray(RealServer[]::new);
    }
}
