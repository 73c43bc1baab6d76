package io.switchboard.director.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What a reload that removes a real does with what the real still serves (the real's
 * {@code on-remove} and {@code drain-deadline}): {@link Mode#DRAIN} takes no new subscribers to it and
 * lets its bindings and sessions go on until none is left (or, with a deadline, until then) before
 * it leaves its farm; {@link Mode#REASSIGN} removes its bindings and sessions at once, so that each
 * subscriber's next request is placed anew. Either way the requests in flight to it are still answered.
 *
 * @param deadline with {@code drain}, when what is left is reassigned and released; empty for none
 */
public record RemovalPolicy(Mode mode, Optional<Duration> deadline) {

    /** {@code on-remove: drain} without a deadline. */
    public static final RemovalPolicy DEFAULT = new RemovalPolicy(Mode.DRAIN, Optional.empty());

    public RemovalPolicy {
        deadline = deadline == null ? Optional.empty() : deadline;
    }

    /** The values of {@code on-remove}. */
    public enum Mode {
        DRAIN, REASSIGN;

        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Optional<Mode> fromConfigName(String name) {
            return Arrays.stream(values()).filter(m -> m.configName().equals(name)).findFirst();
        }
    }
}
