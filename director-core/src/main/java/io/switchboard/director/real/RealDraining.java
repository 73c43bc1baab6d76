package io.switchboard.director.real;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A real's drain: the one in effect ({@link RealDrain}: when it started, its deadline, how it ended)
 * and the move into DRAINING. As with {@link RealFailures}, the real hands its compare-and-set in, so
 * that slow start and the predictors' rebuilds follow this move as every other.
 */
final class RealDraining {

    /** The drain in effect (DRAINING, or PROBE_FAILED while draining), null when there is none. */
    private volatile RealDrain drain;

    RealDrain current() {
        return drain;
    }

    /** The drain ended (inservice, outofservice). */
    void clear() {
        drain = null;
    }

    /**
     * Starts {@code newDrain}, replacing the one in effect: DRAINING, or a real failing its probes
     * stays PROBE_FAILED and drains once they pass. The state it left (the same state for
     * PROBE_FAILED), or null, with no drain in effect, when the real is out of service.
     */
    RealState start(AtomicReference<RealState> state, RealFailures.Moves moves, RealDrain newDrain) {
        for (RealState s = state.get(); s != RealState.OUTOFSERVICE; s = state.get()) {
            drain = newDrain;
            RealState next = s == RealState.PROBE_FAILED ? s : RealState.DRAINING;
            if (s == next || moves.move(s, next)) {
                return s;
            }
        }
        drain = null;
        return null;
    }

    /** Whether a drain ran out at its deadline: nothing may stay on the real any more. */
    boolean pastDeadline() {
        RealDrain d = drain;
        return d != null && d.result() == RealDrain.Result.DEADLINE;
    }
}
