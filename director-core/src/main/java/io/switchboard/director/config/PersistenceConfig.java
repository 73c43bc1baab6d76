package io.switchboard.director.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where a single node keeps its bindings and sessions across a restart ({@code persistence}): the
 * snapshot file, written at a graceful shutdown and, with {@code interval}, periodically; read at
 * start. Not with a cluster, whose peers keep that state.
 *
 * @param file     the snapshot; empty when persistence is off
 * @param interval how often a snapshot is also written while running; empty for only at shutdown
 */
public record PersistenceConfig(Optional<Path> file, Optional<Duration> interval) {

    public static final PersistenceConfig NONE = new PersistenceConfig(Optional.empty(), Optional.empty());

    public boolean enabled() {
        return file.isPresent();
    }
}
