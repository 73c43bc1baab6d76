package io.switchboard.director.real;

import static io.switchboard.director.testing.TestFarms.ip;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.RealLimits;
import io.switchboard.director.config.RemovalPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * A real's {@code rate}, {@code maxclients} and its farm's {@code failure.inband}, decided in
 * {@link RealServer#tryTakeNewWork()} / {@link RealServer#requestUnanswered} (IOS SLB real-server
 * commands {@code rate}, {@code maxclients}, {@code faildetect inband}).
 */
class NewWorkLimitsTest {

    private static final long SECOND = 1_000_000_000L;

    private static RealServer real(RealLimits limits, FailureDetection failure) {
        RealConfig config = new RealConfig(ip("10.0.0.1"), 1812, 8, OptionalInt.empty(), true, Map.of(),
                RemovalPolicy.DEFAULT, limits);
        return new RealServer("aaa", config, failure, 1);
    }

    private static RealServer real(RealLimits limits) {
        return real(limits, FailureDetection.DEFAULT);
    }

    @Test
    void rateTakesAtMostNNewClientsPerSecondOfTheHousekeepingClock() {
        RealServer r = real(new RealLimits(OptionalInt.of(3), OptionalInt.empty()));
        r.tick(0);
        assertThat(r.tryTakeNewWork()).isTrue();
        assertThat(r.tryTakeNewWork()).isTrue();
        assertThat(r.tryTakeNewWork()).isTrue();
        assertThat(r.tryTakeNewWork()).as("the fourth in the second").isFalse();
        r.tick(SECOND / 2);
        assertThat(r.tryTakeNewWork()).as("still the same second").isFalse();
        assertThat(r.limits().refusedRate()).isEqualTo(2);
        // Bound clients are not new work: the real still serves them, its state unchanged.
        assertThat(r.servesBoundClients()).isTrue();
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        r.tick(SECOND);
        assertThat(r.tryTakeNewWork()).as("a new second").isTrue();
        assertThat(r.limits().refusedClients()).isZero();
    }

    @Test
    void withoutLimitsNothingIsRefused() {
        RealServer r = real(RealLimits.NONE);
        r.tick(0);
        for (int i = 0; i < 10_000; i++) {
            assertThat(r.tryTakeNewWork()).isTrue();
            r.clientBound();
        }
        assertThat(r.limits().countsClients()).isFalse();
        assertThat(r.limits().clients()).isZero();
        assertThat(r.limits().refusedRate() + r.limits().refusedClients()).isZero();
    }

    @Test
    void maxclientsThrottlesTheRealToItsBoundClientsUntilACountFindsFewer() {
        RealServer r = real(new RealLimits(OptionalInt.empty(), OptionalInt.of(2)));
        assertThat(r.limits().countsClients()).isTrue();
        r.clientBound();
        assertThat(r.tryTakeNewWork()).isTrue();
        r.clientBound();
        // IOS: a real with maxclients subscribers is maxClientsThrottle; its subscribers stay.
        assertThat(r.state()).isEqualTo(RealState.MAXCLIENTS_THROTTLED);
        assertThat(r.tryTakeNewWork()).isFalse();
        assertThat(r.limits().refusedClients()).isEqualTo(1);
        assertThat(r.servesBoundClients()).isTrue();
        assertThat(r.isCandidate()).as("kept in the predictor's snapshot, refused per pick").isTrue();
        // The tables counted: one binding expired.
        r.clientsCounted(1);
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(r.tryTakeNewWork()).isTrue();
        r.clientsCounted(5); // the other nodes bound more (shared tables)
        assertThat(r.state()).isEqualTo(RealState.MAXCLIENTS_THROTTLED);
    }

    @Test
    void maxclientsRefusesEvenWhenAnotherMoveLiftedTheState() {
        RealServer r = new RealServer("aaa", new RealConfig(ip("10.0.0.1"), 1812, 8, OptionalInt.of(1), true,
                Map.of(), RemovalPolicy.DEFAULT, new RealLimits(OptionalInt.empty(), OptionalInt.of(1))),
                FailureDetection.DEFAULT, 1);
        r.requestForwarded(); // MAXCONNS_THROTTLED
        r.clientBound();
        r.requestAnswered(); // MAXCONNS_THROTTLED -> OPERATIONAL
        assertThat(r.tryTakeNewWork()).isFalse();
        assertThat(r.limits().refusedClients()).isEqualTo(1);
    }

    @Test
    void aMaxclientsThrottledRealStillFailsInBand() {
        RealServer r = real(new RealLimits(OptionalInt.empty(), OptionalInt.of(1)),
                new FailureDetection(1, 1, Duration.ofMinutes(1)));
        r.clientBound();
        r.requestForwarded();
        r.requestUnanswered("client", 0);
        assertThat(r.state()).isEqualTo(RealState.FAILED);
    }

    @Test
    void withoutInBandDetectionUnansweredRequestsDoNotFailTheReal() {
        // IOS "no faildetect inband": numconns is then ignored, probes fail the real.
        RealServer r = real(RealLimits.NONE, new FailureDetection(1, 1, Duration.ofMinutes(1), false, false));
        for (int i = 0; i < 20; i++) {
            r.requestForwarded();
            r.requestUnanswered("client-" + i, 0);
        }
        assertThat(r.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(r.unanswered()).isEqualTo(20);
        r.probesFailing(true);
        assertThat(r.state()).isEqualTo(RealState.PROBE_FAILED);
    }

    @Test
    void aReloadChangesTheLimits() {
        RealServer r = real(RealLimits.NONE);
        r.tick(0);
        r.reconfigure(new RealConfig(ip("10.0.0.1"), 1812, 8, OptionalInt.empty(), true, Map.of(),
                RemovalPolicy.DEFAULT, new RealLimits(OptionalInt.of(1), OptionalInt.empty())), FailureDetection.DEFAULT);
        assertThat(r.tryTakeNewWork()).isTrue();
        assertThat(r.tryTakeNewWork()).isFalse();
    }
}
