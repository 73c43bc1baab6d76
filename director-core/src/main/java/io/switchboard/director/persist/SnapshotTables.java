package io.switchboard.director.persist;

import io.switchboard.director.Ticker;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.shared.StickyCodecs;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.sticky.StickyTableFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A single node's sticky and shared tables, in memory as without persistence, remembered by name
 * with their codecs so that they can be written to a {@link Snapshot} and filled from one.
 *
 * <p>A table is filled from the snapshot read at start when it is made (the director makes its
 * sticky tables and the plug-ins open their shared tables before anything binds), so a plug-in
 * finds its table as a cluster member finds a table it joins: holding what was there before.
 * A binding's idle time is kept across the restart: it is stored as an age, and put back as that
 * age plus the time the node was down (the wall clock between writing and reading), so it expires
 * when it would have. The shared tables' values carry wall-clock times of their own (a session's
 * refresh, a held value's deadline) and expire through them.
 *
 * <p>Opening one name twice gives one table, as in a cluster. Transient tables
 * ({@link #openTransient}) are in memory and not in a snapshot. Thread-safe.
 */
public final class SnapshotTables implements StickyTableFactory, SharedTables {

    private final Ticker ticker;
    private final Snapshot restoring;
    /** How long the node was down: added to every restored binding's idle time. */
    private final long downNanos;
    private final Map<String, InMemoryStickyTable> sticky = new LinkedHashMap<>();
    private final Map<String, Persisted<?, ?>> shared = new LinkedHashMap<>();
    /** Entries put back, and entries of the snapshot left out (lapsed, unreadable, no such table), by table. */
    private final Map<String, long[]> restored = new TreeMap<>();

    private record Persisted<K, V>(SharedTable<K, V> table, Codec<K> keys, Codec<V> values) {

        List<Snapshot.Entry> entries() {
            List<Snapshot.Entry> entries = new ArrayList<>();
            table.forEach((k, v) -> entries.add(new Snapshot.Entry(keys.encode(k), values.encode(v))));
            return entries;
        }
    }

    /**
     * @param restoring what to fill the tables with ({@link Snapshot#empty()} for nothing)
     * @param nowMillis the wall clock now, to know how long the node was down
     */
    public SnapshotTables(Snapshot restoring, Ticker ticker, long nowMillis) {
        this.ticker = ticker;
        this.restoring = restoring;
        this.downNanos = restoring.writtenMillis() == 0 ? 0
                : Duration.ofMillis(Math.max(0, nowMillis - restoring.writtenMillis())).toNanos();
    }

    @Override
    public synchronized StickyTable create(String name, Duration idle, int maxEntries) {
        InMemoryStickyTable table = new InMemoryStickyTable(name, idle, maxEntries);
        long now = ticker.nanos();
        for (Snapshot.Binding b : restoring.sticky().getOrDefault(name, List.of())) {
            boolean put;
            try {
                StickyKey key = StickyCodecs.KEYS.decode(b.key());
                StickyBinding binding = StickyCodecs.BINDINGS.decode(b.binding());
                put = table.restore(key, binding, b.idleNanos() + downNanos, now);
            } catch (RuntimeException e) {
                put = false; // bytes the codecs cannot read: that entry only is lost
            }
            count(name, put);
        }
        sticky.put(name, table);
        return table;
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <K, V> SharedTable<K, V> open(String name, Codec<K> keys, Codec<V> values) {
        Persisted<?, ?> open = shared.get(name);
        if (open != null) {
            return (SharedTable<K, V>) open.table();
        }
        SharedTable<K, V> table = SharedTables.IN_MEMORY.open(name, keys, values);
        for (Snapshot.Entry e : restoring.shared().getOrDefault(name, List.of())) {
            boolean put;
            try {
                table.put(keys.decode(e.key()), values.decode(e.value()));
                put = true;
            } catch (RuntimeException ex) {
                put = false; // a value naming what the configuration no longer has (a real, a farm)
            }
            count(name, put);
        }
        shared.put(name, new Persisted<>(table, keys, values));
        return table;
    }

    @Override
    public <K, V> SharedTable<K, V> openTransient(String name, Codec<K> keys, Codec<V> values) {
        return SharedTables.IN_MEMORY.open(name, keys, values);
    }

    private void count(String table, boolean put) {
        restored.computeIfAbsent(table, t -> new long[2])[put ? 0 : 1]++;
    }

    /** Entries put back from the snapshot so far, over every table. */
    public synchronized long restoredEntries() {
        return restored.values().stream().mapToLong(c -> c[0]).sum();
    }

    /**
     * What was put back, by table: {@code "name: N"}, with {@code " (M left out)"} when some were
     * lapsed or unreadable, and the snapshot's tables no table of this configuration has.
     */
    public synchronized List<String> restoredSummary() {
        List<String> lines = new ArrayList<>();
        restored.forEach((name, c) -> lines.add(name + ": " + c[0] + (c[1] == 0 ? "" : " (" + c[1] + " left out)")));
        restoring.sticky().forEach((name, b) -> {
            if (!sticky.containsKey(name)) {
                lines.add(name + ": " + b.size() + " left out (no such sticky table now)");
            }
        });
        restoring.shared().forEach((name, e) -> {
            if (!shared.containsKey(name)) {
                lines.add(name + ": " + e.size() + " left out (no such table now)");
            }
        });
        return lines;
    }

    /** Every table's content now: the live bindings with their idle times, the shared entries. */
    public synchronized Snapshot snapshot(long nowMillis) {
        long now = ticker.nanos();
        Map<String, List<Snapshot.Binding>> bindings = new LinkedHashMap<>();
        sticky.forEach((name, table) -> {
            List<Snapshot.Binding> list = new ArrayList<>();
            table.forEachLive(now, (key, binding, idle) -> list.add(new Snapshot.Binding(StickyCodecs.KEYS.encode(key),
                    StickyCodecs.BINDINGS.encode(binding), idle)));
            bindings.put(name, list);
        });
        Map<String, List<Snapshot.Entry>> entries = new LinkedHashMap<>();
        shared.forEach((name, table) -> entries.put(name, table.entries()));
        return new Snapshot(nowMillis, bindings, entries);
    }
}
