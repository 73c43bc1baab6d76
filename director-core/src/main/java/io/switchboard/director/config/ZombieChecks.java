package io.switchboard.director.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Status checks as FreeRADIUS's {@code home_server} runs them ({@code status_check = status-server}),
 * for a probe that declares them ({@link ProbeCheck#zombies()}). A real that failed in band (FAILED,
 * and READY_TO_TEST or TESTING after it) is a "zombie": it takes no new work and is probed every
 * {@code checkInterval}; one answer puts it back in service at once (FreeRADIUS marks a zombie that
 * answers Status-Server alive). A zombie whose checks go unanswered for {@code zombiePeriod} is
 * "dead" (PROBE_FAILED), probed every {@code checkInterval} too, and alive again after
 * {@code answersToAlive} answers in a row ({@code num_answers_to_alive}).
 *
 * @param checkInterval  the probe's interval while the real is zombie or dead; empty for the probe's own
 * @param zombiePeriod   how long a zombie's checks may go unanswered before it is dead
 * @param answersToAlive answers in a row that bring a dead real back
 */
public record ZombieChecks(Optional<Duration> checkInterval, Duration zombiePeriod, int answersToAlive) {

    /** FreeRADIUS 3's {@code zombie_period}. */
    public static final Duration DEFAULT_ZOMBIE_PERIOD = Duration.ofSeconds(40);
    /** FreeRADIUS 3's {@code num_answers_to_alive}. */
    public static final int DEFAULT_ANSWERS_TO_ALIVE = 3;
    public static final int MAX_ANSWERS_TO_ALIVE = 10;

    public ZombieChecks {
        Objects.requireNonNull(checkInterval, "checkInterval");
        Objects.requireNonNull(zombiePeriod, "zombiePeriod");
        if (answersToAlive < 1 || answersToAlive > MAX_ANSWERS_TO_ALIVE) {
            throw new IllegalArgumentException("answers to alive 1.." + MAX_ANSWERS_TO_ALIVE + ": " + answersToAlive);
        }
    }
}
