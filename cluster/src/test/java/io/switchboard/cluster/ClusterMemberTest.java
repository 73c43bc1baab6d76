package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.map.IMap;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.time.Duration;
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

    @Test
    void closeHandsPartitionsOverSoNothingIsLost() {
        ClusterMember a = members.start();
        ClusterMember b = members.start();
        HazelcastStickyTable onA = a.stickyTable("t", Duration.ofMinutes(10), 1_000);
        for (int i = 0; i < 100; i++) {
            onA.bindIfAbsent(HazelcastStickyTableTest.imsi(i), new StickyBinding("f", "r"), System.nanoTime());
        }
        IMap<StickyKey, StickyBinding> onB = b.hazelcast().getMap(ClusterMember.STICKY_MAP_PREFIX + "t");
        await().atMost(Duration.ofSeconds(5)).until(() -> onB.size() == 100);

        onA.close();
        a.close();

        assertThat(a.hazelcast().getLifecycleService().isRunning()).isFalse();
        // Shutdown returned after the hand-over; B's member list catches up just after.
        assertThat(onB.size()).isEqualTo(100);
        await().atMost(Duration.ofSeconds(5)).until(() -> b.hazelcast().getCluster().getMembers().size() == 1);
    }
}
