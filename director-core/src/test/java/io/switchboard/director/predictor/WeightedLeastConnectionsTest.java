package io.switchboard.director.predictor;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.ServerFarm;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WeightedLeastConnectionsTest {

    private static ServerFarm farmOf(RealConfig... reals) {
        return new ServerFarm(farm("gw", PredictorKind.LEASTCONNS, FAIL_AT_ONCE, reals), 0);
    }

    /** Picks {@code n} long-lived connections: each is forwarded and never answered. */
    private static Map<RealServer, Integer> connect(ServerFarm farm, int n) {
        Map<RealServer, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            RealServer r = farm.pick(i);
            assertThat(r).as("pick %d", i).isNotNull();
            r.requestForwarded();
            counts.merge(r, 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void longLivedConnectionsAreSharedInProportionToTheWeights() {
        ServerFarm farm = farmOf(real("10.0.0.1", 2), real("10.0.0.2", 1));
        RealServer a = farm.reals().get(0);
        RealServer b = farm.reals().get(1);

        Map<RealServer, Integer> counts = connect(farm, 30);

        assertThat(counts).containsEntry(a, 20).containsEntry(b, 10);
        assertThat(a.connections()).isEqualTo(20);
        assertThat(b.connections()).isEqualTo(10);
    }

    @Test
    void threeRealsWithWeightsOneTwoThreeSplitSixtyConnections10_20_30() {
        ServerFarm farm = farmOf(real("10.0.0.1", 1), real("10.0.0.2", 2), real("10.0.0.3", 3));

        Map<RealServer, Integer> counts = connect(farm, 60);

        assertThat(counts.get(farm.reals().get(0))).isEqualTo(10);
        assertThat(counts.get(farm.reals().get(1))).isEqualTo(20);
        assertThat(counts.get(farm.reals().get(2))).isEqualTo(30);
    }

    @Test
    void theRealWithFewerConnectionsIsPreferred() {
        ServerFarm farm = farmOf(real("10.0.0.1", 1), real("10.0.0.2", 1));
        RealServer a = farm.reals().get(0);
        RealServer b = farm.reals().get(1);
        for (int i = 0; i < 3; i++) {
            a.requestForwarded();
        }

        for (int i = 0; i < 3; i++) {
            RealServer picked = farm.pick(i);
            assertThat(picked).as("pick %d", i).isSameAs(b);
            picked.requestForwarded();
        }
        // Now 3 each: the earlier real wins the tie.
        assertThat(farm.pick(0)).isSameAs(a);
    }

    @Test
    void answeredConnectionsFreeTheirReal() {
        ServerFarm farm = farmOf(real("10.0.0.1", 1), real("10.0.0.2", 1));
        RealServer a = farm.reals().get(0);
        RealServer b = farm.reals().get(1);
        a.requestForwarded();
        a.requestForwarded();
        b.requestForwarded();
        assertThat(farm.pick(0)).isSameAs(b);

        a.requestAnswered();
        a.requestAnswered();

        assertThat(farm.pick(0)).isSameAs(a);
    }

    @Test
    void failedAndThrottledRealsAreSkipped() {
        ServerFarm farm = farmOf(real("10.0.0.1", 1, 1), real("10.0.0.2", 1), real("10.0.0.3", 1));
        RealServer a = farm.reals().get(0);
        RealServer b = farm.reals().get(1);
        RealServer c = farm.reals().get(2);
        a.requestForwarded();
        assertThat(a.state()).isEqualTo(RealState.MAXCONNS_THROTTLED);
        b.requestForwarded();
        b.requestUnanswered(ip("192.0.2.1"), 0);
        assertThat(b.state()).isEqualTo(RealState.FAILED);

        // c has more connections than the failed b (0) but is the only one that may take work.
        c.requestForwarded();
        c.requestForwarded();
        for (int i = 0; i < 5; i++) {
            assertThat(farm.pick(i)).isSameAs(c);
        }
    }

    @Test
    void noRealWhenNoneMayTakeWork() {
        ServerFarm farm = farmOf(real("10.0.0.1", 1, 1), real("10.0.0.2", 1));
        farm.reals().get(0).requestForwarded();
        farm.reals().get(1).setWeight(0);

        assertThat(farm.pick(0)).isNull();
    }
}
