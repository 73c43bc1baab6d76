package io.switchboard.director;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most once per interval, whichever thread asks first: the rate-limited log's next line, the
 * once-a-second housekeeping that every lane offers and one lane does. The first call is always due;
 * after that, the first call an interval or more after the last due one. Thread-safe, lock-free.
 */
public final class Pace {

    private final long intervalNanos;
    private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);

    public Pace(Duration interval) {
        this.intervalNanos = interval.toNanos();
    }

    /** Whether the caller does it now; true for one caller only per interval. */
    public boolean due(long nowNanos) {
        long due = next.get();
        return (due == Long.MIN_VALUE || nowNanos - due >= 0) && next.compareAndSet(due, nowNanos + intervalNanos);
    }
}
