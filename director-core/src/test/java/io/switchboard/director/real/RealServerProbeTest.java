package io.switchboard.director.real;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How the probes' verdict moves a real: out of rotation from any serving state, back when all pass. */
class RealServerProbeTest {

    private final RealServer real = new RealServer("web", real("10.0.0.1", 4), FAIL_AT_ONCE, 0);

    @Test
    void failingProbesTakeAnOperationalRealOutAndPassingOnesRestoreIt() {
        real.probesFailing(true);
        assertThat(real.state()).isEqualTo(RealState.PROBE_FAILED);
        assertThat(real.tryTakeNewWork()).isFalse();
        assertThat(real.servesBoundClients()).isFalse();
        assertThat(real.isCandidate()).isFalse();

        real.probesFailing(false);
        assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(real.tryTakeNewWork()).isTrue();
    }

    @Test
    void anInBandFailedRealIsProbeFailedToo() {
        real.requestForwarded();
        real.requestUnanswered("client", 1);
        assertThat(real.state()).isEqualTo(RealState.FAILED);

        real.probesFailing(true);
        assertThat(real.state()).isEqualTo(RealState.PROBE_FAILED);
        // The retry timer does not bring a PROBE_FAILED real back; only its probes do.
        real.tick(Long.MAX_VALUE / 2);
        assertThat(real.state()).isEqualTo(RealState.PROBE_FAILED);
    }

    @Test
    void outOfServiceWinsAndInServiceHonoursTheProbes() {
        real.takeOutOfService();
        real.probesFailing(true);
        assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);

        real.putInService();
        assertThat(real.state()).isEqualTo(RealState.PROBE_FAILED);

        real.probesFailing(false);
        assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
    }

    @Test
    void aRealWithWeightZeroReturnsThrottled() {
        real.setWeight(0);
        real.probesFailing(true);
        real.probesFailing(false);
        assertThat(real.state()).isEqualTo(RealState.DFP_THROTTLED);
    }
}
