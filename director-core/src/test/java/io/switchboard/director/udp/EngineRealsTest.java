package io.switchboard.director.udp;

import io.switchboard.director.spi.EngineReals;
import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.farms;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealStateListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine's side of what plug-ins do to reals: weights, sessions as connections. */
class EngineRealsTest {

    private final Farms farms = farms(
            farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real("10.0.0.1", 1)),
            farm("ims", PredictorKind.LEASTCONNS, FAIL_AT_ONCE, real("10.0.2.1", 1), real("10.0.2.2", 1)));
    private final EngineReals reals = EngineReals.ENGINE;


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
}
