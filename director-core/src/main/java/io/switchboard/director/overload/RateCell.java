package io.switchboard.director.overload;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One rate limit as a generic cell rate algorithm (the token bucket written as a theoretical
 * arrival time): one {@code AtomicLong} and a compare-and-set per admission, no lock and no timer,
 * so every lane of a virtual server can share it. Time is the engine's clock, so what-if, driven by
 * a capture's timestamps, refuses what the live director would.
 */
final class RateCell {

    /** Nanoseconds one admission costs: 1 s / rate. */
    private final long interval;
    /** How far ahead of now the theoretical arrival time may run: the burst less one admission. */
    private final long tolerance;
    private final AtomicLong arrival = new AtomicLong(Long.MIN_VALUE);

    RateCell(int perSecond, long burstNanos) {
        this.interval = Math.max(1, 1_000_000_000L / perSecond);
        this.tolerance = Math.max(0, burstNanos - interval);
    }

    /** Takes one admission if the cell has room for it: true when taken. */
    boolean take(long now) {
        return take(now, tolerance);
    }

    /**
     * Takes one admission if no more than {@code share} of the burst is used ({@code 1.0} the whole of
     * it): new work may use the capacity only down to the reserve kept for session work.
     */
    boolean take(long now, double share) {
        return take(now, (long) (tolerance * share));
    }

    private boolean take(long now, long limit) {
        for (;;) {
            long at = arrival.get();
            long from = Math.max(at, now);
            if (from - now > limit) {
                return false;
            }
            if (arrival.compareAndSet(at, from + interval)) {
                return true;
            }
        }
    }
}
