package io.switchboard.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.switchboard.director.NodeSlot;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each member a {@link NodeSlot}: the lowest index of {@link #CAPACITY} that no live member
 * holds, claimed in a map of index → member UUID by an atomic put-if-absent (or, for the index of a
 * member that has left, an atomic replace of that member's UUID), so two members joining at once
 * never take the same index. The member keeps it until it leaves; a later member reuses it.
 */
final class NodeSlots {

    private static final Logger LOG = LoggerFactory.getLogger(NodeSlots.class);
    static final String MAP = "node-slots";
    /** The most members one cluster can hold: 6 bits of every identifier a plug-in makes unique. */
    static final int CAPACITY = 64;

    private NodeSlots() {
    }

    /** Claims this member's slot; blocks for a few round trips (startup only). */
    static NodeSlot claim(HazelcastInstance hazelcast) {
        IMap<Integer, String> slots = hazelcast.getMap(MAP);
        String self = hazelcast.getCluster().getLocalMember().getUuid().toString();
        // A few rounds: a member that left between reading the list and replacing its entry just retries.
        for (int round = 0; round < 3; round++) {
            Set<String> live = hazelcast.getCluster().getMembers().stream()
                    .map(m -> m.getUuid().toString()).collect(Collectors.toSet());
            for (int index = 0; index < CAPACITY; index++) {
                String holder = slots.get(index);
                if (self.equals(holder)
                        || holder == null && slots.putIfAbsent(index, self) == null
                        || holder != null && !live.contains(holder) && slots.replace(index, holder, self)) {
                    LOG.info("cluster slot {} of {}", index, CAPACITY);
                    return new NodeSlot(index, CAPACITY);
                }
            }
        }
        throw new IllegalStateException("no free cluster slot: at most " + CAPACITY + " members");
    }

    /** Whether this member still holds {@code slot} (false after a split brain gave it to another). */
    static boolean holds(HazelcastInstance hazelcast, NodeSlot slot) {
        Member local = hazelcast.getCluster().getLocalMember();
        IMap<Integer, String> slots = hazelcast.getMap(MAP);
        return local.getUuid().toString().equals(slots.get(slot.index()));
    }
}
