package io.switchboard.cluster;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealDrain;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.RealStateListener;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reals' shared state ({@link RealRecord}): administrative in/out of service and drains, dynamic weights and
 * failures, made on any node, applied on every node.
 *
 * <p>One small {@code IMap} keyed {@code farm/real}, changed only by {@link RealChange} entry
 * processors sent without waiting (the admin API and the failure detector run on event loops), and
 * followed by an entry listener on every node. The listener applies another node's change to the
 * local {@link RealServer} on Hazelcast's event thread; the real is thread-safe, and its predictor
 * rebuilds as for a local change. A node that joins copies the map before it serves. Why a map and
 * not a topic: the map is the current state, so a joining or restarted node needs nothing else, and
 * its per-key event order is the order the owner applied the changes.
 *
 * <p>Failures are shared as a time: each node moves the real to FAILED and counts its retry timer from
 * that time, so every node offers the real its test request at about the same moment; the recovery
 * itself (the answered test) is each node's own, as are probes (every node runs them).
 */
public final class SharedRealState implements RealStateListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SharedRealState.class);
    static final String MAP = "reals";
    private static final Executor INLINE = Runnable::run;

    private final HazelcastInstance hazelcast;
    private final IMap<String, RealRecord> map;
    private final Farms farms;
    private final Ticker ticker;
    private final String self;
    private final RateLimitedLog failures;
    private final UUID entryListener;
    private final Resync resync;

    private SharedRealState(HazelcastInstance hazelcast, Farms farms, Ticker ticker) {
        this.hazelcast = hazelcast;
        this.map = hazelcast.getMap(MAP);
        this.farms = farms;
        this.ticker = ticker;
        this.self = hazelcast.getCluster().getLocalMember().getUuid().toString();
        this.failures = new RateLimitedLog(LOG, Duration.ofSeconds(10), ticker);
        this.entryListener = map.addEntryListener(new Follower(), true);
        // After a member loss (its unsent events are lost) or a merge: apply the map's state again.
        this.resync = new Resync(hazelcast, "real-state", this::catchUp);
    }

    /**
     * Follows the cluster's real state on {@code farms} and reports their local changes to it. Copies
     * the current state first (blocks: call at startup, before serving).
     */
    public static SharedRealState open(HazelcastInstance hazelcast, Farms farms, Ticker ticker) {
        StickySerializers.announceSchemas(hazelcast);
        SharedRealState shared = new SharedRealState(hazelcast, farms, ticker);
        shared.catchUp();
        farms.stateListener(shared);
        return shared;
    }

    static String key(RealServer real) {
        return real.farm() + "/" + real.id();
    }

    @Override
    public void adminChanged(RealServer real, boolean inService) {
        send(real, RealChange.admin(inService, self));
    }

    @Override
    public void drainStarted(RealServer real, long deadlineMillis) {
        send(real, RealChange.drain(deadlineMillis, self));
    }

    @Override
    public void weightChanged(RealServer real, int weight) {
        send(real, RealChange.weight(weight, self));
    }

    @Override
    public void failed(RealServer real) {
        send(real, RealChange.failed(System.currentTimeMillis(), self));
    }

    /** Never waits and never throws: a cluster in trouble costs other nodes this news, not this node's packets. */
    private void send(RealServer real, RealChange change) {
        try {
            map.submitToKey(key(real), change).whenCompleteAsync((v, failure) -> {
                if (failure != null && !(failure instanceof HazelcastInstanceNotActiveException)) {
                    failures.warn("real state of {}: {} not shared: {}", key(real), change.kind(), failure.toString());
                }
            }, INLINE);
        } catch (RuntimeException e) {
            failures.warn("real state of {}: {} not shared: {}", key(real), change.kind(), e.toString());
        }
    }

    /**
     * Applies the cluster's state to every real it names, as a node that knew nothing would; applied
     * again (after a member loss or a merge) it changes only what differs.
     */
    private void catchUp() {
        int applied = 0;
        for (Map.Entry<String, RealRecord> e : map.entrySet()) {
            RealServer real = real(e.getKey());
            if (real == null) {
                continue;
            }
            RealRecord r = e.getValue();
            if (r.adminChanges() > 0 && r.draining()) {
                if (real.currentDrain() == null) {
                    real.applyDrain(RealDrain.shared(ticker.nanos(), r.drainDeadlineMillis()));
                }
            } else if (r.adminChanges() > 0 && r.inService() == (real.state() == RealState.OUTOFSERVICE)) {
                real.applyAdmin(r.inService());
            }
            if (r.weight() >= 0 && r.weight() != real.weight()) {
                real.applyWeight(r.weight());
            }
            long sinceFailure = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis() - r.failedAtMillis());
            if (r.failedAtMillis() > 0 && sinceFailure < real.retryNanos()) {
                real.applyFailure(ticker.nanos() - Math.max(0, sinceFailure));
            }
            applied++;
        }
        LOG.info("real state: caught up with {} changed reals", applied);
    }

    private RealServer real(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? null : farms.real(key.substring(0, slash), key.substring(slash + 1));
    }

    private void apply(String key, RealRecord before, RealRecord after) {
        if (after.origin().equals(self)) {
            return; // this node's own change, applied when it was made
        }
        RealServer real = real(key);
        if (real == null) {
            // Not (yet, or no longer) in this node's configuration: a reload reaches the nodes one
            // after the other, so a real another node just added or still drains is no error here.
            LOG.debug("real state: {} changed on another node but is not in this node's configuration", key);
            return;
        }
        if (after.adminChanges() != before.adminChanges() && after.draining()) {
            real.applyDrain(RealDrain.shared(ticker.nanos(), after.drainDeadlineMillis()));
        } else if (after.adminChanges() != before.adminChanges()) {
            real.applyAdmin(after.inService());
        }
        if (after.weight() != before.weight() && after.weight() >= 0) {
            real.applyWeight(after.weight());
        }
        if (after.failedAtMillis() != before.failedAtMillis()) {
            long since = Math.max(0, System.currentTimeMillis() - after.failedAtMillis());
            real.applyFailure(ticker.nanos() - TimeUnit.MILLISECONDS.toNanos(since));
        }
    }

    /** Stops following; the state stays in the cluster. */
    @Override
    public void close() {
        farms.stateListener(RealStateListener.NONE);
        resync.close();
        if (hazelcast.getLifecycleService().isRunning()) {
            map.removeEntryListener(entryListener);
        }
    }

    private final class Follower implements EntryAddedListener<String, RealRecord>,
            EntryUpdatedListener<String, RealRecord>, EntryMergedListener<String, RealRecord> {

        @Override
        public void entryAdded(EntryEvent<String, RealRecord> event) {
            apply(event.getKey(), RealRecord.UNCHANGED, event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<String, RealRecord> event) {
            apply(event.getKey(), event.getOldValue(), event.getValue());
        }

        /**
         * A real's record from the smaller side of a healed split brain that won (LatestUpdate): the
         * larger side's nodes copy nothing again after a merge, so this event is how they learn it.
         */
        @Override
        public void entryMerged(EntryEvent<String, RealRecord> event) {
            apply(event.getKey(), event.getOldValue() == null ? RealRecord.UNCHANGED : event.getOldValue(),
                    event.getValue());
        }
    }
}
