package io.switchboard.director.real;

import java.time.Duration;

/**
 * A real's slow start (a real just put in service is not flooded, least connections above all): for
 * the farm's {@code slow-start} time the real takes only a share of the new work offered to it,
 * growing linearly from none to all; the first offer is always taken. Time is the housekeeping
 * clock as the real last saw it ({@link RealServer#tick}), so no clock is read per request.
 */
final class SlowStart {

    /** 0 for none. */
    private volatile long durationNanos;
    private volatile long lastTickNanos;
    /** When the real last entered service; slow start runs from here. */
    private volatile long sinceNanos;
    private volatile boolean running;
    /** Turns earned but not yet taken (guarded by {@code this}). */
    private double credit;

    void duration(Duration time) {
        this.durationNanos = time.toNanos();
    }

    boolean configured() {
        return durationNanos > 0;
    }

    boolean running() {
        return running;
    }

    void tick(long nowNanos) {
        lastTickNanos = nowNanos;
    }

    /** The real entered service: the share starts from the first offer. */
    synchronized void begin() {
        sinceNanos = lastTickNanos;
        credit = 1;
        running = true;
    }

    /** Whether this offer of new work is the real's to take; true for good once the time is over. */
    synchronized boolean turn() {
        long elapsed = lastTickNanos - sinceNanos;
        if (elapsed >= durationNanos) {
            running = false;
            return true;
        }
        credit += Math.max(0, (double) elapsed / durationNanos);
        if (credit >= 1) {
            credit -= 1;
            return true;
        }
        return false;
    }
}
