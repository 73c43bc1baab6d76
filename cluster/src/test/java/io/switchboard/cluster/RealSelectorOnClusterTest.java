package io.switchboard.cluster;

import static io.switchboard.cluster.HazelcastStickyTableTest.imsi;
import static io.switchboard.cluster.HazelcastStickyTableTest.now;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.real.Farms;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's own selection (sticky lookup, predictor, bind, rebind) on two director nodes that
 * share their sticky table: a subscriber placed by one node's round robin is sent to the same
 * real by the other, and a reassignment made by one node is followed by the other.
 */
class RealSelectorOnClusterTest {

    private final TestMembers members = new TestMembers();

    @AfterEach
    void stop() {
        members.close();
    }

    /** One director node: its own farms (the same configuration everywhere) and selector. */
    private record Node(Farms farms, HazelcastStickyTable table, RealSelector selector) {

        static Node start(ClusterMember member) throws Exception {
            List<RealConfig> reals = List.of(real("10.0.0.1"), real("10.0.0.2"), real("10.0.0.3"));
            Farms farms = new Farms(Map.of("ggsn", new FarmConfig("ggsn", PredictorKind.ROUNDROBIN,
                    FailureDetection.DEFAULT, reals, Optional.empty())));
            HazelcastStickyTable table = member.stickyTable("gtp/imsi", Duration.ofMinutes(10), 1_000_000);
            return new Node(farms, table, new RealSelector(farms, farms.farm("ggsn"), table));
        }

        private static RealConfig real(String address) throws Exception {
            return new RealConfig(InetAddress.getByName(address), 2123, RealConfig.DEFAULT_WEIGHT, OptionalInt.empty(),
                    true);
        }

        Selection select(int subscriber) {
            return selector.select(imsi(subscriber), now());
        }
    }

    @Test
    void subscriberPlacedByOneNodeIsServedByTheSameRealOnTheOther() throws Exception {
        Node a = Node.start(members.start());
        Node b = Node.start(members.start());
        // Round robin on B starts elsewhere than on A: without the shared table they would disagree.
        b.select(1_000);

        for (int s = 0; s < 30; s++) {
            int subscriber = s;
            Selection onA = a.select(subscriber);
            assertThat(onA.reason()).isEqualTo(Selection.Reason.PREDICTOR);
            await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(5))
                    .until(() -> b.table().lookup(imsi(subscriber), now()) != null);
            Selection onB = b.select(subscriber);
            assertThat(onB.reason()).isEqualTo(Selection.Reason.STICKY);
            assertThat(onB.real().id()).isEqualTo(onA.real().id());
        }
    }

    @Test
    void reassignmentByOneNodeIsFollowedByTheOther() throws Exception {
        Node a = Node.start(members.start());
        Node b = Node.start(members.start());
        String first = a.select(7).real().id();
        await().atMost(Duration.ofSeconds(5)).until(() -> b.table().lookup(imsi(7), now()) != null);

        // The real leaves service on every node (shared real state will do this for them).
        a.farms().real("ggsn", first).takeOutOfService();
        b.farms().real("ggsn", first).takeOutOfService();
        Selection moved = b.select(7);
        assertThat(moved.reason()).isEqualTo(Selection.Reason.REASSIGNED);
        assertThat(moved.real().id()).isNotEqualTo(first);

        await().atMost(Duration.ofSeconds(5))
                .until(() -> moved.real().id().equals(a.table().lookup(imsi(7), now()).real()));
        Selection onA = a.select(7);
        assertThat(onA.reason()).isEqualTo(Selection.Reason.STICKY);
        assertThat(onA.real().id()).isEqualTo(moved.real().id());
    }
}
