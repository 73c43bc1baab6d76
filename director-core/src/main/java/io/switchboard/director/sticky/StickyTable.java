package io.switchboard.director.sticky;

import io.switchboard.director.spi.StickyBindings;

/**
 * The sticky-table SPI: key → binding, with idle expiry. The in-memory table serves a single node;
 * the cluster module implements it on Hazelcast. Every method may be called from any event loop
 * and none may block: a lookup reads local memory only. A plug-in sees the table as the
 * {@link StickyBindings} it learns, moves and ends.
 */
public interface StickyTable extends StickyBindings {

    /** The table's name, used in metrics and the admin API. */
    String name();

    /** The live binding of {@code key}, refreshing its idle timer; null when there is none. */
    StickyBinding lookup(StickyKey key, long nowNanos);

    /** Removes every binding to the given real of the given farm; returns how many. */
    int removeBoundTo(String farm, String real);

    /**
     * How many live bindings name the given real of the given farm (a draining real's count). Walks
     * the table: called off the event loops.
     */
    long countBoundTo(String farm, String real, long nowNanos);

    /** What {@link #forEachLive} hands over: a binding and how long it has been unused (or unrefreshed). */
    @FunctionalInterface
    interface LiveBinding {
        void accept(StickyKey key, StickyBinding binding, long idleNanos);
    }

    /**
     * Every live binding this node can see, with its idle time at {@code nowNanos}: a snapshot's content, and
     * what {@code show sticky} lists. Walks the table: called off the event loops.
     */
    void forEachLive(long nowNanos, LiveBinding action);

    /** Drops bindings idle for longer than the table's idle time. */
    void expire(long nowNanos);

    long size();

    StickyStats stats();
}
