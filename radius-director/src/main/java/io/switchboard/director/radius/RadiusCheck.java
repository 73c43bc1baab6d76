package io.switchboard.director.radius;

import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ZombieChecks;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.probe.Probe;
import io.switchboard.director.probe.RealRestartListener;
import io.switchboard.director.spi.ProbeType;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * RADIUS health (RFC 5997): a Status-Server with Message-Authenticator, answered by an
 * Access-Accept whose Response Authenticator verifies with {@code secret}; or, with {@code user}
 * and {@code password}, an Access-Request answered by an Access-Accept or Access-Reject that
 * verifies (the server is alive either way). An empty {@code secret} means each real's own
 * {@code secret}. With {@code zombie-period}, {@code check-interval} or {@code answers-to-alive},
 * the probe judges zombie and dead reals as FreeRADIUS's {@code home_server} does ({@link ZombieChecks}).
 */
public record RadiusCheck(String secret, Optional<String> user, Optional<String> password,
        Optional<ZombieChecks> zombies) implements ProbeCheck {

    /** {@code type: radius}. */
    public static final ProbeType TYPE = ProbeType.of("radius", List.of(
            Key.secret("secret").byDefault("each real's `secret`").note("One secret for every real the probe checks."),
            Key.string("user").byDefault("none: a Status-Server (RFC 5997)")
                    .note("Send an Access-Request for this user instead of a Status-Server."),
            Key.secret("password").byDefault("empty").note("With `user`: its User-Password."),
            Key.duration("check-interval").byDefault("the probe's `interval`").note("At most 120s: the interval while"
                    + " the real is a zombie or dead (radius.md, Status-Server and zombie reals)."),
            Key.duration("zombie-period").defaultValue(ZombieChecks.DEFAULT_ZOMBIE_PERIOD)
                    .note("At most 120s: a zombie real unanswered this long is dead."),
            Key.integer("answers-to-alive", 1, ZombieChecks.MAX_ANSWERS_TO_ALIVE)
                    .defaultValue(ZombieChecks.DEFAULT_ANSWERS_TO_ALIVE)
                    .note("Answers in a row that bring a dead real back.")), RadiusCheck::bind);

    /**
     * The longest {@code check-interval} and {@code zombie-period}: the top of FreeRADIUS 3's useful
     * ranges, and FreeRADIUS 4's bound of {@code zombie_period}. Shorter than its useful ranges is allowed.
     */
    static final Duration MAX_PERIOD = Duration.ofSeconds(120);

    /** Without status checks. */
    public RadiusCheck(String secret, Optional<String> user, Optional<String> password) {
        this(secret, user, password, Optional.empty());
    }

    @Override
    public String type() {
        return TYPE.name();
    }

    @Override
    public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
        return new RadiusProbe(vertx, this, timeout);
    }

    @Override
    public String toString() {
        return "Radius[secret=***, user=" + user.orElse("-") + zombies.map(z -> ", " + z).orElse("") + "]";
    }

    /** Status-Server, or an Access-Request when {@code user} is given. */
    private static Optional<ProbeCheck> bind(Section s) {
        int before = s.errors().size();
        // Without a secret of its own, the probe uses each real's secret.
        Optional<String> secret = s.has("secret") ? s.secret("secret") : Optional.of("");
        Optional<String> user = s.string("user");
        Optional<String> password = s.secret("password");
        if (password.isPresent() && user.isEmpty()) {
            s.error(s.pathOf("password"), "only with user (an Access-Request probe)");
            return Optional.empty();
        }
        Optional<ZombieChecks> zombies = zombies(s);
        if (s.errors().size() > before) {
            return Optional.empty();
        }
        return secret.map(value -> new RadiusCheck(value, user, password, zombies));
    }

    /** FreeRADIUS's {@code check_interval}, {@code zombie_period}, {@code num_answers_to_alive}; empty when none is given. */
    private static Optional<ZombieChecks> zombies(Section s) {
        if (!s.has("check-interval") && !s.has("zombie-period") && !s.has("answers-to-alive")) {
            return Optional.empty();
        }
        Optional<Duration> interval = bounded(s, "check-interval");
        Duration period = bounded(s, "zombie-period").orElse(ZombieChecks.DEFAULT_ZOMBIE_PERIOD);
        int answers = s.integer("answers-to-alive")
                .orElse(ZombieChecks.DEFAULT_ANSWERS_TO_ALIVE);
        return Optional.of(new ZombieChecks(interval, period, answers));
    }

    private static Optional<Duration> bounded(Section s, String key) {
        Optional<Duration> d = s.positiveDuration(key);
        if (d.isPresent() && d.get().compareTo(MAX_PERIOD) > 0) {
            s.error(s.pathOf(key), "at most " + MAX_PERIOD.toSeconds() + "s");
            return Optional.empty();
        }
        return d;
    }
}
