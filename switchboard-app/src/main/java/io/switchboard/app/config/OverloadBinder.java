package io.switchboard.app.config;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.OverloadConfig;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.ServiceSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Binds a virtual server's {@code overload} section (docs/overload.md): the rates of new work it
 * admits in all and per peer, the capacity past which it sheds, the share of it kept for session
 * work, and the burst. Every problem is reported by its path.
 */
final class OverloadBinder {

    /** Past a million a second no single node is limited by this; a typo is more likely. */
    static final int MAX_RATE = 1_000_000;
    static final int MAX_RESERVE_PERCENT = 90;

    static final Schema OVERLOAD = Schema.of("admission and shedding (overload.md); at least one of the three rates",
            Key.integer("new-per-second", 1, MAX_RATE).byDefault("no limit")
                    .note("New work admitted per second at this virtual server; at most `capacity-per-second`."),
            Key.integer("new-per-peer-per-second", 1, MAX_RATE).byDefault("no limit").note("New work admitted per"
                    + " second from one sending address (4,096 peers tracked, the rest share one limit); at most"
                    + " `new-per-second`."),
            Key.integer("capacity-per-second", 1, MAX_RATE).byDefault("no limit")
                    .note("Requests of every kind per second; past it the director sheds."),
            Key.integer("session-reserve-percent", 0, MAX_RESERVE_PERCENT)
                    .defaultValue(OverloadConfig.DEFAULT_SESSION_RESERVE_PERCENT)
                    .note("The share of `capacity-per-second`'s burst only session work may use; needs it."),
            Key.duration("burst").defaultValue(OverloadConfig.DEFAULT_BURST)
                    .note("Each limit admits up to rate × burst at once, then the rate."));

    private final List<ConfigError> errors;

    OverloadBinder(List<ConfigError> errors) {
        this.errors = errors;
    }

    /** The section, or empty when it has an error (reported). */
    Optional<OverloadConfig> bind(Section s, Optional<ServiceSpec> service) {
        int before = errors.size();
        if (service.isPresent() && service.get().transport() == ServiceSpec.Transport.TCP) {
            s.error(s.path(), "service '" + service.get().name() + "' takes connections, not datagrams:"
                    + " it has no admission control");
        }
        int newRate = s.integer("new-per-second").orElse(0);
        int peerRate = s.integer("new-per-peer-per-second").orElse(0);
        int capacity = s.integer("capacity-per-second").orElse(0);
        int reserve = s.integer("session-reserve-percent")
                .orElse(OverloadConfig.DEFAULT_SESSION_RESERVE_PERCENT);
        Duration burst = s.positiveDuration("burst").orElse(OverloadConfig.DEFAULT_BURST);
        if (!s.has("new-per-second") && !s.has("new-per-peer-per-second") && !s.has("capacity-per-second")) {
            s.error(s.path(), "give at least one of new-per-second, new-per-peer-per-second, capacity-per-second");
        }
        if (s.has("session-reserve-percent") && !s.has("capacity-per-second")) {
            s.error(s.pathOf("session-reserve-percent"), "is a share of capacity-per-second, which is not given");
        }
        if (newRate > 0 && capacity > 0 && newRate > capacity) {
            s.error(s.pathOf("new-per-second"), "must not exceed capacity-per-second (" + capacity + ")");
        }
        if (peerRate > 0 && newRate > 0 && peerRate > newRate) {
            s.error(s.pathOf("new-per-peer-per-second"), "must not exceed new-per-second (" + newRate + ")");
        }
        return errors.size() > before ? Optional.empty()
                : Optional.of(new OverloadConfig(newRate, peerRate, capacity, reserve, burst));
    }
}
