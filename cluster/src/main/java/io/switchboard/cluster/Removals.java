package io.switchboard.cluster;

import io.switchboard.director.sticky.StickyKey;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The removals a catch-up of {@link HazelcastStickyTable}'s replica must not undo: keys this node
 * removed whose removal the owner has not applied yet (how many removals of each are on their way),
 * and, while a catch-up runs, every key removed meanwhile. The catch-up's snapshot of the map may
 * predate those removals, and a binding it brought back would be refreshed back into the cluster by
 * its next use.
 */
final class Removals {

    private final ConcurrentHashMap<StickyKey, Integer> onTheirWay = new ConcurrentHashMap<>();
    private volatile Set<StickyKey> duringCatchUp;

    /** Before a removal of this node leaves the replica: on its way to the owner. */
    void sent(StickyKey key) {
        onTheirWay.merge(key, 1, Integer::sum);
    }

    /** The owner answered a removal of this node (or it failed). */
    void answered(StickyKey key) {
        applied(key); // first: a catch-up that begins after the next line reads the removal from the map
        onTheirWay.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    }

    /** A removal applied in the cluster: a catch-up running now may hold an older snapshot of the key. */
    void applied(StickyKey key) {
        Set<StickyKey> during = duringCatchUp;
        if (during != null) {
            during.add(key);
        }
    }

    /** A catch-up begins: the keys removed from now on, until {@link #catchUpEnded}. */
    Set<StickyKey> catchUpStarts() {
        Set<StickyKey> during = ConcurrentHashMap.newKeySet();
        duringCatchUp = during;
        return during;
    }

    void catchUpEnded() {
        duringCatchUp = null;
    }

    /** Whether the catch-up that collects {@code during} must not bring {@code key} back. */
    boolean keepOut(StickyKey key, Set<StickyKey> during) {
        return during.contains(key) || onTheirWay.containsKey(key);
    }
}
