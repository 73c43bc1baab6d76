package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.ClusterConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClusterMemberTest {

    private final TestMembers members = new TestMembers();

    @AfterEach
    void stop() {
        members.close();
    }

    @Test
    void membersJoinByTheListAndBindLoopbackOnly() {
        ClusterMember a = members.start();
        ClusterMember b = members.start();

        assertThat(a.hazelcast().getCluster().getMembers()).hasSize(2);
        assertThat(b.hazelcast().getConfig().getClusterName()).isEqualTo(members.clusterName());
        assertThat(a.address().getAddress().isLoopbackAddress()).isTrue();
        assertThat(b.address().getPort()).isNotZero().isNotEqualTo(a.address().getPort());
    }

    @Test
    void singleNodeDefaultNeedsNoConfigurationAndStaysOnLoopback() {
        try (ClusterMember single = ClusterMember.start(new ClusterConfig(false, "single-" + System.nanoTime(),
                java.util.List.of(), 0))) {
            assertThat(single.address().getAddress().isLoopbackAddress()).isTrue();
            assertThat(single.hazelcast().getCluster().getMembers()).hasSize(1);
            assertThat(single.hazelcast().getConfig().getNetworkConfig().getJoin().getMulticastConfig().isEnabled())
                    .isFalse();
        }
    }
}
