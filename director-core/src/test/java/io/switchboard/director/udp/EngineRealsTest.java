package io.switchboard.director.udp;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.Selection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.RealStateListener;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The engine's side of what plug-ins do to reals: weights, sessions as connections, selection in another farm. */
class EngineRealsTest {

    private static final StickyKey ALICE = StickyKey.parse(TestKinds.IMSI, "001010000000001");

    private final Farms farms = farms(
            farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real("10.0.0.1", 1)),
            farm("ims", PredictorKind.LEASTCONNS, FAIL_AT_ONCE, real("10.0.2.1", 1), real("10.0.2.2", 1)));
    private final InMemoryStickyTable sticky = new InMemoryStickyTable("gtp/imsi", Duration.ofMinutes(5), 100);
    private final EngineReals reals = EngineReals.of(farms, sticky);

    private static Farms farms(FarmConfig... configs) {
        Map<String, FarmConfig> map = new LinkedHashMap<>();
        for (FarmConfig c : configs) {
            map.put(c.name(), c);
        }
        return new Farms(map);
    }

    @Test
    void aWeightIsSetAndReportedOnlyWhenItChanges() {
        RealServer gw = farms.real("gw", id("10.0.0.1"));
        List<Integer> reported = new ArrayList<>();
        gw.stateListener(new RealStateListener() {
            @Override
            public void weightChanged(RealServer real, int weight) {
                reported.add(weight);
            }
        });
        reals.weigh(gw, 5);
        reals.weigh(gw, 5);
        reals.weigh(gw, 0);
        assertThat(gw.weight()).isZero();
        assertThat(reported).containsExactly(5, 0);
    }

    @Test
    void sessionsCountAsConnectionsOfTheirReal() {
        RealServer gw = farms.real("gw", id("10.0.0.1"));
        reals.sessionOpened(gw);
        reals.sessionOpened(gw);
        reals.sessionClosed(gw);
        assertThat(gw.connections()).isEqualTo(1);
    }

    @Test
    void aSelectionInAnotherFarmBindsTheKeyThereInTheVirtualServersTable() {
        Selection first = reals.select("ims", ALICE, 0);
        assertThat(first.real().farm()).isEqualTo("ims");
        assertThat(first.reason()).isEqualTo(Selection.Reason.PREDICTOR);
        assertThat(sticky.lookup(ALICE, 0)).isEqualTo(first.real().binding());
        Selection again = reals.select("ims", ALICE, 1);
        assertThat(again.real()).isSameAs(first.real());
        assertThat(again.reason()).isEqualTo(Selection.Reason.STICKY);
        assertThat(first.real().state()).isEqualTo(RealState.OPERATIONAL);
    }

    @Test
    void aFarmNoneHasIsRefused() {
        assertThatThrownBy(() -> reals.select("nowhere", ALICE, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nowhere");
    }
}
