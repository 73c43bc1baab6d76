package io.switchboard.director;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.farms;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyStats;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.testing.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RealSelectorTest {

    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";
    private static final String S = "10.0.1.1";

    private static final StickyKey ALICE = StickyKey.parse(TestKinds.IMSI, "001010000000001");
    private static final StickyKey BOB = StickyKey.parse(TestKinds.IMSI, "001010000000002");

    private final ManualTicker ticker = new ManualTicker();
    private final InMemoryStickyTable table = new InMemoryStickyTable("gtp/imsi", Duration.ofMinutes(5), 1_000);

    /** Farm gw (round robin over A and B, one unanswered request fails a real) backed by farm spare (S). */
    private final Farms farms = farms(
            farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, "spare", List.of(real(A, 1), real(B, 1))),
            farm("spare", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(S, 1)));
    private final RealServer a = farms.real("gw", id(A));
    private final RealServer b = farms.real("gw", id(B));
    private final RealServer s = farms.real("spare", id(S));


    private RealSelector selector(StickyTable sticky) {
        return new RealSelector(farms, farms.farm("gw"), sticky);
    }

    private static void failNow(RealServer real) {
        real.requestForwarded();
        real.requestUnanswered(ip("192.0.2.1"), 0);
        assertThat(real.state()).isEqualTo(RealState.FAILED);
    }

    @Test
    void farmsAreBuiltWithBackupsAndDistinctSlots() {
        assertThat(farms.farm("gw").backup()).isSameAs(farms.farm("spare"));
        assertThat(farms.farm("spare").backup()).isNull();
        assertThat(List.of(a.slot(), b.slot(), s.slot())).doesNotHaveDuplicates();
        assertThat(farms.real("gw", id(S))).isNull();
        assertThat(farms.real("nowhere", id(A))).isNull();
    }

    @Test
    void aRefusedRealIsSkippedForAllItsConsecutiveTurns() {
        // IOS default weight 8: a real that refused a connection has eight turns in a row; the
        // reassigned connection (IOS reassign) still reaches the next real.
        Farms weighted = farms(farm("web", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real(A, 8), real(B, 8)));
        RealServer first = weighted.real("web", id(A));
        RealSelector selector = new RealSelector(weighted, weighted.farm("web"), null);

        Selection reassigned = selector.select(ALICE, ticker.nanos(), java.util.Set.of(first));

        assertThat(reassigned.real()).isSameAs(weighted.real("web", id(B)));
    }

    @Test
    void aNewKeyIsGivenThePredictorsChoiceAndBound() {
        RealSelector selector = selector(table);

        Selection first = selector.select(ALICE, ticker.nanos());

        assertThat(first).isEqualTo(new Selection(a, Selection.Reason.PREDICTOR));
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(new StickyBinding("gw", id(A)));
    }

    @Test
    void aStickyHitReturnsTheBoundReal() {
        RealSelector selector = selector(table);
        RealServer bound = selector.select(ALICE, ticker.nanos()).real();

        // Round robin alone would now give the other real.
        for (int i = 0; i < 3; i++) {
            assertThat(selector.select(ALICE, ticker.advance(Duration.ofSeconds(1))))
                    .isEqualTo(new Selection(bound, Selection.Reason.STICKY));
        }
        assertThat(selector.select(BOB, ticker.nanos()).real()).isNotSameAs(bound);
        assertThat(table.stats()).isEqualTo(new StickyStats(3, 2, 2, 0, 0));
    }

    @Test
    void aThrottledRealStillServesItsBoundKeys() {
        RealSelector selector = selector(table);
        selector.select(ALICE, ticker.nanos());
        a.setWeight(0);
        assertThat(a.state()).isEqualTo(RealState.DFP_THROTTLED);

        assertThat(selector.select(ALICE, ticker.nanos())).isEqualTo(new Selection(a, Selection.Reason.STICKY));
        assertThat(selector.select(BOB, ticker.nanos()).real()).isSameAs(b);
    }

    @Test
    void aKeyBoundToAFailedRealIsReassignedAndRebound() {
        RealSelector selector = selector(table);
        selector.select(ALICE, ticker.nanos());
        failNow(a);

        Selection again = selector.select(ALICE, ticker.nanos());

        assertThat(again).isEqualTo(new Selection(b, Selection.Reason.REASSIGNED));
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(new StickyBinding("gw", id(B)));
        assertThat(selector.select(ALICE, ticker.nanos())).isEqualTo(new Selection(b, Selection.Reason.STICKY));
    }

    @Test
    void aKeyBoundToAnOutOfServiceRealIsReassigned() {
        RealSelector selector = selector(table);
        selector.select(ALICE, ticker.nanos());
        a.takeOutOfService();

        assertThat(selector.select(ALICE, ticker.nanos())).isEqualTo(new Selection(b, Selection.Reason.REASSIGNED));
    }

    @Test
    void aKeyBoundToARealThatNoLongerExistsIsReassigned() {
        table.bindIfAbsent(ALICE, new StickyBinding("retired", "10.9.9.9:2123"), ticker.nanos());

        Selection selection = selector(table).select(ALICE, ticker.nanos());

        assertThat(selection.reason()).isEqualTo(Selection.Reason.REASSIGNED);
        assertThat(table.lookup(ALICE, ticker.nanos()))
                .isEqualTo(new StickyBinding("gw", selection.real().id()));
    }

    @Test
    void theBackupFarmTakesOverWhenNoPrimaryRealMayTakeWork() {
        RealSelector selector = selector(table);
        a.takeOutOfService();
        b.takeOutOfService();

        Selection selection = selector.select(ALICE, ticker.nanos());

        assertThat(selection).isEqualTo(new Selection(s, Selection.Reason.BACKUP));
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(new StickyBinding("spare", id(S)));
    }

    @Test
    void aKeyOfAFailedPrimaryRealMovesToTheBackupWhenNoOtherPrimaryRealIsLeft() {
        RealSelector selector = selector(table);
        selector.select(ALICE, ticker.nanos());
        b.takeOutOfService();
        failNow(a);

        Selection selection = selector.select(ALICE, ticker.nanos());

        assertThat(selection.real()).isSameAs(s);
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(new StickyBinding("spare", id(S)));
    }

    @Test
    void nothingIsChosenOrBoundWhenNoRealAnywhereMayTakeWork() {
        RealSelector selector = selector(table);
        a.takeOutOfService();
        failNow(b);
        s.setWeight(0);

        assertThat(selector.select(ALICE, ticker.nanos())).isNull();
        assertThat(table.size()).isZero();
    }

    @Test
    void withoutAStickyTableThePredictorChoosesEveryTime() {
        RealSelector selector = selector(null);

        List<Selection> selections = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            selections.add(selector.select(ALICE, ticker.nanos()));
        }

        assertThat(selections).containsExactly(
                new Selection(a, Selection.Reason.PREDICTOR),
                new Selection(b, Selection.Reason.PREDICTOR),
                new Selection(a, Selection.Reason.PREDICTOR),
                new Selection(b, Selection.Reason.PREDICTOR));
        assertThat(selector.sticky()).isNull();
    }

    @Test
    void withoutAStickyTableAHashFarmStillSendsAKeyToOneReal() {
        Farms hashed = farms(farm("gw", PredictorKind.HASH, FAIL_AT_ONCE, real(A, 8), real(B, 8), real(S, 8)));
        RealSelector selector = new RealSelector(hashed, hashed.farm("gw"), null);

        for (int k = 0; k < 50; k++) {
            StickyKey key = StickyKey.parse(TestKinds.IMSI, "00101000000" + (1000 + k));
            RealServer first = selector.select(key, ticker.nanos()).real();
            for (int i = 0; i < 5; i++) {
                assertThat(selector.select(key, ticker.nanos()).real()).as("key %s", key).isSameAs(first);
            }
        }
    }

    @Test
    void whenAnotherNodeBoundTheKeyFirstItsChoiceIsFollowed() {
        LaggingStickyTable lagging = new LaggingStickyTable(table);
        lagging.boundElsewhere(ALICE, new StickyBinding("gw", id(B)), ticker.nanos());

        // The predictor picks A, but the binding that holds is B's.
        Selection selection = selector(lagging).select(ALICE, ticker.nanos());

        assertThat(selection).isEqualTo(new Selection(b, Selection.Reason.STICKY));
    }

    @Test
    void aLostBindingRaceDoesNotStrandARealInTesting() {
        failNow(a);
        farms.tick(FAIL_AT_ONCE.retry().plusSeconds(1).toNanos());
        assertThat(a.state()).isEqualTo(RealState.READY_TO_TEST);
        LaggingStickyTable lagging = new LaggingStickyTable(table);
        lagging.boundElsewhere(ALICE, new StickyBinding("gw", id(B)), ticker.nanos());

        Selection selection = selector(lagging).select(ALICE, ticker.nanos());
        assertThat(selection.real()).isSameAs(b);

        // Nothing was forwarded to A, so A must still be offered its test request.
        assertThat(a.state()).isEqualTo(RealState.READY_TO_TEST);
        List<RealServer> picks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            picks.add(farms.farm("gw").pick(i));
        }
        assertThat(picks).contains(a);
    }

    @Test
    void aBackupCycleWithoutThePrimaryEnds() {
        Farms cyclic = farms(
                farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, "x", List.of(real(A, 1))),
                farm("x", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, "y", List.of(real(B, 1))),
                farm("y", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, "x", List.of(real(S, 1))));
        cyclic.all().forEach(f -> f.reals().forEach(RealServer::takeOutOfService));
        RealSelector selector = new RealSelector(cyclic, cyclic.farm("gw"), null);

        // A safety net only: the loop is a busy loop that never returns on its own.
        Selection selection = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> selector.select(ALICE, ticker.nanos()));

        assertThat(selection).isNull();
    }

    /**
     * A sticky table of a cluster whose replication has not yet shown this node a binding that
     * another node made: lookups miss it, but binding finds it (as the cluster table's atomic
     * put-if-absent would).
     */
    private static final class LaggingStickyTable implements StickyTable {

        private final StickyTable delegate;
        private final List<StickyKey> unseen = new ArrayList<>();

        LaggingStickyTable(StickyTable delegate) {
            this.delegate = delegate;
        }

        void boundElsewhere(StickyKey key, StickyBinding binding, long nowNanos) {
            delegate.bindIfAbsent(key, binding, nowNanos);
            unseen.add(key);
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public StickyBinding lookup(StickyKey key, long nowNanos) {
            return unseen.contains(key) ? null : delegate.lookup(key, nowNanos);
        }

        @Override
        public StickyBinding bindIfAbsent(StickyKey key, StickyBinding binding, long nowNanos) {
            return delegate.bindIfAbsent(key, binding, nowNanos);
        }

        @Override
        public StickyBinding rebind(StickyKey key, StickyBinding expected, StickyBinding replacement, long nowNanos) {
            return delegate.rebind(key, expected, replacement, nowNanos);
        }

        @Override
        public long countBoundTo(String farm, String real, long nowNanos) {
            return delegate.countBoundTo(farm, real, nowNanos);
        }

        @Override
        public void forEachLive(long nowNanos, LiveBinding action) {
            delegate.forEachLive(nowNanos, action);
        }

        @Override
        public boolean remove(StickyKey key) {
            return delegate.remove(key);
        }

        @Override
        public int removeBoundTo(String farm, String real) {
            return delegate.removeBoundTo(farm, real);
        }

        @Override
        public void expire(long nowNanos) {
            delegate.expire(nowNanos);
        }

        @Override
        public long size() {
            return delegate.size();
        }

        @Override
        public StickyStats stats() {
            return delegate.stats();
        }
    }
}
