package io.switchboard.app.config;

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

    static final List<String> KEYS = List.of("new-per-second", "new-per-peer-per-second", "capacity-per-second",
            "session-reserve-percent", "burst");
    /** Past a million a second no single node is limited by this; a typo is more likely. */
    static final int MAX_RATE = 1_000_000;
    static final int MAX_RESERVE_PERCENT = 90;

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
        int newRate = s.integer("new-per-second", 1, MAX_RATE).orElse(0);
        int peerRate = s.integer("new-per-peer-per-second", 1, MAX_RATE).orElse(0);
        int capacity = s.integer("capacity-per-second", 1, MAX_RATE).orElse(0);
        int reserve = s.integer("session-reserve-percent", 0, MAX_RESERVE_PERCENT)
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
