package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterHealth} on two real Hazelcast members in this JVM: the safe gauge, each member's lag
 * of the other's heartbeats, and the age of the last one growing once the other stops sending.
 */
class ClusterHealthTest {

    private final TestMembers members = new TestMembers();
    private final SimpleMeterRegistry registryA = new SimpleMeterRegistry();
    private final SimpleMeterRegistry registryB = new SimpleMeterRegistry();
    private ClusterHealth healthA;
    private ClusterHealth healthB;

    @AfterEach
    void stop() {
        if (healthA != null) {
            healthA.close();
        }
        if (healthB != null) {
            healthB.close();
        }
        members.close();
    }

    private static double gauge(SimpleMeterRegistry registry, String name, String peer) {
        Gauge g = registry.find(name).tag("peer", peer).gauge();
        return g == null ? Double.NaN : g.value();
    }

    @Test
    void twoMembersMeasureEachOthersLagAndAStalledPeerShows() {
        ClusterMember a = members.start();
        ClusterMember b = members.start();
        healthA = ClusterHealth.start(a, registryA);
        healthB = ClusterHealth.start(b, registryB);
        String addressA = "127.0.0.1:" + a.address().getPort();
        String addressB = "127.0.0.1:" + b.address().getPort();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(registryA.get("switchboard.cluster.safe").gauge().value()).isEqualTo(1.0);
            assertThat(registryB.get("switchboard.cluster.safe").gauge().value()).isEqualTo(1.0);
            // Several heartbeats each way, so that the lag is that of an idle cluster, not of the first write.
            assertThat(registryA.find("switchboard.cluster.heartbeat.lag").tag("peer", addressB).timer())
                    .isNotNull().extracting(Timer::count).asInstanceOf(
                            org.assertj.core.api.InstanceOfAssertFactories.LONG).isGreaterThanOrEqualTo(3);
            assertThat(registryB.find("switchboard.cluster.heartbeat.lag").tag("peer", addressA).timer())
                    .isNotNull().extracting(Timer::count).asInstanceOf(
                            org.assertj.core.api.InstanceOfAssertFactories.LONG).isGreaterThanOrEqualTo(3);
        });
        assertThat(healthA.peers()).containsExactly(addressB);
        // One JVM, one clock: the lag is the map's own, ≥ 0 and (idle, even on a loaded machine) under 2 s.
        assertThat(gauge(registryA, "switchboard.cluster.replication.lag", addressB)).isBetween(0.0, 2.0);
        assertThat(gauge(registryB, "switchboard.cluster.replication.lag", addressA)).isBetween(0.0, 2.0);
        assertThat(gauge(registryA, "switchboard.cluster.heartbeat.age", addressB)).isBetween(0.0, 3.0);
        assertThat(registryA.find("switchboard.cluster.replication.lag").tag("peer", addressA).gauge())
                .as("no meters for the member itself").isNull();

        // B stops sending but stays in the cluster (a stalled replication): A's age of B grows past
        // several heartbeat periods, while B, still hearing A, sees A's heartbeats fresh.
        healthB.close();
        healthB = null;
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(gauge(registryA, "switchboard.cluster.heartbeat.age", addressB)).isGreaterThan(5.0));
        assertThat(a.hazelcast().getCluster().getMembers()).hasSize(2);

        // B leaves: its meters go from A's registry.
        b.close();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(registryA.find("switchboard.cluster.heartbeat.age").tag("peer", addressB).gauge()).isNull();
            assertThat(registryA.find("switchboard.cluster.heartbeat.lag").tag("peer", addressB).timer()).isNull();
        });
        assertThat(healthA.peers()).isEmpty();
    }
}
