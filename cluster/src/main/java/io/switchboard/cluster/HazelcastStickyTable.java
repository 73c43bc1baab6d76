package io.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyStats;
import io.switchboard.director.sticky.StickyTable;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sticky table shared by every director node: a partitioned Hazelcast {@code IMap} (one
 * synchronous backup; values a real's index and a time, {@link BindingValue}) is the authority, and
 * each node reads a full local replica of it that entry events keep current. See
 * {@code cluster/README.md} for why.
 *
 * <ul>
 *   <li><b>lookup</b> reads the local replica only: no cluster call, no lock, no allocation on a hit.</li>
 *   <li><b>bindIfAbsent / rebind</b> decide locally (so that this node's event loops agree at
 *       once), return that choice, and send a {@link Claim} / {@link Rebind} to the key's partition
 *       owner without waiting. The owner serializes competing claims, so the first one to arrive
 *       wins; its answer, and the entry event every node receives, correct any replica that chose
 *       otherwise. Until then at most the first packets of a racing subscriber go to the loser.</li>
 *   <li><b>idle expiry</b> is the owners' sweep ({@link Expire}), cluster-wide: a binding written
 *       more than {@code 1.5 × idle} ago is removed; a lookup that finds the binding was last written more than
 *       {@code idle / 2} ago sends one {@link Refresh} (then none until it is due again). The refresh
 *       is an update event to every node, so all of them learn the new deadline and do not refresh
 *       it themselves. A binding therefore lives between {@code idle} and {@code 1.5 × idle} after its
 *       last use anywhere, and costs at most one cluster write per {@code idle / 2} however many
 *       packets use it.</li>
 * </ul>
 *
 * The {@code nowNanos} arguments must come from the monotonic system clock ({@link Ticker#SYSTEM});
 * the map's times are the nodes' wall clocks (NTP-synchronised, as for the shared real state).
 */
public final class HazelcastStickyTable implements StickyTable, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HazelcastStickyTable.class);
    /**
     * Where the cluster's answers are handled: on the Hazelcast thread that completes them (the
     * handling is one map replace). Plain {@code whenComplete} would use Hazelcast's default
     * executor, which on a two-core machine (common pool parallelism 1) starts a thread per callback.
     */
    private static final Executor INLINE = Runnable::run;
    /** Entries fetched per round trip when a replica catches up. */
    private static final int CATCH_UP_FETCH = 1_000;

    private final String name;
    private final HazelcastInstance hazelcast;
    /** Keys in the map's form ({@link Replica#mapKey}): an IMSI's TBCD {@code Long}, any other key itself. */
    private final IMap<Object, Long> map;
    private final RealIndex reals;
    private final Ticker ticker;
    private final long lifeMillis;
    /** Times written to the map are the wall clock to this precision, so that entries share their values. */
    private final long quantumMillis;
    private final long lifeNanos;
    private final long refreshAfterNanos;
    /** Beyond its known deadline, how long a replica entry waits for the map's expiry event. */
    private final long expiryGraceNanos;
    private final int maxEntries;
    private final RateLimitedLog failures;

    private final Replica replica;

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bound = new LongAdder();
    private final LongAdder expired = new LongAdder();
    private final LongAdder refusedFull = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder overruled = new LongAdder();
    /** Claims, rebinds and refreshes sent and not yet answered. */
    private final LongAdder inFlight = new LongAdder();

    /** Catch-ups and sweeps: whole-replica work that must stay off event loops. */
    private final Resync resync;
    /** The owners' expiry sweep. */
    private final OwnerExpiry expiry;
    private final AtomicLong nextSweepNanos;
    /** Copies of the whole map made so far (the first when the table opens, then one per member loss or merge). */
    private final AtomicLong catchUps = new AtomicLong();
    private final Removals removals = new Removals();
    private final UUID entryListener;

    private HazelcastStickyTable(HazelcastInstance hazelcast, String name, Duration idle, int maxEntries,
                                 Ticker ticker) {
        if (idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("idle must be positive");
        }
        this.name = name;
        this.hazelcast = hazelcast;
        this.map = hazelcast.getMap(ClusterMember.STICKY_MAP_PREFIX + name);
        this.ticker = ticker;
        this.refreshAfterNanos = idle.toNanos() / 2;
        this.lifeNanos = idle.toNanos() + refreshAfterNanos;
        this.lifeMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(lifeNanos));
        this.quantumMillis = BindingValue.quantumMillis(lifeMillis);
        this.expiryGraceNanos = Math.max(refreshAfterNanos, TimeUnit.SECONDS.toNanos(10));
        this.maxEntries = maxEntries;
        this.failures = new RateLimitedLog(LOG, Duration.ofSeconds(10), ticker);
        this.nextSweepNanos = new AtomicLong(ticker.nanos() + expiryGraceNanos / 2);
        this.reals = new RealIndex(hazelcast, name);
        this.replica = new Replica(ticker.nanos());
        // Listen first, then copy: a change made while copying arrives as an event and is not lost.
        this.entryListener = map.addEntryListener(
                new ReplicaUpdater(replica, reals, ticker, removals, expired, lifeMillis), true);
        this.resync = new Resync(hazelcast, "sticky-" + name, this::catchUp);
        this.expiry = new OwnerExpiry(hazelcast, map, name, lifeMillis, failures);
    }

    /**
     * Opens the table {@code name} on this member and copies the cluster's bindings into the local
     * replica before returning, so that a node that joins or restarts serves with every binding.
     * Blocks (for a million bindings, seconds): call it at startup, never on an event loop.
     */
    public static HazelcastStickyTable open(HazelcastInstance hazelcast, String name, Duration idle, int maxEntries,
                                            Ticker ticker) {
        StickySerializers.announceSchemas(hazelcast);
        HazelcastStickyTable table = new HazelcastStickyTable(hazelcast, name, idle, maxEntries, ticker);
        table.catchUp();
        return table;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public StickyBinding lookup(StickyKey key, long nowNanos) {
        long entry = replica.get(key);
        if (entry == 0 || isExpired(entry, nowNanos)) {
            misses.increment();
            return null;
        }
        StickyBinding binding = replica.binding(entry);
        // One event loop wins the CAS and sends the refresh; the others, and later packets, do not.
        if (nowNanos - replica.writtenNanos(entry) >= refreshAfterNanos) {
            long refreshed = replica.rewritten(entry, nowNanos);
            if (replica.compareAndSet(key, entry, refreshed)) {
                send(Replica.mapKey(key), refreshed, binding,
                        index -> new Refresh(index, wallNow(), lifeMillis));
            }
        }
        hits.increment();
        return binding;
    }

    @Override
    public StickyBinding bindIfAbsent(StickyKey key, StickyBinding binding, long nowNanos) {
        long mine = replica.entry(binding, nowNanos);
        Object mapKey = Replica.mapKey(key);
        long holding = mine == 0 ? 0 : replica.update(mapKey, existing -> {
            if (existing != 0 && !isExpired(existing, nowNanos)) {
                return existing;
            }
            return existing == 0 && isFull() ? 0 : mine;
        });
        if (holding == 0) {
            refusedFull.increment();
            return binding;
        }
        if (holding != mine) {
            return replica.binding(holding);
        }
        bound.increment();
        send(mapKey, mine, binding, index -> new Claim(index, wallNow(), lifeMillis));
        return binding;
    }

    @Override
    public StickyBinding rebind(StickyKey key, StickyBinding expected, StickyBinding replacement, long nowNanos) {
        long mine = replica.entry(replacement, nowNanos);
        LongPredicate wasExpected = replica.holding(expected);
        Object mapKey = Replica.mapKey(key);
        long holding = mine == 0 ? 0 : replica.update(mapKey, existing -> {
            if (existing == 0) {
                return isFull() ? 0 : mine;
            }
            return wasExpected.test(existing) || isExpired(existing, nowNanos) ? mine : existing;
        });
        if (holding == 0) {
            refusedFull.increment();
            return replacement;
        }
        if (holding != mine) {
            return replica.binding(holding);
        }
        bound.increment();
        // The expected binding's index too: a node that never saw it cannot know it otherwise.
        reals.register(expected).whenComplete((from, failure) -> send(mapKey, mine, replacement, to ->
                new Rebind(failure == null ? from : 0, to, wallNow(), lifeMillis)));
        return replacement;
    }

    /**
     * Sends a claim, rebind or refresh of {@code sent} to the key's owner without waiting. Never
     * throws: on the packet path a cluster in trouble costs stickiness across nodes, not packets.
     */
    private void send(Object key, long sent, StickyBinding binding,
                      IntFunction<EntryProcessor<Object, Long, Long>> change) {
        writes.increment();
        inFlight.increment();
        int index = reals.indexOf(binding);
        if (index > 0) {
            removals.afterRemovals(key, () -> submit(key, sent, index, change));
            return;
        }
        // A real this node has not used before: its index is registered first (one round trip, once
        // per real and node), then the change is sent; the packet path does not wait for either.
        reals.register(binding).whenComplete((registered, failure) -> {
            if (failure != null) {
                inFlight.decrement();
                follow(key, sent, 0, null, failure, binding);
            } else {
                removals.afterRemovals(key, () -> submit(key, sent, registered, change));
            }
        });
    }

    private void submit(Object key, long sent, int index, IntFunction<EntryProcessor<Object, Long, Long>> change) {
        EntryProcessor<Object, Long, Long> processor = change.apply(index);
        try {
            map.submitToKey(key, processor).whenCompleteAsync((holding, failure) -> {
                inFlight.decrement();
                follow(key, sent, index, holding, failure, processor);
            }, INLINE);
        } catch (RuntimeException e) {
            inFlight.decrement();
            follow(key, sent, index, null, e, processor);
        }
    }

    /**
     * The cluster's answer to a change sent for {@code sent}: if another binding holds, the
     * replica takes it — unless a newer event already replaced {@code sent}.
     */
    private void follow(Object key, long sent, int sentIndex, Long holding, Throwable failure, Object change) {
        if (failure != null) {
            // The local choice stays; the next refresh claims it again once the cluster answers.
            if (!(failure instanceof HazelcastInstanceNotActiveException)) { // shutting down: expected
                failures.warn("sticky table {}: {} of {} failed: {}", name, change, replica.stickyKey(key),
                        failure.toString());
            }
            return;
        }
        // null: the change applied as sent (the answer carries a binding only when another holds).
        if (holding != null && BindingValue.index(holding) != sentIndex) {
            overruled.increment();
            // Usually the winner's entry event got here first and this replace finds nothing to do.
            // This may be a partition thread: the index is resolved without blocking.
            int index = BindingValue.index(holding);
            StickyBinding known = reals.knownBinding(index);
            CompletableFuture<StickyBinding> winner = known != null ? CompletableFuture.completedFuture(known)
                    : reals.bindingOfAsync(index);
            winner.thenAccept(b -> {
                long entry = b != null ? replica.entry(b, ticker.nanos()) : 0;
                if (entry != 0) {
                    replica.update(key, current -> current == sent ? entry : current);
                }
            });
        }
    }

    @Override
    public boolean remove(StickyKey key) {
        Object mapKey = Replica.mapKey(key);
        removals.sent(mapKey);
        boolean had = replica.remove(mapKey) != 0;
        writes.increment();
        try {
            map.removeAsync(mapKey).whenCompleteAsync((old, failure) -> {
                removals.answered(mapKey);
                warnIfFailed(failure, "remove of " + key);
            }, INLINE);
        } catch (RuntimeException e) {
            removals.answered(mapKey);
            warnIfFailed(e, "remove of " + key);
        }
        return had;
    }

    /** Counts the local replica, which holds every key of the cluster's table: the same count on every node. */
    @Override
    public long countBoundTo(String farm, String real, long nowNanos) {
        LongPredicate bound = replica.holding(new StickyBinding(farm, real));
        return replica.count(entry -> bound.test(entry) && !isExpired(entry, nowNanos));
    }

    /** The local replica's live entries; the idle time is the time since the entry was last written or refreshed. */
    @Override
    public void forEachLive(long nowNanos, LiveBinding action) {
        replica.forEach((key, entry) -> {
            if (!isExpired(entry, nowNanos)) {
                action.accept(replica.stickyKey(key), replica.binding(entry),
                        Math.max(0, nowNanos - replica.writtenNanos(entry)));
            }
        });
    }

    @Override
    public int removeBoundTo(String farm, String real) {
        StickyBinding target = new StickyBinding(farm, real);
        LongPredicate bound = replica.holding(target);
        Set<Object> keys = new HashSet<>();
        replica.forEach((key, entry) -> {
            if (bound.test(entry)) {
                removals.sent(key);
                if (replica.remove(key, entry)) {
                    keys.add(key);
                } else {
                    removals.answered(key);
                }
            }
        });
        if (!keys.isEmpty()) {
            writes.increment();
            String what = "removal of " + keys.size() + " keys bound to " + target;
            reals.register(target).whenComplete((index, unregistered) -> {
                if (unregistered != null) {
                    keys.forEach(removals::answered);
                    warnIfFailed(unregistered, what);
                    return;
                }
                try {
                    // Conditional: a key another node has meanwhile moved elsewhere keeps its new binding.
                    map.submitToKeys(keys, new Release(index)).whenCompleteAsync((released, failure) -> {
                        keys.forEach(removals::answered);
                        warnIfFailed(failure, what);
                    }, INLINE);
                } catch (RuntimeException e) {
                    keys.forEach(removals::answered);
                    warnIfFailed(e, what);
                }
            });
        }
        return keys.size();
    }

    private void warnIfFailed(Throwable failure, String what) {
        if (failure != null && !(failure instanceof HazelcastInstanceNotActiveException)) {
            failures.warn("sticky table {}: {} failed: {}", name, what, failure.toString());
        }
    }

    /**
     * The owners expire bindings cluster-wide and their removal events clear them from every replica;
     * this only drops replica entries whose event never came (it would have been sent by a member
     * that died), well after their deadline. The engine calls it every 100 ms from an event loop:
     * it returns at once, and at most every {@code grace / 2} sweeps the replica in background.
     */
    @Override
    public void expire(long nowNanos) {
        long next = nextSweepNanos.get();
        if (nowNanos - next >= 0 && nextSweepNanos.compareAndSet(next, nowNanos + expiryGraceNanos / 2)) {
            resync.execute(() -> sweep(nowNanos));
        }
    }

    private void sweep(long nowNanos) {
        expired.add(replica.removeIf(entry -> nowNanos - replica.writtenNanos(entry) > lifeNanos + expiryGraceNanos));
    }

    /** The time the changes this node sends carry: the wall clock, to the quantum ({@link BindingValue#shared}). */
    private long wallNow() {
        long now = System.currentTimeMillis();
        return now - now % quantumMillis;
    }

    private boolean isExpired(long entry, long nowNanos) {
        return nowNanos - replica.writtenNanos(entry) > lifeNanos;
    }

    private boolean isFull() {
        return replica.size() >= maxEntries;
    }

    /** Bindings in the cluster, as this node's replica counts them. */
    @Override
    public long size() {
        return replica.size();
    }

    /**
     * Hits, misses, bindings made and refused are this node's; expirations are every expiry this
     * node's replica saw, which is every expiry in the cluster.
     */
    @Override
    public StickyStats stats() {
        return new StickyStats(hits.sum(), misses.sum(), bound.sum(), expired.sum(), refusedFull.sum());
    }

    /**
     * Claims, rebinds and refreshes sent and not yet answered. Nothing bounds it (the packet path
     * never waits): a caller binding faster than the cluster applies (a load generator) watches it.
     */
    public long inFlight() {
        return inFlight.sum();
    }

    /** Cluster operations this node has sent (claims, rebinds, refreshes, removals): never one per packet. */
    public long writes() {
        return writes.sum();
    }

    /** Local choices that the cluster overruled because another node's choice held first. */
    public long overruled() {
        return overruled.sum();
    }

    /**
     * Copies every binding of the map into the replica. Entries that a newer event or local write
     * touched since the copy began are left alone; nothing is removed (an entry the cluster no
     * longer holds is refreshed back if still used, or swept by {@link #expire} if not). A copied
     * entry counts as written half an idle time ago, so its first use refreshes it: that both
     * confirms it with the cluster and tells this node its real deadline. A key removed since the
     * copy began, or whose removal by this node is still on its way, is not brought back.
     */
    private void catchUp() {
        long start = ticker.nanos();
        long copiedWritten = start - refreshAfterNanos;
        Set<Object> during = removals.catchUpStarts();
        int copied = 0;
        try {
            reals.catchUp();
            Iterator<Map.Entry<Object, Long>> it = map.iterator(CATCH_UP_FETCH);
            while (it.hasNext()) {
                Map.Entry<Object, Long> e = it.next();
                if (e.getValue() == null) {
                    continue; // removed between the iterator's fetch of keys and of values
                }
                StickyBinding binding = reals.bindingOf(BindingValue.index(e.getValue()));
                if (binding == null) {
                    continue; // an index nobody registered: not written by a table
                }
                long copy = replica.entry(binding, copiedWritten);
                Object key = e.getKey();
                replica.update(key, local -> {
                    if (local == 0) {
                        return copy == 0 || removals.keepOut(key, during) ? 0 : copy;
                    }
                    return replica.writtenBefore(local, start) && !Replica.sameBinding(local, copy) && copy != 0
                            ? copy : local;
                });
                copied++;
            }
        } finally {
            removals.catchUpEnded();
        }
        catchUps.incrementAndGet();
        LOG.info("sticky table {}: replica caught up with {} bindings in {} ms", name, copied,
                TimeUnit.NANOSECONDS.toMillis(ticker.nanos() - start));
    }

    /** How many copies of the whole map this replica has made (for tests: a member loss adds one). */
    long catchUps() {
        return catchUps.get();
    }

    /** Stops listening; the bindings stay in the cluster. */
    @Override
    public void close() {
        resync.close();
        expiry.close();
        if (hazelcast.getLifecycleService().isRunning()) {
            map.removeEntryListener(entryListener);
            reals.close();
        }
    }
}
