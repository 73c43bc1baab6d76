package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.config.Config;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Exposure;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rogue member: two listed members on 127.0.0.1 and 127.0.0.2, then a third process with the right
 * cluster name from 127.0.0.3, which is not listed. Hazelcast admits it (it has no member
 * authentication); the watch reports it at once, and with {@code unlisted-member: leave} the node leaves.
 */
class UnlistedMembersTest {

    private final String name = "test-" + UUID.randomUUID();
    private final List<ClusterMember> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(m -> {
            if (m.hazelcast().getLifecycleService().isRunning()) {
                m.hazelcast().getLifecycleService().terminate();
            }
        });
    }

    private ClusterMember start(String bind, List<String> seeds) {
        Config config = ClusterMember.hazelcastConfig(new ClusterConfig(true, name, seeds, 0), bind);
        TestMembers.tune(config);
        // Only 127.0.0.1 is an interface's address (lo holds 127.0.0.0/8 as a route): Hazelcast's
        // interface matching would not find 127.0.0.2; its own property names the address outright.
        config.getNetworkConfig().getInterfaces().setEnabled(false);
        config.setProperty("hazelcast.local.localAddress", bind);
        ClusterMember member = ClusterMember.start(config);
        started.add(member);
        return member;
    }

    /** The configuration the watch holds members to: both listed addresses, any port (the tests' ports are ephemeral). */
    private ClusterConfig listed(ClusterConfig.UnlistedMember policy) throws Exception {
        return new ClusterConfig(true, name, List.of("127.0.0.1", "127.0.0.2"), 0,
                Optional.of(InetAddress.getByName("127.0.0.1")), Optional.empty(), Exposure.PRIVATE, policy);
    }

    @Test
    void aMemberFromAnUnlistedAddressIsReportedAtOnce() throws Exception {
        ClusterMember a = start("127.0.0.1", List.of());
        String seed = "127.0.0.1:" + a.address().getPort();
        ClusterMember b = start("127.0.0.2", List.of(seed));
        UnlistedMembers watch = UnlistedMembers.watch(a, listed(ClusterConfig.UnlistedMember.REPORT), () -> { });
        assertThat(watch.count()).as("listed members only").isZero();

        ClusterMember rogue = start("127.0.0.3", List.of(seed));

        assertThat(rogue.hazelcast().getCluster().getMembers()).as("Hazelcast admits it").hasSize(3);
        await().atMost(Duration.ofSeconds(5)).until(() -> watch.count() == 1);
        assertThat(watch.present()).containsExactly(rogue.address());
        assertThat(a.hazelcast().getLifecycleService().isRunning()).as("report only: stays").isTrue();

        rogue.hazelcast().getLifecycleService().terminate();
        await().atMost(Duration.ofSeconds(10)).until(() -> watch.present().isEmpty());
        assertThat(watch.count()).isEqualTo(1);
        // Each member hears of the departure on its own: b may learn it after a did.
        await().atMost(Duration.ofSeconds(10)).until(() -> b.hazelcast().getCluster().getMembers().size() == 2);
    }

    @Test
    void aRogueAlreadyInTheClusterIsReportedWhenTheWatchStarts() throws Exception {
        ClusterMember a = start("127.0.0.1", List.of());
        ClusterMember rogue = start("127.0.0.3", List.of("127.0.0.1:" + a.address().getPort()));

        UnlistedMembers watch = UnlistedMembers.watch(a, listed(ClusterConfig.UnlistedMember.REPORT), () -> { });

        assertThat(watch.count()).isEqualTo(1);
        assertThat(watch.present()).containsExactly(new InetSocketAddress(rogue.address().getAddress(),
                rogue.address().getPort()));
    }

    @Test
    void withLeaveTheNodeLeavesAClusterThatAdmittedOne() throws Exception {
        ClusterMember a = start("127.0.0.1", List.of());
        String seed = "127.0.0.1:" + a.address().getPort();
        AtomicBoolean left = new AtomicBoolean();
        UnlistedMembers.watch(a, listed(ClusterConfig.UnlistedMember.LEAVE), () -> left.set(true));

        ClusterMember rogue = start("127.0.0.3", List.of(seed));

        await().atMost(Duration.ofSeconds(10)).untilTrue(left);
        assertThat(a.hazelcast().getLifecycleService().isRunning()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> rogue.hazelcast().getCluster().getMembers().size() == 1);
    }
}
