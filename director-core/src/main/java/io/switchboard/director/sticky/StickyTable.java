package io.switchboard.director.sticky;

/**
 * The sticky-table SPI: key → binding, with idle expiry. The in-memory table serves a single node;
 * the cluster module implements it on Hazelcast. Every method may be called from any event loop
 * and none may block: a lookup reads local memory only.
 */
public interface StickyTable {

    /** The table's name, used in metrics and the admin API. */
    String name();

    /** The live binding of {@code key}, refreshing its idle timer; null when there is none. */
    StickyBinding lookup(StickyKey key, long nowNanos);

    /**
     * Binds {@code key} unless a live binding exists, and returns the binding that holds: the new
     * one, or the one another event loop or node made first. Callers must use the returned binding
     * so that concurrent first choices converge.
     */
    StickyBinding bindIfAbsent(StickyKey key, StickyBinding binding, long nowNanos);

    /**
     * Moves {@code key} from {@code expected} (whose real can no longer serve it) to
     * {@code replacement}; returns the binding that holds afterwards.
     */
    StickyBinding rebind(StickyKey key, StickyBinding expected, StickyBinding replacement, long nowNanos);

    /** Removes the binding of {@code key}; true if there was one. */
    boolean remove(StickyKey key);

    /** Removes every binding to the given real of the given farm; returns how many. */
    int removeBoundTo(String farm, String real);

    /** Drops bindings idle for longer than the table's idle time. */
    void expire(long nowNanos);

    long size();

    StickyStats stats();
}
