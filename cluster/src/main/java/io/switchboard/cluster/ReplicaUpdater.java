package io.switchboard.cluster;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import io.switchboard.director.Ticker;
import io.switchboard.director.sticky.StickyBinding;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;

/**
 * Applies a {@link HazelcastStickyTable}'s map events to its replica, on Hazelcast's event
 * threads. Events of one key arrive in the order the owner applied them, so the last event is the
 * cluster's state. Values are {@link BindingValue}s: the real's index is resolved through the
 * table's {@link RealIndex} (locally; on this event thread from the dictionary if its own event is
 * late, which keeps the events of one key in order).
 */
final class ReplicaUpdater implements EntryAddedListener<Object, Long>,
        EntryUpdatedListener<Object, Long>, EntryRemovedListener<Object, Long>,
        EntryExpiredListener<Object, Long>, EntryEvictedListener<Object, Long>,
        EntryMergedListener<Object, Long>, MapClearedListener {

    private final Replica replica;
    private final RealIndex reals;
    private final Ticker ticker;
    private final Removals removals;
    private final LongAdder expired;
    private final long lifeMillis;

    ReplicaUpdater(Replica replica, RealIndex reals, Ticker ticker,
                   Removals removals, LongAdder expired, long lifeMillis) {
        this.replica = replica;
        this.reals = reals;
        this.ticker = ticker;
        this.removals = removals;
        this.expired = expired;
        this.lifeMillis = lifeMillis;
    }

    @Override
    public void entryAdded(EntryEvent<Object, Long> event) {
        put(event);
    }

    @Override
    public void entryUpdated(EntryEvent<Object, Long> event) {
        put(event);
    }

    /**
     * A key of the smaller side of a healed split brain, put here by the merge policy. Only the smaller
     * side's nodes copy the map again after a merge ({@link Resync}); without this event the larger
     * side's replicas would never learn the keys bound over there during the split.
     */
    @Override
    public void entryMerged(EntryEvent<Object, Long> event) {
        put(event);
    }

    private void put(EntryEvent<Object, Long> event) {
        StickyBinding binding = reals.bindingOf(BindingValue.index(event.getValue()));
        // null: an index nobody registered (cannot happen: claims send only registered ones)
        long entry = binding != null ? replica.entry(binding, ticker.nanos()) : 0;
        if (entry != 0) {
            replica.update(event.getKey(), current -> entry);
        }
    }

    /**
     * A removal by {@link Expire} (the owners' sweep) or by a node. One whose old value is past its
     * life is the sweep's and counts as an expiry: the owners remove live bindings only when a node
     * asks, and nodes remove live ones only.
     */
    @Override
    public void entryRemoved(EntryEvent<Object, Long> event) {
        Long old = event.getOldValue();
        if (drop(event) && old != null && BindingValue.expired(old, lifeMillis, System.currentTimeMillis())) {
            expired.increment();
        }
    }

    @Override
    public void entryEvicted(EntryEvent<Object, Long> event) {
        drop(event);
    }

    @Override
    public void entryExpired(EntryEvent<Object, Long> event) {
        if (drop(event)) {
            expired.increment();
        }
    }

    @Override
    public void mapCleared(MapEvent event) {
        replica.clear();
    }

    /** Drops the key unless the replica already holds another binding for it (a newer choice). */
    private boolean drop(EntryEvent<Object, Long> event) {
        removals.applied(event.getKey());
        Long old = event.getOldValue();
        LongPredicate removed = old == null ? entry -> true : replica.holding(reals.bindingOf(BindingValue.index(old)));
        boolean[] dropped = {false};
        replica.update(event.getKey(), current -> {
            dropped[0] = current != 0 && removed.test(current);
            return dropped[0] ? 0 : current;
        });
        return dropped[0];
    }
}
