package io.switchboard.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The removals a catch-up of {@link HazelcastStickyTable}'s replica must not undo: keys this node
 * removed whose removal the owner has not applied yet (how many removals of each are on their way),
 * and, while a catch-up runs, every key removed meanwhile. The catch-up's snapshot of the map may
 * predate those removals, and a binding it brought back would be refreshed back into the cluster by
 * its next use. Keys are in the map's form ({@link Replica#mapKey}).
 */
final class Removals {

    private final ConcurrentHashMap<Object, Integer> onTheirWay = new ConcurrentHashMap<>();
    private volatile Set<Object> duringCatchUp;
    /** What waits for a key's removals to be answered ({@link #afterRemovals}); changed under onTheirWay's key lock. */
    private final ConcurrentHashMap<Object, List<Runnable>> deferred = new ConcurrentHashMap<>();

    /** Before a removal of this node leaves the replica: on its way to the owner. */
    void sent(Object key) {
        onTheirWay.merge(key, 1, Integer::sum);
    }

    /** The owner answered a removal of this node (or it failed). */
    void answered(Object key) {
        applied(key); // first: a catch-up that begins after the next line reads the removal from the map
        List<Runnable> due = new ArrayList<>(0);
        onTheirWay.computeIfPresent(key, (k, n) -> {
            if (n > 1) {
                return n - 1;
            }
            List<Runnable> waiting = deferred.remove(k); // under the key's lock, as afterRemovals adds
            if (waiting != null) {
                due.addAll(waiting);
            }
            return null;
        });
        due.forEach(Runnable::run);
    }

    /**
     * Runs {@code send} (a claim, rebind or refresh of {@code key}) once no removal of the key by this
     * node is on its way any more: at once when none is. A removal (a drain's deadline, a restart's
     * purge) and a claim of the same key that the next request makes right after are sent by
     * different threads, and the owner may receive the claim first: it would find the old binding
     * live, answer with it, and the removal would then end the binding the replica had just taken
     * back — the subscriber placed twice. Sent after the removal, the claim binds.
     */
    void afterRemovals(Object key, Runnable send) {
        boolean[] deferredNow = {false};
        onTheirWay.computeIfPresent(key, (k, n) -> {
            deferred.computeIfAbsent(k, x -> new ArrayList<>(1)).add(send);
            deferredNow[0] = true;
            return n;
        });
        if (!deferredNow[0]) {
            send.run();
        }
    }

    /** A removal applied in the cluster: a catch-up running now may hold an older snapshot of the key. */
    void applied(Object key) {
        Set<Object> during = duringCatchUp;
        if (during != null) {
            during.add(key);
        }
    }

    /** A catch-up begins: the keys removed from now on, until {@link #catchUpEnded}. */
    Set<Object> catchUpStarts() {
        Set<Object> during = ConcurrentHashMap.newKeySet();
        duringCatchUp = during;
        return during;
    }

    void catchUpEnded() {
        duringCatchUp = null;
    }

    /** Whether the catch-up that collects {@code during} must not bring {@code key} back. */
    boolean keepOut(Object key, Set<Object> during) {
        return during.contains(key) || onTheirWay.containsKey(key);
    }
}
