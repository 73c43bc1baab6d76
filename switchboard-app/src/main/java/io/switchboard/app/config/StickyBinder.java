package io.switchboard.app.config;

import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.StickyKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Binds a virtual server's {@code sticky} section: its key or keys (each allowed by the service),
 * idle time, client-address netmask, table size and group. All problems go to the error list given
 * at construction.
 */
final class StickyBinder {

    private final List<ConfigError> errors;

    StickyBinder(List<ConfigError> errors) {
        this.errors = errors;
    }

    Optional<StickyConfig> bind(Section s, Optional<ServiceSpec> service) {
        int before = errors.size();
        if (service.isPresent() && service.get().stickyKinds().isEmpty()) {
            error(s.path(), "service '" + service.get().name() + "' does not support sticky");
            return Optional.empty();
        }
        List<StickyKind> keys = new ArrayList<>();
        if (s.has("key") && s.has("keys")) {
            error(s.path(), "give either key or keys, not both");
        } else if (s.has("key")) {
            s.string("key").flatMap(text -> stickyKind(text, s.pathOf("key"), service)).ifPresent(keys::add);
        } else if (s.has("keys")) {
            s.list("keys").ifPresent(items -> {
                if (items.isEmpty()) {
                    error(s.pathOf("keys"), "must list at least one key");
                }
                for (int i = 0; i < items.size(); i++) {
                    String path = ConfigPath.index(s.pathOf("keys"), i);
                    Section.string(items.get(i), path, errors).flatMap(text -> stickyKind(text, path, service))
                            .ifPresent(kind -> {
                                if (keys.contains(kind)) {
                                    error(path, "duplicate key '" + kind.configName() + "'");
                                } else {
                                    keys.add(kind);
                                }
                            });
                }
            });
        } else if (service.isPresent()) {
            if (service.get().allows(StickyKind.CLIENT_ADDRESS)) {
                keys.add(StickyKind.CLIENT_ADDRESS);
            } else {
                error(s.pathOf("key"), "required for service '" + service.get().name() + "' (allowed: "
                        + ConfigBinder.names(service.get().stickyKinds(), StickyKind::configName) + ")");
            }
        }
        Optional<Duration> idle = s.require("idle", "required") ? s.positiveDuration("idle") : Optional.empty();
        OptionalInt netmaskBits = OptionalInt.empty();
        if (s.has("netmask")) {
            Optional<String> netmask = s.string("netmask");
            if (netmask.isPresent()) {
                try {
                    netmaskBits = OptionalInt.of(AddressLiterals.parseNetmaskBits(netmask.get()));
                } catch (IllegalArgumentException e) {
                    error(s.pathOf("netmask"), e.getMessage());
                }
            }
            if (!keys.isEmpty() && !keys.contains(StickyKind.CLIENT_ADDRESS)) {
                error(s.pathOf("netmask"), "applies only to the client-address key");
            }
        }
        int maxEntries = s.integer("max-entries", 1, Integer.MAX_VALUE).orElse(StickyConfig.DEFAULT_MAX_ENTRIES);
        Optional<String> group = s.has("group") ? s.string("group") : Optional.empty();
        if (group.isPresent() && group.get().isBlank()) {
            error(s.pathOf("group"), "must not be empty");
        }
        if (errors.size() > before || idle.isEmpty() || keys.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new StickyConfig(keys, idle.get(), netmaskBits, maxEntries, group));
    }

    private Optional<StickyKind> stickyKind(String text, String path, Optional<ServiceSpec> service) {
        Plugins plugins = Plugins.installed();
        Optional<StickyKind> kind = plugins.stickyKind(text);
        if (kind.isEmpty()) {
            error(path, "unknown sticky key '" + text + "' (known: "
                    + ConfigBinder.names(plugins.stickyKinds(), StickyKind::configName) + ")");
        } else if (service.isPresent() && !service.get().allows(kind.get())) {
            error(path, "sticky key '" + text + "' is not allowed for service '" + service.get().name()
                    + "' (allowed: " + ConfigBinder.names(service.get().stickyKinds(), StickyKind::configName) + ")");
            return Optional.empty();
        }
        return kind;
    }

    private void error(String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
    }
}
