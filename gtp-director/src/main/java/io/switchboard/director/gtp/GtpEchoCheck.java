package io.switchboard.director.gtp;

import io.switchboard.director.config.bind.Key;
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
 * GTP path management (TS 29.060 §7.2.1, TS 29.274 §7.1.1): an Echo Request of {@code version} 1
 * or 2, answered by an Echo Response with the same sequence number. The Recovery value of the
 * answers is the real's restart counter: when it changes, the real restarted and lost its
 * sessions, and with {@code purgeOnRestart} the director purges what it holds for the real (the
 * sticky bindings to it, and whatever the plug-ins of its virtual servers keep).
 *
 * @param recovery the director's own restart counter in a GTPv2 request (mandatory there)
 */
public record GtpEchoCheck(int version, int recovery, boolean purgeOnRestart) implements ProbeCheck {

    /** {@code type: gtp-echo}. */
    public static final ProbeType TYPE = ProbeType.of("gtp-echo", List.of(
            Key.integer("version", 1, 2).required().note("`1`: GTPv1-C (GGSNs); `2`: GTPv2-C (PGWs, SGWs)."),
            Key.integer("recovery", 0, 255).defaultValue(0).note("Version 2 only: the Recovery IE the request must carry"
                    + " (TS 29.274 §7.1.1), the director's restart counter as the real will see it."),
            Key.bool("purge-on-restart").defaultValue(true).note("When the real's restart counter changes, remove every"
                    + " sticky binding to it and have the plug-ins of its virtual servers drop what they hold for it;"
                    + " `false` only counts and logs the restart.")),
            GtpEchoCheck::bind);

    @Override
    public String type() {
        return TYPE.name();
    }

    @Override
    public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
        return new GtpEchoProbe(vertx, this, timeout, restarts);
    }

    /** A GTP Echo probe with restart-counter tracking. */
    private static Optional<ProbeCheck> bind(Section s) {
        if (!s.require("version", "required for a gtp-echo probe: 1 (GTPv1-C, GGSNs) or 2 (GTPv2-C, PGWs/SGWs)")) {
            return Optional.empty();
        }
        Optional<Integer> version = s.integer("version");
        Optional<Integer> recovery = s.has("recovery") ? s.integer("recovery") : Optional.of(0);
        if (s.has("recovery") && version.isPresent() && version.get() == 1) {
            s.error(s.pathOf("recovery"), "only for version 2 (a GTPv1 Echo Request carries no Recovery)");
            return Optional.empty();
        }
        Optional<Boolean> purge = s.has("purge-on-restart") ? s.bool("purge-on-restart") : Optional.of(true);
        return version.isPresent() && recovery.isPresent() && purge.isPresent()
                ? Optional.of(new GtpEchoCheck(version.get(), recovery.get(), purge.get())) : Optional.empty();
    }
}
