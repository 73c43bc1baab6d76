package io.switchboard.cluster;

import com.hazelcast.config.Config;
import io.switchboard.director.config.ClusterConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Hazelcast members for one test, on 127.0.0.1 with ephemeral ports, in a cluster of their own
 * (a random name, so that concurrently running builds never meet). Closing terminates them all.
 * Shared with the plug-in modules' cluster tests (this module's test-jar).
 */
public final class TestMembers implements AutoCloseable {

    /** Test-only speed-ups: join without the initial wait, sweep expired entries every second. */
    public static void tune(Config config) {
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.internal.map.expiration.task.period.seconds", "1");
        config.setProperty("hazelcast.partition.count", "31");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        // The benchmark's raw baseline (RawHazelcast).
        config.getSerializationConfig().getCompactSerializationConfig().addSerializer(new TtlClaim.Serializer());
    }

    private final String clusterName = "test-" + UUID.randomUUID();
    private final List<ClusterMember> members = new ArrayList<>();

    /** Starts a member that joins the first one started (or founds the cluster). */
    public ClusterMember start() {
        List<String> seeds = members.stream()
                .filter(m -> m.hazelcast().getLifecycleService().isRunning())
                .limit(1)
                .map(m -> "127.0.0.1:" + m.address().getPort())
                .toList();
        Config config = ClusterMember.hazelcastConfig(new ClusterConfig(true, clusterName, seeds, 0), "127.0.0.1");
        tune(config);
        ClusterMember member = ClusterMember.start(config);
        members.add(member);
        return member;
    }

    public String clusterName() {
        return clusterName;
    }

    @Override
    public void close() {
        for (ClusterMember m : members) {
            if (m.hazelcast().getLifecycleService().isRunning()) {
                m.hazelcast().getLifecycleService().terminate();
            }
        }
    }
}
