package io.switchboard.director.real;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.predictor.Predictor;
import io.switchboard.director.testing.ManualTicker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FarmsTest {

    private final ManualTicker ticker = new ManualTicker();

    private static Farms farms(FarmConfig... configs) {
        Map<String, FarmConfig> map = new LinkedHashMap<>();
        for (FarmConfig c : configs) {
            map.put(c.name(), c);
        }
        return new Farms(map);
    }

    private final Farms farms = farms(
            farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, "spare",
                    List.of(real("10.0.0.1", 1), real("10.0.0.2", 1), real("10.0.0.3", 1))),
            farm("spare", PredictorKind.LEASTCONNS, FAIL_AT_ONCE, real("10.0.1.1", 1), real("10.0.1.2", 1)));

    @Test
    void everyRealOfEveryFarmHasItsOwnSlot() {
        List<Integer> slots = new ArrayList<>();
        farms.all().forEach(f -> f.reals().forEach(r -> slots.add(r.slot())));

        assertThat(slots).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void realsAreFoundByFarmAndAddressPort() {
        RealServer r = farms.real("spare", id("10.0.1.2"));

        assertThat(r).isNotNull();
        assertThat(r.farm()).isEqualTo("spare");
        assertThat(r.address().getAddress()).isEqualTo(ip("10.0.1.2"));
        assertThat(r.address().getPort()).isEqualTo(2123);
        assertThat(farms.farm("spare").real(id("10.0.1.2"))).isSameAs(r);
        assertThat(farms.real("gw", id("10.0.1.2"))).isNull();
        assertThat(farms.farm("gw").predictorKind()).isEqualTo(PredictorKind.ROUNDROBIN);
        assertThat(farms.farm("gw").backup()).isSameAs(farms.farm("spare"));
    }

    @Test
    void tickAdvancesTheRetryTimersOfEveryFarm() {
        RealServer r1 = farms.real("gw", id("10.0.0.2"));
        RealServer r2 = farms.real("spare", id("10.0.1.1"));
        for (RealServer r : List.of(r1, r2)) {
            r.requestForwarded();
            r.requestUnanswered(ip("192.0.2.1"), ticker.nanos());
        }

        farms.tick(ticker.advance(FAIL_AT_ONCE.retry().minusSeconds(1)));
        assertThat(List.of(r1.state(), r2.state())).containsOnly(RealState.FAILED);

        farms.tick(ticker.advance(FAIL_AT_ONCE.retry()));
        assertThat(List.of(r1.state(), r2.state())).containsOnly(RealState.READY_TO_TEST);
    }

    @Test
    void aRecoveredRealRejoinsThePredictorOfItsFarm() {
        ServerFarm gw = farms.farm("gw");
        RealServer middle = gw.reals().get(1);
        middle.requestForwarded();
        middle.requestUnanswered(ip("192.0.2.1"), ticker.nanos());
        for (int i = 0; i < 6; i++) {
            assertThat(gw.pick(i)).isNotSameAs(middle);
        }

        gw.tick(ticker.advance(FAIL_AT_ONCE.retry().plusSeconds(1)));
        RealServer tested = null;
        for (int i = 0; i < 3 && tested != middle; i++) {
            tested = gw.pick(i);
        }
        assertThat(tested).isSameAs(middle);
        assertThat(middle.state()).isEqualTo(RealState.TESTING);
        middle.requestForwarded();
        middle.requestAnswered();

        List<RealServer> picks = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            picks.add(gw.pick(i));
        }
        assertThat(picks).containsExactlyInAnyOrderElementsOf(gw.reals());
    }

    @Test
    void theRouteMapPredictorBalancesUnroutedRequestsByWeightedRoundRobin() {
        // The prefixes are matched by the radius plug-in (radius.route-map); the farm takes the rest.
        assertThat(Predictor.create(PredictorKind.ROUTE_MAP))
                .isInstanceOf(io.switchboard.director.predictor.WeightedRoundRobin.class);
        assertThat(Predictor.create(PredictorKind.HASH)).isNotNull();
    }
}
