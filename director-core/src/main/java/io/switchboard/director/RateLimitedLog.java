package io.switchboard.director;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * A warning that is logged at most once per interval, with the number suppressed since the last
 * one. For per-packet problems (malformed input, unknown sources): a flood must not flood the log.
 */
public final class RateLimitedLog {

    private final Logger log;
    private final Ticker ticker;
    private final Pace pace;
    private final AtomicLong suppressed = new AtomicLong();

    public RateLimitedLog(Logger log, java.time.Duration interval, Ticker ticker) {
        this.log = log;
        this.ticker = ticker;
        this.pace = new Pace(interval);
    }

    /** Logs {@code format} with {@code args} unless a line was logged within the interval. */
    public void warn(String format, Object... args) {
        if (!pace.due(ticker.nanos())) {
            suppressed.incrementAndGet();
            return;
        }
        long skipped = suppressed.getAndSet(0);
        if (skipped > 0) {
            log.warn(format + " ({} similar suppressed)", append(args, skipped));
        } else {
            log.warn(format, args);
        }
    }

    private static Object[] append(Object[] args, Object last) {
        Object[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = last;
        return all;
    }
}
