package io.switchboard.director.real;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A real put (back) in service takes a growing share of new work for the farm's slow-start time. */
class SlowStartTest {

    private static final long SECOND = 1_000_000_000L;

    private final ServerFarm farm = new ServerFarm(new FarmConfig("web", PredictorKind.LEASTCONNS, FAIL_AT_ONCE,
            List.of(real("10.0.0.1", 1), real("10.0.0.2", 1)), Optional.empty(), List.of(),
            Optional.of(Duration.ofSeconds(10))), 0);
    private final RealServer old = farm.reals().get(0);
    private final RealServer fresh = farm.reals().get(1);

    /** New connections (kept open) picked by least connections; how many went to the fresh real. */
    private int toFresh(int picks) {
        int count = 0;
        for (int i = 0; i < picks; i++) {
            RealServer r = farm.pick(i);
            r.requestForwarded();
            if (r == fresh) {
                count++;
            }
        }
        return count;
    }

    @Test
    void aRealBackInServiceIsNotFloodedByLeastConnections() {
        farm.tick(0);
        fresh.takeOutOfService();
        toFresh(20); // the old real carries 20 connections
        fresh.putInService();
        assertThat(fresh.slowStarting()).isTrue();

        // A quarter into slow start the empty real, which least connections would give every new
        // connection, takes about one offer in four (the first at once).
        farm.tick(SECOND * 10 / 4);
        int early = toFresh(20);
        assertThat(early).isBetween(2, 8);

        farm.tick(SECOND * 10 * 3 / 4);
        int later = toFresh(20);
        assertThat(later).isGreaterThan(early);

        // After slow start it is an ordinary real again: least connections fills it up.
        farm.tick(SECOND * 11);
        int after = toFresh(10);
        assertThat(after).isEqualTo(10);
        assertThat(fresh.slowStarting()).isFalse();
        assertThat(old.connections() + fresh.connections()).isEqualTo(70);
    }

    @Test
    void aLiftedThrottleDoesNotSlowStartAndNoFarmSettingMeansNone() {
        RealServer plain = new ServerFarm(new FarmConfig("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE,
                List.of(real("10.0.1.1", 1)), Optional.empty()), 10).reals().get(0);
        plain.takeOutOfService();
        plain.putInService();
        assertThat(plain.slowStarting()).isFalse();

        farm.tick(0);
        fresh.setWeight(0);
        fresh.setWeight(1);
        assertThat(fresh.slowStarting()).isFalse();
    }
}
