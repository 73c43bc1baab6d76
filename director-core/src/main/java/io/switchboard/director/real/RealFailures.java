package io.switchboard.director.real;

import io.switchboard.director.config.FailureDetection;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A real's failures: the in-band failure detector (IOS {@code numconns} / {@code numclients}), the
 * retry timer of a FAILED real, and how many times it failed. The moves of the real's state stay the
 * real's: it hands its compare-and-set in ({@link Moves}), so that slow start and the predictors'
 * rebuilds follow every move alike.
 */
final class RealFailures {

    /** The real's own compare-and-set of its state. */
    interface Moves {
        boolean move(RealState from, RealState to);
    }

    /** States an in-band failure (unanswered requests, a resource cause) takes a real from. */
    static final Set<RealState> IN_BAND = EnumSet.of(RealState.OPERATIONAL, RealState.MAXCONNS_THROTTLED,
            RealState.TESTING, RealState.DFP_THROTTLED);
    /** States another node's failure takes a real from: as in-band, and a real waiting for its test. */
    static final Set<RealState> FROM_CLUSTER = EnumSet.of(RealState.OPERATIONAL, RealState.MAXCONNS_THROTTLED,
            RealState.TESTING, RealState.DFP_THROTTLED, RealState.READY_TO_TEST);

    private final FailureDetector detector;
    private final long retryNanos;
    private volatile long failedAtNanos;
    private final LongAdder failures = new LongAdder();

    RealFailures(FailureDetection failure) {
        this.retryNanos = failure.retry().toNanos();
        this.detector = new FailureDetector(failure.numconns(), failure.numclients());
    }

    long retryNanos() {
        return retryNanos;
    }

    long count() {
        return failures.sum();
    }

    int consecutive() {
        synchronized (detector) {
            return detector.consecutiveFailures();
        }
    }

    void answered() {
        synchronized (detector) {
            detector.answered();
        }
    }

    /**
     * A request expired unanswered: whether that fails the real (a TESTING real's test request
     * always does; otherwise the detector's thresholds decide, and start over when they are met).
     */
    boolean unanswered(Object client, boolean testing) {
        synchronized (detector) {
            boolean failed = testing || detector.unanswered(client);
            if (failed) {
                detector.reset();
            }
            return failed;
        }
    }

    void reset() {
        synchronized (detector) {
            detector.reset();
        }
    }

    /**
     * Moves the real to FAILED from any state of {@code from}, its retry timer counted from
     * {@code nowNanos}; the state it left, or null when it was in none of them.
     */
    RealState fail(AtomicReference<RealState> state, Moves moves, long nowNanos, Set<RealState> from) {
        for (RealState s = state.get(); from.contains(s); s = state.get()) {
            failedAtNanos = nowNanos;
            if (moves.move(s, RealState.FAILED)) {
                failures.increment();
                reset();
                return s;
            }
        }
        return null;
    }

    /** Whether a FAILED real's retry timer ran out at {@code nowNanos}. */
    boolean retryDue(long nowNanos) {
        return nowNanos - failedAtNanos >= retryNanos;
    }
}
