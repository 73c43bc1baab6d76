package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.map.IMap;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.sticky.StickyBinding;
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

    /**
     * Kubernetes discovery cannot run here (no Kubernetes API, no cluster DNS): what is checked is the
     * join configuration Hazelcast is started with.
     */
    @Test
    void kubernetesDiscoveryReplacesTheMemberList() {
        var api = new ClusterConfig(true, "k8s", java.util.List.of(), 5701, java.util.Optional.empty(),
                java.util.Optional.of(new ClusterConfig.KubernetesDiscovery("core", "switchboard", "", 0)));
        var join = ClusterMember.hazelcastConfig(api, null).getNetworkConfig().getJoin();
        assertThat(join.getTcpIpConfig().isEnabled()).isFalse();
        assertThat(join.getMulticastConfig().isEnabled()).isFalse();
        assertThat(join.getKubernetesConfig().isEnabled()).isTrue();
        assertThat(join.getKubernetesConfig().getProperties())
                .containsEntry("namespace", "core").containsEntry("service-name", "switchboard")
                .doesNotContainKey("service-dns");

        var dns = new ClusterConfig(true, "k8s", java.util.List.of(), 5701, java.util.Optional.empty(),
                java.util.Optional.of(new ClusterConfig.KubernetesDiscovery("", "", "sb.core.svc", 5702)));
        var dnsJoin = ClusterMember.hazelcastConfig(dns, null).getNetworkConfig().getJoin();
        assertThat(dnsJoin.getKubernetesConfig().getProperties())
                .containsEntry("service-dns", "sb.core.svc").containsEntry("service-port", "5702")
                .doesNotContainKey("namespace");

        var listed = new ClusterConfig(true, "k8s", java.util.List.of("10.0.0.2:5701"), 5701);
        var listedJoin = ClusterMember.hazelcastConfig(listed, null).getNetworkConfig().getJoin();
        assertThat(listedJoin.getTcpIpConfig().isEnabled()).isTrue();
        assertThat(listedJoin.getKubernetesConfig().isEnabled()).isFalse();
    }

    @Test
    void closeHandsPartitionsOverSoNothingIsLost() {
        ClusterMember a = members.start();
        ClusterMember b = members.start();
        HazelcastStickyTable onA = a.stickyTable("t", Duration.ofMinutes(10), 1_000);
        for (int i = 0; i < 100; i++) {
            onA.bindIfAbsent(HazelcastStickyTableTest.imsi(i), new StickyBinding("f", "r"), System.nanoTime());
        }
        IMap<Object, Long> onB = b.hazelcast().getMap(ClusterMember.STICKY_MAP_PREFIX + "t");
        await().atMost(Duration.ofSeconds(5)).until(() -> onB.size() == 100);

        onA.close();
        a.close();

        assertThat(a.hazelcast().getLifecycleService().isRunning()).isFalse();
        // Shutdown returned after the hand-over; B's member list catches up just after.
        assertThat(onB.size()).isEqualTo(100);
        await().atMost(Duration.ofSeconds(5)).until(() -> b.hazelcast().getCluster().getMembers().size() == 1);
    }
}
