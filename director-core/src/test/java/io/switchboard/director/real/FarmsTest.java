package io.switchboard.director.real;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.farms;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.Subnet;
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
        // The farm's route map is matched by the radius plug-in; the predictor takes the rest.
        assertThat(Predictor.create(PredictorKind.ROUTE_MAP))
                .isInstanceOf(io.switchboard.director.predictor.WeightedRoundRobin.class);
        assertThat(Predictor.create(PredictorKind.HASH)).isNotNull();
    }

    @Test
    void theFarmsRouteMapNamesItsOwnReals() {
        FarmConfig config = farm("aaa", PredictorKind.ROUTE_MAP, FAIL_AT_ONCE, real("127.0.0.2", 1),
                real("127.0.0.3", 1));
        Map<Subnet, Endpoint> routes = new LinkedHashMap<>();
        routes.put(new Subnet(ip("10.1.0.0"), 16), new Endpoint(ip("127.0.0.2"), 2123));
        routes.put(new Subnet(ip("10.1.2.0"), 24), new Endpoint(ip("127.0.0.3"), 2123));
        ServerFarm aaa = farms(new FarmConfig("aaa", PredictorKind.ROUTE_MAP, FAIL_AT_ONCE, config.reals(),
                java.util.Optional.empty(), List.of(), java.util.Optional.empty(), routes)).farm("aaa");
        assertThat(aaa.routeMap().lookup(ip("10.1.2.9"))).isSameAs(aaa.real(id("127.0.0.3")));
        assertThat(aaa.routeMap().lookup(ip("10.1.7.9"))).isSameAs(aaa.real(id("127.0.0.2")));
        assertThat(aaa.routeMap().lookup(ip("10.2.0.1"))).isNull();
        assertThat(farms(config).farm("aaa").routeMap().isEmpty()).isTrue();
    }

    @Test
    void aRouteMapToAForeignRealOrWithoutItsPredictorIsRefused() {
        List<io.switchboard.director.config.RealConfig> reals = List.of(real("127.0.0.2", 1));
        Map<Subnet, Endpoint> foreign = Map.of(new Subnet(ip("10.1.0.0"), 16), new Endpoint(ip("127.0.0.9"), 2123));
        assertThatThrownBy(() -> new FarmConfig("aaa", PredictorKind.ROUTE_MAP, FAIL_AT_ONCE, reals,
                java.util.Optional.empty(), List.of(), java.util.Optional.empty(), foreign))
                .hasMessage("farm aaa: route-map 10.1.0.0/16 names 127.0.0.9:2123, which is not a real of the farm");
        Map<Subnet, Endpoint> own = Map.of(new Subnet(ip("10.1.0.0"), 16), new Endpoint(ip("127.0.0.2"), 2123));
        assertThatThrownBy(() -> new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, reals,
                java.util.Optional.empty(), List.of(), java.util.Optional.empty(), own))
                .hasMessage("farm aaa: a route map needs predictor route-map, not roundrobin");
    }
}
