package io.switchboard.director.testing;

import io.switchboard.director.Ticker;
import java.time.Duration;

/**
 * A {@link Ticker} that only moves when a test says so. It starts at an arbitrary, non-zero instant
 * so that code which wrongly assumes the clock starts at zero shows up.
 */
public final class ManualTicker implements Ticker {

    private long nanos;

    public ManualTicker() {
        this(1_000_000_000_000L);
    }

    public ManualTicker(long startNanos) {
        this.nanos = startNanos;
    }

    @Override
    public long nanos() {
        return nanos;
    }

    /** Moves the clock forward by {@code step} and returns the new reading. */
    public long advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("a monotonic clock does not go back: " + step);
        }
        nanos += step.toNanos();
        return nanos;
    }

    public long advanceNanos(long step) {
        return advance(Duration.ofNanos(step));
    }
}
