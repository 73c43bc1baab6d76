package io.switchboard.director.real;

import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.testing.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The DRAINING state of a real: nothing new, bound clients kept, ended by inservice. */
class RealServerDrainTest {

    /** Fails at the first unanswered request. */
    private static final FailureDetection FAILURE = new FailureDetection(1, 1, Duration.ofSeconds(60));

    private final ManualTicker ticker = new ManualTicker();
    private final List<String> reported = new ArrayList<>();
    private RealServer real;

    @BeforeEach
    void createReal() {
        real = new RealServer("gw", real("10.0.0.1", 8), FAILURE, 1);
        real.stateListener(new RealStateListener() {
            @Override
            public void adminChanged(RealServer r, boolean inService) {
                reported.add(inService ? "inservice" : "outofservice");
            }

            @Override
            public void drainStarted(RealServer r, long deadlineMillis) {
                reported.add("drain " + deadlineMillis);
            }
        });
    }

    private RealDrain drain() {
        return RealDrain.starting(ticker.nanos(), null);
    }

    @Test
    void aDrainingRealTakesNoNewWorkButServesItsBoundClients() {
        assertThat(real.drain(drain())).isTrue();

        assertThat(real.state()).isEqualTo(RealState.DRAINING);
        assertThat(real.tryTakeNewWork()).isFalse();
        assertThat(real.isCandidate()).isFalse();
        assertThat(real.servesBoundClients()).isTrue();
        assertThat(real.currentDrain()).isNotNull();
        assertThat(reported).containsExactly("drain 0");
    }

    @Test
    void inServiceEndsTheDrain() {
        real.drain(drain());

        real.putInService();

        assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(real.currentDrain()).isNull();
        assertThat(real.tryTakeNewWork()).isTrue();
        assertThat(reported).containsExactly("drain 0", "inservice");
    }

    @Test
    void outOfServiceEndsTheDrainAndReassignsTheBoundClients() {
        real.drain(drain());

        real.takeOutOfService();

        assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);
        assertThat(real.currentDrain()).isNull();
        assertThat(real.servesBoundClients()).isFalse();
    }

    @Test
    void aRealOutOfServiceHasNothingToDrain() {
        real.takeOutOfService();
        reported.clear();

        assertThat(real.drain(drain())).isFalse();

        assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);
        assertThat(real.currentDrain()).isNull();
        assertThat(reported).isEmpty();
    }

    @Test
    void unansweredRequestsOfBoundClientsDoNotFailADrainingReal() {
        real.drain(drain());

        real.requestForwarded();
        real.requestUnanswered("client", ticker.nanos());

        assertThat(real.state()).isEqualTo(RealState.DRAINING);
        assertThat(real.connections()).isZero();
    }

    @Test
    void failedProbesInterruptTheDrainAndPassingProbesResumeIt() {
        real.drain(drain());

        real.probesFailing(true);
        assertThat(real.state()).isEqualTo(RealState.PROBE_FAILED);
        assertThat(real.servesBoundClients()).isFalse();

        real.probesFailing(false);
        assertThat(real.state()).isEqualTo(RealState.DRAINING);
    }

    @Test
    void aFailedRealDrainsItsBoundClients() {
        real.requestForwarded();
        real.requestUnanswered("client", ticker.nanos());
        assertThat(real.state()).isEqualTo(RealState.FAILED);

        real.drain(drain());
        ticker.advance(Duration.ofSeconds(61));
        real.tick(ticker.nanos());

        assertThat(real.state()).as("no READY_TO_TEST: a test request is new work").isEqualTo(RealState.DRAINING);
    }

    @Test
    void weightChangesLeaveADrainingRealDraining() {
        real.drain(drain());

        real.setWeight(0);
        real.setWeight(5);

        assertThat(real.state()).isEqualTo(RealState.DRAINING);
    }

    @Test
    void aDrainAppliedForAnotherNodeIsNotReportedBack() {
        assertThat(real.applyDrain(RealDrain.shared(ticker.nanos(), System.currentTimeMillis() + 60_000))).isTrue();

        assertThat(real.state()).isEqualTo(RealState.DRAINING);
        assertThat(real.currentDrain().hasDeadline()).isTrue();
        assertThat(real.currentDrain().pastDeadline(ticker.nanos())).isFalse();
        assertThat(reported).isEmpty();
    }

    @Test
    void aDrainEndsOnceAndItsDeadlineComesOnTheTicker() {
        RealDrain drain = RealDrain.starting(ticker.nanos(), Duration.ofMinutes(10));
        real.drain(drain);

        assertThat(drain.pastDeadline(ticker.advance(Duration.ofMinutes(9)))).isFalse();
        assertThat(drain.pastDeadline(ticker.advance(Duration.ofMinutes(1)))).isTrue();
        assertThat(drain.end(RealDrain.Result.DEADLINE)).isTrue();
        assertThat(drain.end(RealDrain.Result.COMPLETED)).isFalse();
        assertThat(drain.result()).isEqualTo(RealDrain.Result.DEADLINE);
    }
}
