package io.switchboard.cluster;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.proxy.MapProxyImpl;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.switchboard.director.sticky.StickyBinding;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * A sticky table's cluster-wide dictionary of bindings (farm, real) → index, so that the table's map
 * values and events carry a 22-bit index instead of two strings ({@link BindingValue}). A handful of
 * reals serve millions of keys, so the dictionary has a few entries, and every node holds all of them
 * locally (an entry listener, plus a copy when it opens).
 *
 * <ul>
 *   <li><b>Registering</b> a binding never blocks: its preferred index is a hash of farm and real;
 *       {@code putIfAbsent} of index → binding on that key, and on the next index if another binding
 *       holds it (linear probing), until one holds this binding. Two nodes registering the same binding
 *       at once meet at the same key, so they agree; the owner of the key decides.</li>
 *   <li>A table sends an index in a claim only once this node knows it is registered, so any node
 *       that sees the index in an entry event can resolve it: from its local copy, or, if the
 *       dictionary's own event has not reached it yet, by reading the dictionary ({@link #bindingOf},
 *       off the event loops only).</li>
 *   <li>Split brain: both sides register independently; a binding new on both sides usually gets the
 *       same index (the hash). Only two different bindings whose hashes collide modulo 2^22, each
 *       first registered on a different side, would take the same index on both — after the merge
 *       the larger side's meaning stands. Nothing removes entries (a real removed from the
 *       configuration keeps its index).</li>
 * </ul>
 */
final class RealIndex implements AutoCloseable {

    private final IMap<Integer, StickyBinding> map;
    private final ConcurrentHashMap<Integer, StickyBinding> byIndex = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<StickyBinding, Integer> byBinding = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<StickyBinding, CompletableFuture<Integer>> registering = new ConcurrentHashMap<>();
    private final UUID listener;
    /**
     * Where registrations complete, and so where the changes waiting for them are sent: not the
     * Hazelcast thread that answered (a partition or response thread may not call the cluster).
     */
    private final ExecutorService thread;

    RealIndex(HazelcastInstance hazelcast, String name) {
        this.map = hazelcast.getMap(ClusterMember.STICKY_REALS_PREFIX + name);
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sticky-reals-" + name);
            t.setDaemon(true);
            return t;
        });
        Listener l = new Listener();
        // Listen first, then copy: an index registered while copying arrives as an event.
        this.listener = map.addEntryListener(l, true);
        catchUp();
    }

    /** The binding's index if this node knows it is registered, else 0 (and registration starts). Never blocks. */
    int indexOf(StickyBinding binding) {
        Integer known = byBinding.get(binding);
        if (known != null) {
            return known;
        }
        register(binding);
        return 0;
    }

    /** The binding's index once registered; completes at once when known. Never blocks. */
    CompletableFuture<Integer> register(StickyBinding binding) {
        Integer known = byBinding.get(binding);
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        CompletableFuture<Integer> mine = new CompletableFuture<>();
        CompletableFuture<Integer> done = registering.putIfAbsent(binding, mine);
        if (done != null) {
            return done;
        }
        // Outside the map's update: the first try may complete (or fail) at once.
        tryAt(binding, preferred(binding), 0, mine);
        return mine;
    }

    private void tryAt(StickyBinding binding, int index, int probes, CompletableFuture<Integer> done) {
        if (probes > BindingValue.MAX_INDEX) {
            done.completeExceptionally(new IllegalStateException("no free real index"));
            return;
        }
        StickyBinding there = byIndex.get(index);
        if (there != null && !there.equals(binding)) {
            tryAt(binding, next(index), probes + 1, done);
            return;
        }
        try {
            ((MapProxyImpl<Integer, StickyBinding>) map).putIfAbsentAsync(index, binding)
                    .whenCompleteAsync((holder, failure) -> {
                        if (failure != null) {
                            registering.remove(binding, done); // the next use tries again
                            done.completeExceptionally(failure);
                        } else if (holder == null || holder.equals(binding)) {
                            learn(index, binding);
                            done.complete(index);
                        } else {
                            learn(index, holder);
                            tryAt(binding, next(index), probes + 1, done);
                        }
                    }, thread);
        } catch (RuntimeException e) {
            registering.remove(binding, done);
            done.completeExceptionally(e);
        }
    }

    /** The binding with this index from the local copy, or null if this node has not learnt it yet. Never blocks. */
    StickyBinding knownBinding(int index) {
        return byIndex.get(index);
    }

    /**
     * The binding with this index, reading the dictionary if this node has not learnt it yet (its
     * event may come after the table's): blocks then, so only on Hazelcast's event threads or a
     * table's own thread, never on an event loop. Null only for an index nobody registered.
     */
    StickyBinding bindingOf(int index) {
        StickyBinding known = byIndex.get(index);
        if (known != null) {
            return known;
        }
        StickyBinding read = map.get(index);
        if (read != null) {
            learn(index, read);
            return byIndex.get(index);
        }
        return null;
    }

    /** The same, without blocking: for threads that must neither wait nor call the cluster (an answer's completion). */
    CompletableFuture<StickyBinding> bindingOfAsync(int index) {
        StickyBinding known = byIndex.get(index);
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        try {
            return CompletableFuture.supplyAsync(() -> bindingOf(index), thread);
        } catch (RejectedExecutionException closed) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /**
     * Copies the dictionary again (after a merge or member loss: events may have been lost). Partition
     * by partition, as the table's own copy: {@code entrySet} asks every member at once, and right after
     * a member is lost it waits for the lost one until the operation timeout (60 s, seen in
     * {@code PartitionMergeNetnsIT}: the table's copy was held up for a minute on every node).
     */
    void catchUp() {
        for (var it = map.iterator(100); it.hasNext(); ) {
            Map.Entry<Integer, StickyBinding> e = it.next();
            if (e.getValue() != null) {
                learn(e.getKey(), e.getValue());
            }
        }
    }

    private void learn(Integer index, StickyBinding binding) {
        StickyBinding canonical = byBinding.keySet().stream().filter(binding::equals).findAny().orElse(binding);
        StickyBinding before = byIndex.put(index, canonical);
        if (before != null && !before.equals(canonical)) {
            byBinding.remove(before, index); // a merge gave the index the larger side's meaning
        }
        byBinding.put(canonical, index);
    }

    static int preferred(StickyBinding binding) {
        byte[] text = (binding.farm() + '\0' + binding.real()).getBytes(StandardCharsets.UTF_8);
        long h = 0xcbf29ce484222325L; // FNV-1a 64: stable across JVMs and versions (a wire constant)
        for (byte b : text) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return 1 + (int) Long.remainderUnsigned(h, BindingValue.MAX_INDEX);
    }

    private static int next(int index) {
        return index == BindingValue.MAX_INDEX ? 1 : index + 1;
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            map.removeEntryListener(listener);
        } catch (RuntimeException e) {
            // member shutting down: nothing to stop listening to
        }
    }

    private final class Listener implements EntryAddedListener<Integer, StickyBinding>,
            EntryUpdatedListener<Integer, StickyBinding>, EntryMergedListener<Integer, StickyBinding> {
        @Override
        public void entryAdded(EntryEvent<Integer, StickyBinding> event) {
            learn(event.getKey(), event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<Integer, StickyBinding> event) {
            learn(event.getKey(), event.getValue());
        }

        @Override
        public void entryMerged(EntryEvent<Integer, StickyBinding> event) {
            learn(event.getKey(), event.getValue());
        }
    }

    /** For tests: the local copy. */
    Map<Integer, StickyBinding> known() {
        return Map.copyOf(byIndex);
    }
}
