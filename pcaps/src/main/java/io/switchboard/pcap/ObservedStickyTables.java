package io.switchboard.pcap;

import io.switchboard.director.spi.StickyBindings;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyStats;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.sticky.StickyTableFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The sticky tables of a what-if run's director, offline or live, made by the usual factory and
 * watched: for each key, whether it is bound and, once its binding is gone, how it ended
 * ({@link BindingEnd}) — {@code remove} (a plug-in released it), {@code removeBoundTo} (evicted with
 * its real), idleness (expired), or a bind the full table refused. The audit of stickiness
 * ({@link StickinessAudit}) asks it, so that a request whose binding the live policy had ended is not
 * called a violation. Every method may be called from any event loop (the live run's lanes).
 *
 * <p>The director's own sweep of idle bindings runs on a timer of real time (every 5 s), which has
 * nothing to do with a capture's clock: these tables ignore it, and the run sweeps them instead
 * ({@link #sweep}) every {@link #SWEEP_NANOS} of capture time, at the same points offline and live.
 * A sweep only gives memory back (lookups ignore idle bindings already), but in a full table that
 * memory is the room for new bindings.
 */
public final class ObservedStickyTables implements StickyTableFactory {

    /** The director's sweep interval ({@code Director.STICKY_SWEEP_MILLIS}), in capture time. */
    static final long SWEEP_NANOS = 5_000_000_000L;

    private final StickyTableFactory tables;
    private final java.util.List<Table> made = new java.util.concurrent.CopyOnWriteArrayList<>();
    private long nextSweepNanos = Long.MIN_VALUE;

    public ObservedStickyTables(StickyTableFactory tables) {
        this.tables = tables;
    }

    @Override
    public StickyTable create(String name, Duration idle, int maxEntries) {
        Table table = new Table(tables.create(name, idle, maxEntries), idle.toNanos());
        made.add(table);
        return table;
    }

    /** Drops idle bindings from every table, when {@link #SWEEP_NANOS} of capture time went by since the last sweep. */
    public void sweep(long nowNanos) {
        if (nextSweepNanos != Long.MIN_VALUE && nowNanos - nextSweepNanos < 0) {
            return;
        }
        nextSweepNanos = nowNanos + SWEEP_NANOS;
        for (Table table : made) {
            table.sweep(nowNanos);
        }
    }

    /**
     * How the binding of {@code key} in {@code table} ended, at {@code nowNanos}; null while it is
     * live, when the key was never bound, or when {@code table} is not one of these.
     */
    public static BindingEnd ended(StickyBindings table, StickyKey key, long nowNanos) {
        return table instanceof Table t ? t.ended(key, nowNanos) : null;
    }

    /** The keys that {@code table} bound anew since the last call (first binds and rebinds), oldest first. */
    public static List<StickyKey> drainBound(StickyTable table) {
        return table instanceof Table t ? t.drainBound() : List.of();
    }

    /** One watched table: the delegate's answers, with a shadow of its bindings and their ends. */
    private static final class Table implements StickyTable {

        private record Shadow(StickyBinding binding, long lastUsedNanos) {
        }

        private final StickyTable table;
        private final long idleNanos;
        private final Map<StickyKey, Shadow> bound = new HashMap<>();
        private final Map<StickyKey, BindingEnd> ended = new HashMap<>();
        private final List<StickyKey> boundSinceDrain = new ArrayList<>();

        Table(StickyTable table, long idleNanos) {
            this.table = table;
            this.idleNanos = idleNanos;
        }

        synchronized BindingEnd ended(StickyKey key, long nowNanos) {
            Shadow shadow = bound.get(key);
            if (shadow != null) {
                return idle(shadow, nowNanos) ? BindingEnd.EXPIRED : null;
            }
            return ended.get(key);
        }

        synchronized List<StickyKey> drainBound() {
            List<StickyKey> keys = List.copyOf(boundSinceDrain);
            boundSinceDrain.clear();
            return keys;
        }

        /** As the in-memory table decides it: unused for longer than the idle time. */
        private boolean idle(Shadow shadow, long nowNanos) {
            return nowNanos - shadow.lastUsedNanos() > idleNanos;
        }

        private void end(StickyKey key, BindingEnd how) {
            bound.remove(key);
            ended.put(key, how);
        }

        private void bind(StickyKey key, StickyBinding binding, long nowNanos) {
            bound.put(key, new Shadow(binding, nowNanos));
            ended.remove(key);
            boundSinceDrain.add(key);
        }

        @Override
        public String name() {
            return table.name();
        }

        @Override
        public void forEachLive(long nowNanos, LiveBinding action) {
            table.forEachLive(nowNanos, action);
        }

        @Override
        public synchronized StickyBinding lookup(StickyKey key, long nowNanos) {
            StickyBinding binding = table.lookup(key, nowNanos);
            if (binding != null) {
                bound.put(key, new Shadow(binding, nowNanos));
            } else if (bound.containsKey(key)) {
                end(key, BindingEnd.EXPIRED);
            }
            return binding;
        }

        @Override
        public synchronized StickyBinding bindIfAbsent(StickyKey key, StickyBinding binding, long nowNanos) {
            StickyStats before = table.stats();
            StickyBinding holding = table.bindIfAbsent(key, binding, nowNanos);
            StickyStats after = table.stats();
            record(key, holding, before, after, nowNanos);
            return holding;
        }

        @Override
        public synchronized StickyBinding rebind(StickyKey key, StickyBinding expected, StickyBinding replacement,
                long nowNanos) {
            StickyStats before = table.stats();
            StickyBinding holding = table.rebind(key, expected, replacement, nowNanos);
            record(key, holding, before, table.stats(), nowNanos);
            return holding;
        }

        /** What a bind did, told by the delegate's counters: refused (full), stored anew, or an existing binding kept. */
        private void record(StickyKey key, StickyBinding holding, StickyStats before, StickyStats after, long nowNanos) {
            if (after.refusedFull() > before.refusedFull()) {
                end(key, BindingEnd.REFUSED);
            } else if (after.bound() > before.bound()) {
                Shadow old = bound.get(key);
                if (old != null && idle(old, nowNanos)) {
                    ended.put(key, BindingEnd.EXPIRED); // replaced as idle: ended, and bound again below
                }
                bind(key, holding, nowNanos);
            } else {
                bound.put(key, new Shadow(holding, nowNanos));
            }
        }

        @Override
        public synchronized boolean remove(StickyKey key) {
            boolean removed = table.remove(key);
            if (removed) {
                end(key, BindingEnd.RELEASED);
            }
            return removed;
        }

        @Override
        public synchronized int removeBoundTo(String farm, String real) {
            int removed = table.removeBoundTo(farm, real);
            StickyBinding target = new StickyBinding(farm, real);
            for (Iterator<Map.Entry<StickyKey, Shadow>> it = bound.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<StickyKey, Shadow> e = it.next();
                if (e.getValue().binding().equals(target)) {
                    it.remove();
                    ended.put(e.getKey(), BindingEnd.EVICTED);
                }
            }
            return removed;
        }

        @Override
        public long countBoundTo(String farm, String real, long nowNanos) {
            return table.countBoundTo(farm, real, nowNanos);
        }

        /** The director's timer: the run sweeps on capture time instead ({@link ObservedStickyTables#sweep}). */
        @Override
        public void expire(long nowNanos) {
        }

        synchronized void sweep(long nowNanos) {
            table.expire(nowNanos);
            for (Iterator<Map.Entry<StickyKey, Shadow>> it = bound.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<StickyKey, Shadow> e = it.next();
                if (idle(e.getValue(), nowNanos)) {
                    it.remove();
                    ended.put(e.getKey(), BindingEnd.EXPIRED);
                }
            }
        }

        @Override
        public long size() {
            return table.size();
        }

        @Override
        public StickyStats stats() {
            return table.stats();
        }
    }
}
