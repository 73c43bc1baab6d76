package io.switchboard.director.dfp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.testing.TestFarms;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in agents' GGSN formula and the KAL-AP load figure, with the guide's examples. */
class DfpFormulasTest {

    @Test
    void aGgsnWeighsItsFreeShareOfContextsUpToItsMaxWeight() {
        assertThat(DfpFormulas.ggsn(0, 10_000, 8)).isEqualTo(8);
        assertThat(DfpFormulas.ggsn(5_000, 10_000, 8)).isEqualTo(4);
        assertThat(DfpFormulas.ggsn(9_999, 10_000, 8)).isZero(); // rounded down: nearly full takes nothing
        assertThat(DfpFormulas.ggsn(12_000, 10_000, 100)).isZero();
        assertThatThrownBy(() -> DfpFormulas.ggsn(0, 10_000, 101)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void kalApLoadsAreTheGuidesExamples() {
        assertThat(KalApLoad.relative(1, 2)).isEqualTo(128);
        assertThat(KalApLoad.relative(2, 2)).isZero();
        assertThat(KalApLoad.relative(0, 0)).isEqualTo(256);
        assertThat(KalApLoad.absolute(List.of(100, 50), 200)).isEqualTo(64);
        assertThat(KalApLoad.absolute(List.of(200, 50), 200)).isZero();
    }

    @Test
    void theBuiltInGgsnAgentWeighsRealsByTheSessionsOpenOnThem() {
        Farms farms = TestFarms.farms(TestFarms.farm("ggsns", PredictorKind.ROUNDROBIN, TestFarms.FAIL_AT_ONCE,
                TestFarms.real("10.0.0.1", 8), TestFarms.real("10.0.0.2", 8)));
        RealServer busy = farms.real("ggsns", TestFarms.id("10.0.0.1"));
        RealServer idle = farms.real("ggsns", TestFarms.id("10.0.0.2"));
        for (int i = 0; i < 4; i++) {
            busy.sessionOpened();
        }
        DfpConfig.BuiltIn ggsn = new DfpConfig.BuiltIn("ggsns", DfpConfig.Formula.GGSN, 4, 10, Duration.ofSeconds(1));
        DfpBuiltIns.weigh(farms, ggsn, "built-in:ggsns", new SimpleMeterRegistry());
        assertThat(busy.weight()).isZero();
        assertThat(busy.state()).isEqualTo(RealState.DFP_THROTTLED);
        assertThat(idle.weight()).isEqualTo(10);
        busy.sessionClosed();
        DfpBuiltIns.weigh(farms, ggsn, "built-in:ggsns", new SimpleMeterRegistry());
        assertThat(busy.weight()).isEqualTo(2);
        assertThat(busy.state()).isEqualTo(RealState.OPERATIONAL);
    }
}
