package io.switchboard.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.PartitionService;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sends a {@link HazelcastStickyTable}'s claims of new keys in batches: the event loops only queue
 * them (no call into Hazelcast on the packet path), and one sender thread per table sends whatever
 * queued since its last round as one {@link ClaimBatch} per partition ({@code submitToKeys}), or a
 * plain {@link Claim} for a partition's single key. Nothing waits for a timer: an idle table sends a
 * claim as soon as the sender thread runs (one thread hand-off), a busy one sends bigger batches —
 * one operation, one backup and one answer per partition instead of per key.
 */
final class ClaimSender implements AutoCloseable {

    /** The table's handling of one claim's answer (or failure). */
    interface Answer {
        void answered(StickyKey key, LocalBinding sent, StickyBinding holding, Throwable failure, Object change);
    }

    /** Keys per operation at most: an operation holds its partition's thread while it runs. */
    private static final int MAX_BATCH = 1_000;

    private record Pending(StickyKey key, LocalBinding sent) {
    }

    private final IMap<StickyKey, StickyBinding> map;
    private final PartitionService partitions;
    private final long ttlMillis;
    private final Answer answer;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ExecutorService thread;

    ClaimSender(HazelcastInstance hazelcast, IMap<StickyKey, StickyBinding> map, String name, long ttlMillis,
                Answer answer) {
        this.map = map;
        this.partitions = hazelcast.getPartitionService();
        this.ttlMillis = ttlMillis;
        this.answer = answer;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sticky-claims-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Queues a claim of {@code sent} for {@code key}; returns at once. */
    void claim(StickyKey key, LocalBinding sent) {
        queue.add(new Pending(key, sent));
        if (scheduled.compareAndSet(false, true)) {
            try {
                thread.execute(this::sendQueued);
            } catch (RejectedExecutionException closed) {
                scheduled.set(false);
                failAll(new HazelcastInstanceNotActiveException("sticky table closed"));
            }
        }
    }

    private void sendQueued() {
        scheduled.set(false); // first: a claim queued from now on schedules another round
        Map<Integer, List<Pending>> byPartition = new HashMap<>();
        for (Pending p; (p = queue.poll()) != null; ) {
            int partition;
            try {
                partition = partitions.getPartition(p.key).getPartitionId();
            } catch (RuntimeException e) {
                answer.answered(p.key, p.sent, null, e, "claim");
                continue;
            }
            List<Pending> group = byPartition.computeIfAbsent(partition, x -> new ArrayList<>());
            group.add(p);
            if (group.size() == MAX_BATCH) {
                send(byPartition.remove(partition));
            }
        }
        byPartition.values().forEach(this::send);
    }

    private void send(List<Pending> group) {
        if (group.size() == 1) {
            Pending p = group.get(0);
            Claim claim = new Claim(p.sent.binding, ttlMillis);
            try {
                map.submitToKey(p.key, claim).whenCompleteAsync(
                        (holding, failure) -> answer.answered(p.key, p.sent, holding, failure, claim), Runnable::run);
            } catch (RuntimeException e) {
                answer.answered(p.key, p.sent, null, e, claim);
            }
            return;
        }
        // A key queued twice (claimed again after its local expiry) goes in a batch of its own later.
        Map<StickyKey, Pending> byKey = new LinkedHashMap<>(group.size() * 2);
        List<Pending> again = new ArrayList<>(0);
        for (Pending p : group) {
            if (byKey.putIfAbsent(p.key, p) != null) {
                again.add(p);
            }
        }
        ClaimBatch batch = batch(byKey);
        try {
            map.submitToKeys(byKey.keySet(), batch).whenCompleteAsync((held, failure) -> {
                for (Pending p : byKey.values()) {
                    answer.answered(p.key, p.sent, failure == null ? held.get(p.key) : null, failure, batch);
                }
            }, Runnable::run);
        } catch (RuntimeException e) {
            byKey.values().forEach(p -> answer.answered(p.key, p.sent, null, e, batch));
        }
        if (!again.isEmpty()) {
            send(again);
        }
    }

    private ClaimBatch batch(Map<StickyKey, Pending> byKey) {
        StickyKey[] keys = new StickyKey[byKey.size()];
        short[] choice = new short[keys.length];
        Map<StickyBinding, Short> distinct = new LinkedHashMap<>();
        int i = 0;
        for (Pending p : byKey.values()) {
            keys[i] = p.key;
            Short index = distinct.get(p.sent.binding);
            if (index == null) {
                index = (short) distinct.size();
                distinct.put(p.sent.binding, index);
            }
            choice[i++] = index;
        }
        return new ClaimBatch(keys, distinct.keySet().toArray(new StickyBinding[0]), choice, ttlMillis);
    }

    private void failAll(Throwable failure) {
        for (Pending p; (p = queue.poll()) != null; ) {
            answer.answered(p.key, p.sent, null, failure, "claim");
        }
    }

    /** Claims still queued are not sent: the table is closing. */
    @Override
    public void close() {
        thread.shutdownNow();
        failAll(new HazelcastInstanceNotActiveException("sticky table closed"));
    }
}
