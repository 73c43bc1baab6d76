package io.switchboard.director;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.farms;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RemovalPolicy;
import io.switchboard.director.metrics.RealMetrics;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.testing.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real a reload removed leaving its farm by its on-remove: drained (with or without a deadline) or reassigned. */
class RealRemovalsTest {

    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";
    private static final Duration IDLE = Duration.ofMinutes(5);

    private final ManualTicker ticker = new ManualTicker();
    private final InMemoryStickyTable table = new InMemoryStickyTable("gtp/imsi", IDLE, 1_000);
    private final Farms farms = farms(farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(A, 1), real(B, 1)));
    private final RealServer a = farms.real("gw", id(A));
    private final RealServer b = farms.real("gw", id(B));
    private final RealSelector selector = new RealSelector(farms, farms.farm("gw"), table);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RealRestarts restarts = new RealRestarts(List.of(), List.of(table), registry);
    private final RealDrains drains = new RealDrains(farms, List.of(table), restarts, registry);
    private final RealRemovals removals = new RealRemovals(farms, restarts, registry);
    private final List<StickyKey> onA = new ArrayList<>();

    @BeforeEach
    void bindHalfTheSubscribersToA() {
        RealMetrics.bind(registry, farms);
        for (int i = 0; i < 10; i++) {
            StickyKey key = imsi(i);
            if (selector.select(key, ticker.nanos()).real() == a) {
                onA.add(key);
            }
        }
        assertThat(onA).hasSize(5);
        // The reload's earlier phase: the farm without A.
        farms.reconfigure(Map.of("gw", farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(B, 1))));
    }

    private static StickyKey imsi(int i) {
        return StickyKey.parse(TestKinds.IMSI, "0010100000000" + (10 + i));
    }

    private double removed(String how) {
        return registry.get("switchboard.real.removals").tag("how", how).counter().count();
    }

    private boolean hasMeters(RealServer real) {
        return !registry.find("switchboard.real.requests").tag("real", real.id()).meters().isEmpty();
    }

    private void housekeep() {
        drains.check(ticker.nanos());
        removals.check();
    }

    @Test
    void drainKeepsTheBoundSubscribersUntilTheirBindingsGoThenTheRealLeaves() {
        removals.remove(a, RemovalPolicy.DEFAULT, false, ticker.nanos());

        assertThat(a.state()).isEqualTo(RealState.DRAINING);
        for (StickyKey key : onA) {
            assertThat(selector.select(key, ticker.nanos()).real()).isSameAs(a);
        }
        assertThat(selector.select(imsi(100), ticker.nanos()).real()).isSameAs(b);
        housekeep();
        assertThat(farms.real("gw", a.id())).as("5 bindings left").isSameAs(a);
        assertThat(removals.any()).isTrue();

        ticker.advance(IDLE.plusSeconds(1));
        housekeep();

        assertThat(farms.real("gw", a.id())).isNull();
        assertThat(removals.any()).isFalse();
        assertThat(removed("drained")).isEqualTo(1);
        assertThat(hasMeters(a)).as("its meters went with it").isFalse();
        assertThat(hasMeters(b)).isTrue();
    }

    @Test
    void aDrainDeadlineReassignsWhatIsLeftAndTheRealLeaves() {
        removals.remove(a, new RemovalPolicy(RemovalPolicy.Mode.DRAIN, Optional.of(Duration.ofSeconds(30))), false,
                ticker.nanos());
        housekeep();
        assertThat(farms.real("gw", a.id())).isSameAs(a);

        ticker.advance(Duration.ofSeconds(31));
        housekeep();

        assertThat(farms.real("gw", a.id())).isNull();
        assertThat(table.countBoundTo("gw", a.id(), ticker.nanos())).isZero();
        assertThat(removed("deadline")).isEqualTo(1);
        for (StickyKey key : onA) {
            assertThat(selector.select(key, ticker.nanos()).real()).as("bound anew").isSameAs(b);
        }
    }

    @Test
    void reassignMovesTheBindingsAtOnce() {
        removals.remove(a, new RemovalPolicy(RemovalPolicy.Mode.REASSIGN, Optional.empty()), false, ticker.nanos());

        assertThat(farms.real("gw", a.id())).isNull();
        assertThat(a.state()).as("nothing stays on it, flows included").isEqualTo(RealState.OUTOFSERVICE);
        assertThat(removed("reassigned")).isEqualTo(1);
        assertThat(removals.any()).isFalse();
        for (StickyKey key : onA) {
            assertThat(selector.select(key, ticker.nanos()).real()).isSameAs(b);
        }
    }

    @Test
    void aRealNamedAgainBeforeItsDrainEndedStays() {
        removals.remove(a, RemovalPolicy.DEFAULT, false, ticker.nanos());
        farms.reconfigure(Map.of("gw", farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(A, 1), real(B, 1))));

        housekeep();

        assertThat(removals.any()).isFalse();
        assertThat(farms.real("gw", a.id())).isSameAs(a);
        assertThat(a.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(removed("drained")).isZero();
    }
}
