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
        boolean[] refused = null; // reals that declined this pick (slow start, a lost race): next best
        for (int tries = 0; tries < c.length; tries++) {
            RealServer best = null;
            int bestIndex = -1;
            long bestConns = 0;
            long bestWeight = 1;
            for (int i = 0; i < c.length; i++) {
                RealServer real = c[i];
                if ((refused != null && refused[i]) || !real.state().takesNewWork()
                        || real.connections() >= real.maxConns()) {
                    continue;
                }
                long conns = real.connections() + 1L;
                long weight = real.weight();
                // conns/weight < bestConns/bestWeight, without division
                if (best == null || conns * bestWeight < bestConns * weight) {
                    best = real;
                    bestIndex = i;
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
            if (refused == null) {
                refused = new boolean[c.length];
            }
            refused[bestIndex] = true;
        }
        return null;
    }

    @Override
    public void rebuild(List<RealServer> reals) {
        candidates = reals.stream().filter(RealServer::isCandidate).toArray(RealServer[]::new);
    }
}
