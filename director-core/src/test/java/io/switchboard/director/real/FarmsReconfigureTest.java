package io.switchboard.director.real;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.farms;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.spi.RealKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Farms changed in place by a reload: reals and farms added and removed, settings changed, the state kept. */
class FarmsReconfigureTest {

    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";
    private static final String C = "10.0.0.3";

    private final Farms farms = farms(farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(A, 1), real(B, 1)));
    private final ServerFarm gw = farms.farm("gw");
    private final RealServer a = farms.real("gw", id(A));
    private final RealServer b = farms.real("gw", id(B));

    private static Map<String, FarmConfig> configs(FarmConfig... farms) {
        Map<String, FarmConfig> map = new LinkedHashMap<>();
        for (FarmConfig f : farms) {
            map.put(f.name(), f);
        }
        return map;
    }

    private List<String> picks(int n) {
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RealServer real = gw.pick(i);
            picked.add(real.id());
            real.requestForwarded();
            real.requestAnswered();
        }
        return picked;
    }

    @Test
    void anAddedRealGetsANewSlotAndItsTurnsInTheFilesOrderWhileTheOthersKeepTheirState() {
        b.setWeight(3);
        a.requestForwarded();
        long before = farms.version();
        List<RealServer> joined = new ArrayList<>();
        farms.membership(new Farms.Membership() {
            @Override
            public void joined(RealServer real) {
                joined.add(real);
            }
        });

        List<RealServer> added = farms.reconfigure(configs(farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE,
                real(C, 1), real(A, 1), real(B, 1))));

        RealServer c = farms.real("gw", id(C));
        assertThat(added).containsExactly(c);
        assertThat(joined).containsExactly(c);
        assertThat(farms.version()).isGreaterThan(before);
        assertThat(c.slot()).isEqualTo(2);
        assertThat(farms.farm("gw")).as("the same farm, changed in place").isSameAs(gw);
        assertThat(farms.real("gw", id(A))).isSameAs(a);
        assertThat(a.connections()).isEqualTo(1);
        assertThat(b.weight()).as("a dynamic weight stays").isEqualTo(3);
        assertThat(gw.reals()).containsExactly(c, a, b);
        a.requestAnswered();
        assertThat(picks(5)).containsExactlyInAnyOrder(id(C), id(A), id(B), id(B), id(B));
    }

    @Test
    void thePredictorAndTheFailureDetectionChangeInPlace() {
        farms.reconfigure(configs(farm("gw", PredictorKind.LEASTCONNS, new FailureDetection(3, 1, Duration.ofSeconds(5)),
                real(A, 1), real(B, 1))));

        assertThat(gw.predictorKind()).isEqualTo(PredictorKind.LEASTCONNS);
        a.requestForwarded();
        assertThat(gw.pick(0)).as("least connections: B has none").isSameAs(b);
        assertThat(a.retryNanos()).isEqualTo(Duration.ofSeconds(5).toNanos());
        a.requestUnanswered("client-1", 0);
        a.requestUnanswered("client-1", 0);
        assertThat(a.state()).as("three unanswered now fail it, not one").isEqualTo(RealState.OPERATIONAL);
        a.requestUnanswered("client-1", 0);
        assertThat(a.state()).isEqualTo(RealState.FAILED);
    }

    @Test
    void aRemovedRealTakesNoNewWorkAndLeavesItsFarmWhenTold() {
        farms.reconfigure(configs(farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(A, 1))));
        assertThat(farms.real("gw", id(B))).as("removals come last: still there").isSameAs(b);

        assertThat(farms.leaving(b)).isTrue();
        b.applyDrain(RealDrain.starting(0, null));
        assertThat(gw.isLeaving(b)).isTrue();
        assertThat(gw.reals()).containsExactly(a, b);
        assertThat(picks(4)).containsOnly(id(A));
        long before = farms.version();

        assertThat(farms.leave(b, false)).isTrue();
        assertThat(farms.real("gw", id(B))).isNull();
        assertThat(gw.reals()).containsExactly(a);
        assertThat(farms.version()).isGreaterThan(before);
        assertThat(farms.leave(b, false)).as("once").isFalse();
    }

    @Test
    void aRealNamedAgainWhileItDrainsToLeaveStaysAndIsInServiceAgain() {
        farms.leaving(b);
        b.applyDrain(RealDrain.starting(0, null));

        farms.reconfigure(configs(farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(A, 1), real(B, 1))));

        assertThat(farms.leave(b, false)).isFalse();
        assertThat(farms.real("gw", id(B))).isSameAs(b);
        assertThat(b.state()).isEqualTo(RealState.OPERATIONAL);
    }

    @Test
    void farmsAreAddedWithTheirBackupsAndARemovedFarmGoesWithItsLastReal() {
        farms.reconfigure(configs(
                new FarmConfig("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, List.of(real(A, 1), real(B, 1)),
                        Optional.of("spare")),
                farm("spare", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(C, 1))));
        ServerFarm spare = farms.farm("spare");
        RealServer c = spare.real(id(C));

        assertThat(gw.backup()).isSameAs(spare);
        assertThat(c.slot()).isEqualTo(2);

        farms.reconfigure(configs(farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(A, 1), real(B, 1))));
        assertThat(gw.backup()).isNull();
        farms.leaving(c);
        farms.leave(c, true);
        assertThat(farms.farm("spare")).isNull();
        assertThat(farms.all()).containsExactly(gw);
    }

    @Test
    void aRealsPlugInValuesChangeInPlace() {
        RealKey<String> secret = RealKey.string("secret", "the real's shared secret");
        RealConfig withSecret = real(A, 1).with(secret, "s3cret");
        farms.reconfigure(configs(farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, withSecret, real(B, 1))));

        assertThat(farms.real("gw", id(A))).isSameAs(a);
        assertThat(a.value(secret)).contains("s3cret");
        assertThat(a.slot()).isZero();
    }
}
