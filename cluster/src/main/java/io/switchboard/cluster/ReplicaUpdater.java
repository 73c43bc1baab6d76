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
import io.switchboard.director.sticky.StickyKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;

/**
 * Applies a {@link HazelcastStickyTable}'s map events to its replica, on Hazelcast's event
 * threads. Events of one key arrive in the order the owner applied them, so the last event is the
 * cluster's state.
 */
final class ReplicaUpdater implements EntryAddedListener<StickyKey, StickyBinding>,
        EntryUpdatedListener<StickyKey, StickyBinding>, EntryRemovedListener<StickyKey, StickyBinding>,
        EntryExpiredListener<StickyKey, StickyBinding>, EntryEvictedListener<StickyKey, StickyBinding>,
        EntryMergedListener<StickyKey, StickyBinding>, MapClearedListener {

    private final ConcurrentHashMap<StickyKey, LocalBinding> replica;
    private final UnaryOperator<StickyBinding> canonical;
    private final Ticker ticker;
    private final Removals removals;
    private final LongAdder expired;

    ReplicaUpdater(ConcurrentHashMap<StickyKey, LocalBinding> replica, UnaryOperator<StickyBinding> canonical,
                   Ticker ticker, Removals removals, LongAdder expired) {
        this.replica = replica;
        this.canonical = canonical;
        this.ticker = ticker;
        this.removals = removals;
        this.expired = expired;
    }

    @Override
    public void entryAdded(EntryEvent<StickyKey, StickyBinding> event) {
        replica.put(event.getKey(), new LocalBinding(canonical.apply(event.getValue()), ticker.nanos()));
    }

    @Override
    public void entryUpdated(EntryEvent<StickyKey, StickyBinding> event) {
        replica.put(event.getKey(), new LocalBinding(canonical.apply(event.getValue()), ticker.nanos()));
    }

    /**
     * A key of the smaller side of a healed split brain, put here by the merge policy. Only the smaller
     * side's nodes copy the map again after a merge ({@link Resync}); without this event the larger
     * side's replicas would never learn the keys bound over there during the split.
     */
    @Override
    public void entryMerged(EntryEvent<StickyKey, StickyBinding> event) {
        replica.put(event.getKey(), new LocalBinding(canonical.apply(event.getValue()), ticker.nanos()));
    }

    @Override
    public void entryRemoved(EntryEvent<StickyKey, StickyBinding> event) {
        drop(event);
    }

    @Override
    public void entryEvicted(EntryEvent<StickyKey, StickyBinding> event) {
        drop(event);
    }

    @Override
    public void entryExpired(EntryEvent<StickyKey, StickyBinding> event) {
        if (drop(event)) {
            expired.increment();
        }
    }

    @Override
    public void mapCleared(MapEvent event) {
        replica.clear();
    }

    /** Drops the key unless the replica already holds another binding for it (a newer choice). */
    private boolean drop(EntryEvent<StickyKey, StickyBinding> event) {
        removals.applied(event.getKey());
        StickyBinding old = event.getOldValue();
        LocalBinding r = replica.get(event.getKey());
        return r != null && (old == null || r.binding.equals(old)) && replica.remove(event.getKey(), r);
    }
}
