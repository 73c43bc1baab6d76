package io.switchboard.director;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.farms;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealDrain;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.testing.ManualTicker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A drained real in its farm: new keys go elsewhere, bound keys stay, and the drain ends, counted. */
class RealDrainsTest {

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
    private final RealDrains drains = new RealDrains(farms, List.of(table),
            new RealRestarts(List.of(), List.of(table), registry), registry);

    /** Keys bound to A before the drain. */
    private final List<StickyKey> onA = new java.util.ArrayList<>();

    @BeforeEach
    void bindHalfTheSubscribersToA() {
        for (int i = 0; i < 10; i++) {
            StickyKey key = imsi(i);
            if (selector.select(key, ticker.nanos()).real() == a) {
                onA.add(key);
            }
        }
        assertThat(onA).hasSize(5);
    }

    private static StickyKey imsi(int i) {
        return StickyKey.parse(TestKinds.IMSI, "0010100000000" + (10 + i));
    }

    private double drainsEnded(String result) {
        return registry.get("switchboard.real.drains").tag("result", result).counter().count();
    }

    private double released(String what) {
        return registry.get("switchboard.real.drain.released").tag("what", what).counter().count();
    }

    @Test
    void newSubscribersGoElsewhereWhileBoundOnesStay() {
        a.drain(RealDrain.starting(ticker.nanos(), null));

        for (int i = 100; i < 110; i++) {
            assertThat(selector.select(imsi(i), ticker.nanos()).real()).isEqualTo(b);
        }
        for (StickyKey key : onA) {
            assertThat(selector.select(key, ticker.nanos()).real()).isEqualTo(a);
        }
    }

    @Test
    void countsWhatIsLeftAndCompletesWhenTheBindingsExpireAndTheConnectionsClose() {
        RealDrain drain = RealDrain.starting(ticker.nanos(), null);
        a.drain(drain);
        a.sessionOpened();

        assertThat(drains.due(ticker.nanos())).isTrue();
        drains.check(ticker.nanos());
        assertThat(drain.bindingsLeft()).isEqualTo(5);
        assertThat(drain.connectionsLeft()).isEqualTo(1);
        assertThat(drain.done()).isFalse();

        ticker.advance(IDLE.plusSeconds(1));
        drains.check(ticker.nanos());
        assertThat(drain.bindingsLeft()).isZero();
        assertThat(drain.done()).as("a session is still open").isFalse();

        a.sessionClosed();
        drains.check(ticker.nanos());
        assertThat(drain.result()).isEqualTo(RealDrain.Result.COMPLETED);
        assertThat(drainsEnded("completed")).isEqualTo(1);
        assertThat(drainsEnded("deadline")).isZero();
        assertThat(drains.due(ticker.advance(Duration.ofSeconds(1)))).as("nothing more to follow").isFalse();

        drains.check(ticker.nanos());
        assertThat(drainsEnded("completed")).as("counted once").isEqualTo(1);
        assertThat(a.servesBoundClients()).isTrue();
        assertThat(a.tryTakeNewWork()).as("still draining until inservice").isFalse();
    }

    @Test
    void completesWhenTheBindingsAreRemoved() {
        RealDrain drain = RealDrain.starting(ticker.nanos(), null);
        a.drain(drain);

        onA.forEach(table::remove);
        drains.check(ticker.nanos());

        assertThat(drain.result()).isEqualTo(RealDrain.Result.COMPLETED);
        assertThat(drain.bindingsLeft()).isZero();
    }

    @Test
    void theDeadlineRemovesTheBindingsLeftSoThatTheyRebindElsewhere() {
        RealDrain drain = RealDrain.starting(ticker.nanos(), Duration.ofMinutes(1));
        a.drain(drain);

        ticker.advance(Duration.ofSeconds(59));
        drains.check(ticker.nanos());
        assertThat(drain.done()).isFalse();
        assertThat(released("bindings")).isZero();

        ticker.advance(Duration.ofSeconds(1));
        drains.check(ticker.nanos());

        assertThat(drain.result()).isEqualTo(RealDrain.Result.DEADLINE);
        assertThat(drain.bindingsLeft()).isZero();
        assertThat(released("bindings")).isEqualTo(5);
        assertThat(drainsEnded("deadline")).isEqualTo(1);
        assertThat(drainsEnded("completed")).isZero();
        assertThat(a.servesBoundClients()).as("what still names it on its own (a flow) goes elsewhere").isFalse();
        for (StickyKey key : onA) {
            assertThat(selector.select(key, ticker.nanos()).real()).isEqualTo(b);
        }
    }

    @Test
    void aDrainEndedByInServiceIsNotFollowedAnyMore() {
        a.drain(RealDrain.starting(ticker.nanos(), Duration.ofMinutes(1)));
        a.putInService();

        ticker.advance(Duration.ofMinutes(2));
        assertThat(drains.due(ticker.nanos())).isFalse();
        drains.check(ticker.nanos());

        assertThat(released("bindings")).isZero();
        assertThat(table.countBoundTo("gw", id(A), ticker.nanos())).isEqualTo(5);
    }
}
