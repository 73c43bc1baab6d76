package io.switchboard.cluster;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link SharedTable} backed by an {@code IMap<byte[], SharedEntry>}, with a local copy kept by
 * entry events, as the sticky tables are: reads are this node's {@code ConcurrentHashMap}; writes
 * change it at once and are sent as {@link SharedWrite} entry processors, not waited for, which the
 * owner applies in the order this node made them (a removal is a tombstone for a while).
 *
 * <p>Read-your-writes: every local write is numbered and stays <em>pending</em> in the copy until
 * its own event comes back; the cluster stores the writer's slot and number with the value. Events
 * of one key arrive in the order the owner applied the changes, so while a write of this node is
 * pending, an event of an older own write, or of another node's write (which the owner applied
 * before this node's pending one, or that event would have come first), is already superseded and
 * skipped: the local value never goes back. A local removal is a pending tombstone (read as absent)
 * in the same way. When an answer says no event will come (the write failed, or the removal found
 * nothing), the copy reads the cluster's value again. After a member loss or a merge the copy is
 * re-read from the map, whose value then wins over anything but a newer own write.
 *
 * <p>A re-read is a snapshot that can be older than events applied while it runs, so the copy
 * remembers what changed since it began: an entry's {@code changed} stamp, and for an entry removed
 * while a re-read runs, a confirmed removal ({@code Local(null, 0, stamp)}) left in its place until
 * no re-read runs any more. Without it, a snapshot taken before a removal was applied would bring
 * the removed value back for good (a member loss starts a re-read of every table, just when the
 * survivors take over the dead node's sessions and delete them).
 */
public final class HazelcastSharedTable<K, V> implements SharedTable<K, V> {

    private static final Logger LOG = LoggerFactory.getLogger(HazelcastSharedTable.class);
    static final String MAP_PREFIX = "shared.";
    /**
     * How long a removal stays in the map as a tombstone: longer than Hazelcast retries an
     * invocation (120 s by default), so a retried older write of the removing node finds it.
     */
    static final long TOMBSTONE_TTL_MILLIS = 150_000;
    private static final java.util.concurrent.Executor INLINE = Runnable::run;

    /**
     * This node's copy of one entry: the value (null for a pending removal), the number of this
     * node's write not yet seen back from the cluster (0: none pending, as the cluster holds it), and
     * when the copy last changed ({@link #changes}), so that a re-read of the map never overwrites
     * what changed after the re-read began.
     */
    private record Local<V>(V value, long pending, long changed) {
    }

    private final String name;
    private final HazelcastInstance hazelcast;
    private final IMap<byte[], SharedEntry> map;
    private final Codec<K> keys;
    private final Codec<V> values;
    private final int origin;
    private final ConcurrentHashMap<K, Local<V>> copy = new ConcurrentHashMap<>();
    /** Write numbers start from the clock, so a restarted node that gets its old slot back never reuses one. */
    private final AtomicLong writes = new AtomicLong(System.currentTimeMillis() * 1_000);
    /** Counts every change of the local copy: the {@code changed} stamp of its entries. */
    private final AtomicLong changes = new AtomicLong();
    /** How many re-reads of the map run: while one does, confirmed removals stay in the copy. */
    private final AtomicInteger reading = new AtomicInteger();
    /** Keys whose confirmed removal was left in the copy while a re-read ran. */
    private final ConcurrentLinkedQueue<K> removedWhileReading = new ConcurrentLinkedQueue<>();
    /** Copies of the whole map made so far (the first when the table opens, then one per member loss or merge). */
    private final AtomicLong catchUps = new AtomicLong();
    private final RateLimitedLog failures;
    private final Resync resync;
    private final UUID entryListener;

    private HazelcastSharedTable(HazelcastInstance hazelcast, int origin, String name, Codec<K> keys, Codec<V> values) {
        this.name = name;
        this.hazelcast = hazelcast;
        this.map = hazelcast.getMap(MAP_PREFIX + name);
        this.keys = keys;
        this.values = values;
        this.origin = origin;
        this.failures = new RateLimitedLog(LOG, Duration.ofSeconds(10), Ticker.SYSTEM);
        // Listen first, then copy: a change made while copying arrives as an event.
        this.entryListener = map.addEntryListener(new Follower(), true);
        this.resync = new Resync(hazelcast, "shared-" + name, this::catchUp);
    }

    /** Opens the table and copies the cluster's entries before returning (blocks: startup only). */
    static <K, V> HazelcastSharedTable<K, V> open(HazelcastInstance hazelcast, int origin, String name,
                                                 Codec<K> keys, Codec<V> values) {
        StickySerializers.announceSchemas(hazelcast);
        HazelcastSharedTable<K, V> table = new HazelcastSharedTable<>(hazelcast, origin, name, keys, values);
        table.catchUp();
        return table;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public V get(K key) {
        Local<V> local = copy.get(key);
        return local == null ? null : local.value;
    }

    @Override
    public void put(K key, V value) {
        long seq = writes.incrementAndGet();
        byte[] keyBytes = keys.encode(key);
        SharedEntry entry = new SharedEntry(origin, seq, values.encode(value), false);
        copy.put(key, new Local<>(value, seq, changes.incrementAndGet()));
        try {
            map.submitToKey(keyBytes, new SharedWrite(entry, 0)).whenCompleteAsync((applied, failure) -> {
                confirm(applied, failure, "put", key, keyBytes);
            }, INLINE);
        } catch (RuntimeException e) {
            warnIfFailed(e, "put", key);
            reread(key, keyBytes);
        }
    }

    @Override
    public boolean remove(K key) {
        long seq = writes.incrementAndGet();
        Local<V> tombstone = new Local<>(null, seq, changes.incrementAndGet());
        Local<V> had = copy.put(key, tombstone);
        byte[] keyBytes = keys.encode(key);
        try {
            map.submitToKey(keyBytes, new SharedWrite(SharedEntry.tombstone(origin, seq), TOMBSTONE_TTL_MILLIS))
                    .whenCompleteAsync((applied, failure) -> confirm(applied, failure, "remove", key, keyBytes), INLINE);
        } catch (RuntimeException e) {
            warnIfFailed(e, "remove", key);
            reread(key, keyBytes);
        }
        return had != null && had.value != null;
    }

    /**
     * The answer to a write: when no event will confirm it, the copy reads the cluster's value again.
     * That is so when the write failed, and when the owner did not apply it ({@code false}): either a
     * later write of this node is there (whose event comes anyway: the re-read is harmless), or this
     * very write was applied before, by a member that died before its event went out, and Hazelcast
     * retried it on the new owner.
     */
    private void confirm(Boolean applied, Throwable failure, String what, K key, byte[] keyBytes) {
        if (failure != null) {
            warnIfFailed(failure, what, key);
            reread(key, keyBytes);
        } else if (!Boolean.TRUE.equals(applied)) {
            reread(key, keyBytes);
        }
    }

    /**
     * Ends what is pending for {@code key} and takes the cluster's value (or its absence) instead. On
     * the table's own thread: it is called from answers, whose Hazelcast thread may not call out.
     */
    private void reread(K key, byte[] keyBytes) {
        resync.execute(() -> readAgain(key, keyBytes));
    }

    private void readAgain(K key, byte[] keyBytes) {
        long since = startRead();
        try {
            map.getAsync(keyBytes).whenCompleteAsync((entry, failure) -> {
                try {
                    readAnswer(key, entry, failure, since);
                } finally {
                    endRead();
                }
            }, INLINE);
        } catch (RuntimeException e) {
            endRead();
            warnIfFailed(e, "re-read", key);
        }
    }

    private void readAnswer(K key, SharedEntry entry, Throwable failure, long since) {
        if (failure != null) {
            warnIfFailed(failure, "re-read", key);
            copy.computeIfPresent(key, (k, l) -> l.changed > since ? l
                    : l.value == null ? removed(k) : new Local<>(l.value, 0, changes.incrementAndGet()));
        } else if (entry == null) {
            copy.computeIfPresent(key, (k, l) -> l.changed <= since && (l.pending == 0 || l.value == null)
                    ? removed(k) : l);
        } else {
            follow(key, entry, since);
        }
    }

    /** Begins a re-read of the map: returns the change count it stands against. */
    private long startRead() {
        reading.incrementAndGet(); // before the stamp: every removal after the stamp is kept
        return changes.get();
    }

    /** Ends a re-read; the last one drops the confirmed removals kept while they ran. */
    private void endRead() {
        if (reading.decrementAndGet() > 0) {
            return;
        }
        K key;
        while ((key = removedWhileReading.poll()) != null) {
            if (reading.get() > 0) { // another re-read began: it drops them when it ends
                removedWhileReading.add(key);
                return;
            }
            copy.computeIfPresent(key, (k, local) -> local.value == null && local.pending == 0 ? null : local);
        }
    }

    /** What stands for a confirmed removal of {@code key} in the copy: nothing, or a mark while a re-read runs. */
    private Local<V> removed(K key) {
        if (reading.get() == 0) {
            return null;
        }
        removedWhileReading.add(key);
        return new Local<>(null, 0, changes.incrementAndGet());
    }

    private void warnIfFailed(Throwable failure, String what, K key) {
        if (failure != null && !(failure instanceof HazelcastInstanceNotActiveException)) {
            failures.warn("shared table {}: {} of {} failed: {}", name, what, key, failure.toString());
        }
    }

    @Override
    public long size() {
        long[] n = {0};
        copy.forEach(1 << 20, (k, local) -> local.value == null ? null : 1L, one -> n[0]++);
        return n[0];
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        copy.forEach((k, local) -> {
            if (local.value != null) {
                action.accept(k, local.value);
            }
        });
    }

    /**
     * Applies a value the cluster holds, unless a pending write of this node supersedes it: an event
     * of an older own write, or of another node's write applied before the pending one.
     */
    private void follow(K key, SharedEntry entry) {
        follow(key, entry, -1);
    }

    /**
     * With {@code readSince >= 0}: a value read from the map when the copy's change count was
     * {@code readSince}. It stands for the cluster's state, so it replaces another node's value even
     * over a pending write (whose event may have been lost with a member; if not, it comes later and
     * is applied then), but never an entry that changed after the read began, nor a newer own write.
     */
    private void follow(K key, SharedEntry entry, long readSince) {
        V value = null;
        if (!entry.removed()) {
            try {
                value = values.decode(entry.value());
            } catch (RuntimeException e) {
                failures.warn("shared table {}: value of {} unreadable, ignored: {}", name, key, e.toString());
                return;
            }
        }
        V applied = value;
        boolean own = entry.origin() == origin;
        boolean read = readSince >= 0;
        copy.compute(key, (k, local) -> {
            if (local != null && (read && local.changed > readSince
                    || local.pending != 0 && (own ? entry.seq() < local.pending : !read))) {
                return local;
            }
            return applied == null ? removed(k) : new Local<>(applied, 0, changes.incrementAndGet());
        });
    }

    /**
     * The map dropped the key (a tombstone expired, or someone removed it directly): gone here too,
     * unless a put of this node is pending (it comes after).
     */
    private void unfollow(K key) {
        copy.computeIfPresent(key, (k, local) -> local.pending != 0 && local.value != null ? local : removed(k));
    }

    private K key(byte[] bytes) {
        try {
            return keys.decode(bytes);
        } catch (RuntimeException e) {
            failures.warn("shared table {}: key unreadable, ignored: {}", name, e.toString());
            return null;
        }
    }

    /** Copies every entry of the cluster into this node's copy (newer own writes stand). */
    private void catchUp() {
        long start = System.nanoTime();
        long since = startRead();
        int copied = 0;
        try {
            for (Map.Entry<byte[], SharedEntry> e : map.entrySet()) {
                K key = key(e.getKey());
                if (key != null) {
                    follow(key, e.getValue(), since);
                    copied++;
                }
            }
        } finally {
            endRead();
            catchUps.incrementAndGet();
        }
        LOG.info("shared table {}: caught up with {} entries in {} ms", name, copied,
                (System.nanoTime() - start) / 1_000_000);
    }

    /** How many copies of the whole map this table has made (for tests: a member loss adds one). */
    long catchUps() {
        return catchUps.get();
    }

    @Override
    public void close() {
        resync.close();
        if (hazelcast.getLifecycleService().isRunning()) {
            map.removeEntryListener(entryListener);
        }
    }

    private final class Follower implements EntryAddedListener<byte[], SharedEntry>,
            EntryUpdatedListener<byte[], SharedEntry>, EntryRemovedListener<byte[], SharedEntry>,
            EntryMergedListener<byte[], SharedEntry>, MapClearedListener {

        @Override
        public void entryAdded(EntryEvent<byte[], SharedEntry> event) {
            K key = key(event.getKey());
            if (key != null) {
                follow(key, event.getValue());
            }
        }

        @Override
        public void entryUpdated(EntryEvent<byte[], SharedEntry> event) {
            entryAdded(event);
        }

        /** An entry of the smaller side of a healed split brain (the larger side copies nothing again). */
        @Override
        public void entryMerged(EntryEvent<byte[], SharedEntry> event) {
            entryAdded(event);
        }

        @Override
        public void entryRemoved(EntryEvent<byte[], SharedEntry> event) {
            K key = key(event.getKey());
            if (key != null) {
                unfollow(key);
            }
        }

        @Override
        public void mapCleared(MapEvent event) {
            copy.clear();
        }
    }
}
