package io.switchboard.director.config;

import java.time.Duration;
import java.util.OptionalInt;

/**
 * An out-of-band health check (IOS {@code ip slb probe}), run against every real of the farms that
 * name it. A real that fails {@code failures} checks in a row is PROBE_FAILED; it is restored when
 * every probe of its farm passes again.
 *
 * @param port the port to probe; empty for the real's own port
 */
public record ProbeConfig(String name, ProbeCheck check, Duration interval, Duration timeout, int failures,
        OptionalInt port) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    public static final int DEFAULT_FAILURES = 3;
}
