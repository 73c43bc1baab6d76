package io.switchboard.director.predictor;

import io.switchboard.director.real.RealServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Weighted round robin in the order IOS SLB uses: each real takes as many consecutive turns as its
 * weight, in configuration order — weights 3/1/2 give A,A,A,B,C,C, then again. A real that cannot
 * take work at its turn (maxconns) is skipped for that turn.
 */
public final class WeightedRoundRobin implements Predictor {

    private volatile RealServer[] schedule = new RealServer[0];
    private final AtomicLong turn = new AtomicLong();

    @Override
    public RealServer pick(long keyHash) {
        RealServer[] s = schedule;
        for (int tries = 0; tries < s.length; tries++) {
            RealServer real = s[(int) Long.remainderUnsigned(turn.getAndIncrement(), s.length)];
            if (real.tryTakeNewWork()) {
                return real;
            }
        }
        return null;
    }

    @Override
    public void rebuild(List<RealServer> reals) {
        List<RealServer> turns = new ArrayList<>();
        for (RealServer real : reals) {
            if (real.isCandidate()) {
                for (int i = 0; i < real.weight(); i++) {
                    turns.add(real);
                }
            }
        }
        // The turn counter runs on: restarting it at every rebuild would favour the first reals.
        schedule = turns.toArray(new RealServer[0]);
    }
}
