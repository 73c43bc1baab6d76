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
            RealState.MAXCLIENTS_THROTTLED, RealState.TESTING, RealState.DFP_THROTTLED);
    /** States another node's failure takes a real from: as in-band, and a real waiting for its test. */
    static final Set<RealState> FROM_CLUSTER = EnumSet.of(RealState.OPERATIONAL, RealState.MAXCONNS_THROTTLED,
            RealState.MAXCLIENTS_THROTTLED, RealState.TESTING, RealState.DFP_THROTTLED, RealState.READY_TO_TEST);

    /** Replaced by a reload ({@link #configure}); guarded by {@code this}. */
    private FailureDetector detector;
    private FailureDetection settings;
    private volatile long retryNanos;
    private volatile long failedAtNanos;
    private final LongAdder failures = new LongAdder();

    RealFailures(FailureDetection failure) {
        this.settings = failure;
        this.retryNanos = failure.retry().toNanos();
        this.detector = new FailureDetector(failure.numconns(), failure.numclients());
    }

    /** A reload's new thresholds and retry time; when they changed, the count of unanswered requests starts over. */
    synchronized void configure(FailureDetection failure) {
        if (failure.equals(settings)) {
            return;
        }
        this.settings = failure;
        this.retryNanos = failure.retry().toNanos();
        this.detector = new FailureDetector(failure.numconns(), failure.numclients());
    }

    synchronized boolean purges() {
        return settings.purge();
    }

    long retryNanos() {
        return retryNanos;
    }

    long count() {
        return failures.sum();
    }

    int consecutive() {
        synchronized (this) {
            return detector.consecutiveFailures();
        }
    }

    void answered() {
        synchronized (this) {
            detector.answered();
        }
    }

    /**
     * A request expired unanswered: whether that fails the real (a TESTING real's test request
     * always does; otherwise the detector's thresholds decide, and start over when they are met).
     * Without in-band detection (IOS {@code no faildetect inband}: "numconns then ignored; use
     * probes", IOS SLB guide, automatic failure detection) only the test request counts.
     */
    boolean unanswered(Object client, boolean testing) {
        synchronized (this) {
            boolean failed = testing || settings.inband() && detector.unanswered(client);
            if (failed) {
                detector.reset();
            }
            return failed;
        }
    }

    void reset() {
        synchronized (this) {
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

    /** Moves a zombie ({@link RealState#zombie()}) to {@code to}; the state it left, or null when it was none. */
    RealState revive(AtomicReference<RealState> state, Moves moves, RealState to) {
        for (RealState s = state.get(); s.zombie(); s = state.get()) {
            reset();
            if (moves.move(s, to)) {
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
