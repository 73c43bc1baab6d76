package io.switchboard.director.sticky;

import java.time.Duration;

/**
 * Makes the sticky tables of a director: in memory on a single node, shared through the cluster
 * when the cluster module provides its own factory.
 */
@FunctionalInterface
public interface StickyTableFactory {

    /** Tables that live in this JVM only. */
    StickyTableFactory IN_MEMORY = InMemoryStickyTable::new;

    /**
     * @param name       unique per director; also the cluster-wide name of a shared table
     * @param idle       how long an unused binding lives
     * @param maxEntries the bound on bindings
     */
    StickyTable create(String name, Duration idle, int maxEntries);
}
