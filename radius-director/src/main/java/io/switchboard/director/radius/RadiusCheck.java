package io.switchboard.director.radius;

import io.switchboard.director.config.ProbeCheck;
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
 * {@code secret}.
 */
public record RadiusCheck(String secret, Optional<String> user, Optional<String> password) implements ProbeCheck {

    /** {@code type: radius}. */
    public static final ProbeType TYPE = ProbeType.of("radius", List.of("secret", "user", "password"),
            RadiusCheck::bind);

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
        return "Radius[secret=***, user=" + user.orElse("-") + "]";
    }

    /** Status-Server, or an Access-Request when {@code user} is given. */
    private static Optional<ProbeCheck> bind(Section s) {
        // Without a secret of its own, the probe uses each real's secret.
        Optional<String> secret = s.has("secret") ? s.string("secret") : Optional.of("");
        Optional<String> user = s.string("user");
        Optional<String> password = s.string("password");
        if (password.isPresent() && user.isEmpty()) {
            s.error(s.pathOf("password"), "only with user (an Access-Request probe)");
            return Optional.empty();
        }
        return secret.map(value -> new RadiusCheck(value, user, password));
    }
}
