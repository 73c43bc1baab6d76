package io.switchboard.director.probe;

import io.switchboard.director.spi.RealView;

/** Told when a probe sees that a real restarted (a GTP Recovery value that changed). */
@FunctionalInterface
public interface RealRestartListener {

    RealRestartListener NONE = (real, previous, current, purge) -> { };

    /**
     * @param previous the restart counter seen before
     * @param current  the one the real answers with now
     * @param purge    whether the probe is configured to have the real's bindings and sessions purged
     */
    void restarted(RealView real, int previous, int current, boolean purge);
}
