package io.switchboard.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local copy's own background thread, and when it must copy the map again: after a member leaves
 * (entry events the dead member had not sent are lost, and the backups it leaves are promoted
 * silently) and after a split brain merged. At most one copy is queued at a time.
 */
final class Resync implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Resync.class);

    private final HazelcastInstance hazelcast;
    private final String name;
    private final Runnable copy;
    private final ExecutorService thread;
    private final AtomicBoolean queued = new AtomicBoolean();
    private final UUID membershipListener;
    private final UUID lifecycleListener;

    /** @param copy copies the map into the local copy; runs on this object's thread */
    Resync(HazelcastInstance hazelcast, String name, Runnable copy) {
        this.hazelcast = hazelcast;
        this.name = name;
        this.copy = copy;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        this.membershipListener = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                later();
            }
        });
        this.lifecycleListener = hazelcast.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                later(); // the smaller side of a split brain was reset and merged
            }
        });
    }

    /** Queues a copy unless one is already queued. */
    void later() {
        if (queued.compareAndSet(false, true)) {
            execute(() -> {
                queued.set(false);
                try {
                    copy.run();
                } catch (RuntimeException e) {
                    LOG.warn("{}: copying the map again failed", name, e);
                }
            });
        }
    }

    /** Runs {@code task} on this thread (nothing once closed). */
    void execute(Runnable task) {
        try {
            thread.execute(task);
        } catch (RejectedExecutionException closed) {
            // closed: nothing to keep up to date
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        if (hazelcast.getLifecycleService().isRunning()) {
            hazelcast.getCluster().removeMembershipListener(membershipListener);
            hazelcast.getLifecycleService().removeLifecycleListener(lifecycleListener);
        }
    }
}
