package io.switchboard.director.gtp;

import com.hazelcast.config.Config;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.director.config.ClusterConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Hazelcast members for one test, in one JVM on 127.0.0.1 (where Hazelcast finds an interface) with
 * ephemeral ports, in a cluster of their own name so that concurrent builds never meet. Closing
 * terminates those still running.
 */
final class TestCluster implements AutoCloseable {

    private final String name = "gtp-test-" + UUID.randomUUID();
    private final List<ClusterMember> members = new ArrayList<>();

    /** A member joining the first one still running (or founding the cluster). */
    ClusterMember member() {
        List<String> seeds = members.stream().filter(m -> m.hazelcast().getLifecycleService().isRunning()).limit(1)
                .map(m -> m.address().getHostString() + ":" + m.address().getPort()).toList();
        Config config = ClusterMember.hazelcastConfig(new ClusterConfig(true, name, seeds, 0), "127.0.0.1");
        // Test-only speed-ups: join without the initial wait, notice a lost member within seconds.
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.partition.count", "31");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        ClusterMember member = ClusterMember.start(config);
        members.add(member);
        return member;
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
