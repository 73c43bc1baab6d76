package io.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import io.switchboard.director.RateLimitedLog;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The owners' expiry of a sticky table's map (instead of Hazelcast's per-entry TTL): every
 * {@code min(life / 6, 5 s)} the cluster's oldest member runs {@link Expire} on every partition (each
 * owner on its own entries, each backup likewise), removing the bindings written more than their life
 * ago; the removal events clear them from every replica. When the oldest member leaves, the next
 * oldest sweeps. On a thread of its own: right after a member loss {@code executeOnEntries} can wait
 * for the lost member until the operation timeout, and the replica's copy must not wait behind it.
 */
final class OwnerExpiry implements AutoCloseable {

    private final HazelcastInstance hazelcast;
    private final IMap<Object, Long> map;
    private final long lifeMillis;
    private final RateLimitedLog failures;
    private final String name;
    private final ScheduledExecutorService thread;

    OwnerExpiry(HazelcastInstance hazelcast, IMap<Object, Long> map, String name, long lifeMillis,
                RateLimitedLog failures) {
        this.hazelcast = hazelcast;
        this.map = map;
        this.name = name;
        this.lifeMillis = lifeMillis;
        this.failures = failures;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sticky-expiry-" + name);
            t.setDaemon(true);
            return t;
        });
        long period = Math.min(5_000, Math.max(50, lifeMillis / 6));
        thread.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
    }

    private void sweep() {
        try {
            if (!hazelcast.getCluster().getMembers().iterator().next().localMember()) {
                return;
            }
            map.executeOnEntries(new Expire(System.currentTimeMillis() - lifeMillis));
        } catch (RuntimeException e) { // never let the schedule stop
            if (!(e instanceof HazelcastInstanceNotActiveException)) {
                failures.warn("sticky table {}: expiry sweep failed: {}", name, e.toString());
            }
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
