package io.switchboard.director.real;

import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.testing.ManualTicker;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RealServerTest {

    private static final Duration RETRY = Duration.ofSeconds(60);
    /** Comfortably past the retry time, for tests that are not about its boundary. */
    private static final Duration AFTER_RETRY = RETRY.plusSeconds(1);
    /** faildetect numconns 3 numclients 2, retry 60 s. */
    private static final FailureDetection FAILURE = new FailureDetection(3, 2, RETRY);

    private static final Object CLIENT_1 = ip("192.0.2.1");
    private static final Object CLIENT_2 = ip("192.0.2.2");
    private static final Object CLIENT_3 = ip("192.0.2.3");

    private final ManualTicker ticker = new ManualTicker();
    private final AtomicInteger candidacyChanges = new AtomicInteger();
    private RealServer real;

    @BeforeEach
    void createReal() {
        real = newReal(real("10.0.0.1", 8));
    }

    private RealServer newReal(RealConfig config) {
        RealServer r = new RealServer("gw", config, FAILURE, 7);
        r.onCandidacyChange(candidacyChanges::incrementAndGet);
        return r;
    }

    /** A request forwarded to the real that expires without an answer. */
    private void unanswered(Object client) {
        real.requestForwarded();
        real.requestUnanswered(client, ticker.nanos());
    }

    private void answered() {
        real.requestForwarded();
        real.requestAnswered();
    }

    /** Fails the real at the ticker's current time. */
    private void fail() {
        unanswered(CLIENT_1);
        unanswered(CLIENT_2);
        unanswered(CLIENT_3);
        assertThat(real.state()).isEqualTo(RealState.FAILED);
    }

    @Test
    void startsOperationalWithItsConfiguration() {
        assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(real.id()).isEqualTo("10.0.0.1:2123");
        assertThat(real.farm()).isEqualTo("gw");
        assertThat(real.slot()).isEqualTo(7);
        assertThat(real.weight()).isEqualTo(8);
        assertThat(real.staticWeight()).isEqualTo(8);
        assertThat(real.maxConns()).isEqualTo(Integer.MAX_VALUE);
        assertThat(real.failures()).isZero();
        assertThat(real.tryTakeNewWork()).isTrue();
        assertThat(real.isCandidate()).isTrue();
    }

    @Test
    void notInServiceInItsConfigurationStartsOutOfService() {
        RealServer r = newReal(new RealConfig(ip("10.0.0.2"), 2123, 8, OptionalInt.empty(), false));

        assertThat(r.state()).isEqualTo(RealState.OUTOFSERVICE);
        assertThat(r.tryTakeNewWork()).isFalse();
        assertThat(r.isCandidate()).isFalse();
    }

    @Test
    void failureDetectionNeedsAtLeastOneRequestAndOneClient() {
        RealConfig config = real("10.0.0.9", 8);
        assertThatThrownBy(() -> new RealServer("gw", config, new FailureDetection(0, 1, RETRY), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RealServer("gw", config, new FailureDetection(1, 0, RETRY), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Nested
    class InBandFailureDetection {

        @Test
        void failsAfterNumconnsUnansweredFromNumclientsClients() {
            unanswered(CLIENT_1);
            unanswered(CLIENT_2);
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.consecutiveFailures()).isEqualTo(2);

            unanswered(CLIENT_1);

            assertThat(real.state()).isEqualTo(RealState.FAILED);
            assertThat(real.failures()).isEqualTo(1);
            assertThat(real.unanswered()).isEqualTo(3);
            assertThat(real.tryTakeNewWork()).isFalse();
            assertThat(real.servesBoundClients()).isFalse();
            assertThat(real.isCandidate()).isFalse();
        }

        @Test
        void oneClientAloneCannotFailTheReal() {
            for (int i = 0; i < 20; i++) {
                unanswered(CLIENT_1);
            }

            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.failures()).isZero();
            assertThat(real.consecutiveFailures()).isEqualTo(20);
        }

        @Test
        void theSecondClientAfterALongStreakFromOneClientFailsTheReal() {
            for (int i = 0; i < 5; i++) {
                unanswered(CLIENT_1);
            }
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);

            unanswered(CLIENT_2);

            assertThat(real.state()).isEqualTo(RealState.FAILED);
        }

        @Test
        void anAnswerStartsTheCountAgain() {
            unanswered(CLIENT_1);
            unanswered(CLIENT_2);
            answered();
            assertThat(real.consecutiveFailures()).isZero();

            unanswered(CLIENT_1);
            unanswered(CLIENT_2);
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);

            unanswered(CLIENT_1);
            assertThat(real.state()).isEqualTo(RealState.FAILED);
        }

        @Test
        void anAnswerAlsoForgetsTheClientsSeen() {
            unanswered(CLIENT_1);
            unanswered(CLIENT_2);
            answered();

            // Three in a row again, but all from one client: the client seen before the answer
            // must not count towards numclients.
            unanswered(CLIENT_3);
            unanswered(CLIENT_3);
            unanswered(CLIENT_3);

            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
        }

        @Test
        void countsEveryFailure() {
            fail();
            real.putInService();
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.consecutiveFailures()).isZero();
            fail();

            assertThat(real.failures()).isEqualTo(2);
        }
    }

    @Nested
    class RetryAndTest {

        @Test
        void failedBecomesReadyToTestOnlyWhenTheRetryTimerRunsOut() {
            fail();

            real.tick(ticker.advance(RETRY.minusNanos(1)));
            assertThat(real.state()).isEqualTo(RealState.FAILED);
            assertThat(real.tryTakeNewWork()).isFalse();

            real.tick(ticker.advanceNanos(1));
            assertThat(real.state()).isEqualTo(RealState.READY_TO_TEST);
            assertThat(real.isCandidate()).isTrue();
        }

        @Test
        void tickDoesNothingToARealThatIsNotFailed() {
            real.tick(ticker.advance(RETRY.multipliedBy(10)));

            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
        }

        @Test
        void readyToTestGivesOutExactlyOneTestRequest() {
            fail();
            real.tick(ticker.advance(AFTER_RETRY));

            assertThat(real.tryTakeNewWork()).isTrue();
            assertThat(real.state()).isEqualTo(RealState.TESTING);
            assertThat(real.tryTakeNewWork()).isFalse();
            assertThat(real.tryTakeNewWork()).isFalse();
            assertThat(real.isCandidate()).isFalse();
        }

        @Test
        void anAnsweredTestMakesTheRealOperational() {
            fail();
            real.tick(ticker.advance(AFTER_RETRY));
            assertThat(real.tryTakeNewWork()).isTrue();

            answered();

            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.tryTakeNewWork()).isTrue();
            assertThat(real.failures()).isEqualTo(1);
        }

        @Test
        void anUnansweredTestFailsTheRealAgainAndRestartsTheRetryTimer() {
            fail();
            real.tick(ticker.advance(AFTER_RETRY));
            assertThat(real.tryTakeNewWork()).isTrue();

            // One unanswered test from one client is enough: numconns/numclients do not apply.
            real.tick(ticker.advance(Duration.ofSeconds(2)));
            unanswered(CLIENT_1);
            assertThat(real.state()).isEqualTo(RealState.FAILED);
            assertThat(real.failures()).isEqualTo(2);

            // Measured from the second failure, not the first (which is already > RETRY ago).
            real.tick(ticker.advance(RETRY.minusNanos(1)));
            assertThat(real.state()).isEqualTo(RealState.FAILED);
            real.tick(ticker.advanceNanos(1));
            assertThat(real.state()).isEqualTo(RealState.READY_TO_TEST);
        }
    }

    @Nested
    class Maxconns {

        @BeforeEach
        void limitedReal() {
            real = newReal(real("10.0.0.3", 8, 2));
        }

        @Test
        void throttlesAtMaxconnsAndRecoversOnAnswer() {
            real.requestForwarded();
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.tryTakeNewWork()).isTrue();

            real.requestForwarded();
            assertThat(real.connections()).isEqualTo(2);
            assertThat(real.state()).isEqualTo(RealState.MAXCONNS_THROTTLED);
            assertThat(real.tryTakeNewWork()).isFalse();
            assertThat(real.servesBoundClients()).isTrue();
            assertThat(real.isCandidate()).isTrue();

            real.requestAnswered();
            assertThat(real.connections()).isEqualTo(1);
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.tryTakeNewWork()).isTrue();
        }

        @Test
        void anUnansweredRequestAlsoFreesTheConnection() {
            real.requestForwarded();
            real.requestForwarded();
            assertThat(real.state()).isEqualTo(RealState.MAXCONNS_THROTTLED);

            real.requestUnanswered(CLIENT_1, ticker.nanos());

            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.connections()).isEqualTo(1);
        }

        @Test
        void aThrottledRealCanStillFail() {
            for (int i = 0; i < 5; i++) {
                real.requestForwarded();
            }
            real.requestUnanswered(CLIENT_1, ticker.nanos());
            real.requestUnanswered(CLIENT_2, ticker.nanos());
            assertThat(real.state()).isEqualTo(RealState.MAXCONNS_THROTTLED);

            real.requestUnanswered(CLIENT_3, ticker.nanos());

            assertThat(real.state()).isEqualTo(RealState.FAILED);
        }

        @Test
        void throttleFlipsDoNotAskForARebuild() {
            real.requestForwarded();
            real.requestForwarded();
            real.requestAnswered();
            real.requestAnswered();

            assertThat(candidacyChanges).hasValue(0);
            assertThat(real.forwarded()).isEqualTo(2);
            assertThat(real.answered()).isEqualTo(2);
        }
    }

    @Nested
    class Administration {

        @Test
        void outOfServiceAndBackIntoService() {
            real.takeOutOfService();
            assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);
            assertThat(real.tryTakeNewWork()).isFalse();
            assertThat(real.servesBoundClients()).isFalse();
            assertThat(real.isCandidate()).isFalse();

            real.putInService();
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.tryTakeNewWork()).isTrue();
        }

        @Test
        void anOutOfServiceRealIsNotFailedByExpiries() {
            real.takeOutOfService();
            unanswered(CLIENT_1);
            unanswered(CLIENT_2);
            unanswered(CLIENT_3);

            assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);
            assertThat(real.failures()).isZero();
        }

        @Test
        void theAnswerToATestDoesNotBringBackARealTakenOutOfServiceMeanwhile() {
            fail();
            real.tick(ticker.advance(AFTER_RETRY));
            assertThat(real.tryTakeNewWork()).isTrue();
            real.takeOutOfService();

            answered();

            assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);
        }

        @Test
        void weightChangesLeaveAnOutOfServiceRealOutOfService() {
            real.takeOutOfService();
            real.setWeight(0);
            real.setWeight(4);

            assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);
            assertThat(real.weight()).isEqualTo(4);
        }

        @Test
        void inServiceForcesAFailedRealBack() {
            fail();

            real.putInService();

            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.consecutiveFailures()).isZero();
        }

        @Test
        void inServiceLeavesAnOperationalRealAlone() {
            real.putInService();

            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(candidacyChanges).hasValue(0);
        }

        @Test
        void weightZeroThrottlesToBoundClientsAndBack() {
            real.setWeight(0);
            assertThat(real.state()).isEqualTo(RealState.DFP_THROTTLED);
            assertThat(real.weight()).isZero();
            assertThat(real.staticWeight()).isEqualTo(8);
            assertThat(real.tryTakeNewWork()).isFalse();
            assertThat(real.servesBoundClients()).isTrue();
            assertThat(real.isCandidate()).isFalse();

            real.setWeight(5);
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.weight()).isEqualTo(5);
            assertThat(real.tryTakeNewWork()).isTrue();
            assertThat(real.isCandidate()).isTrue();
        }

        @Test
        void weightZeroAlsoThrottlesAMaxconnsThrottledReal() {
            real = newReal(real("10.0.0.3", 8, 1));
            real.requestForwarded();
            assertThat(real.state()).isEqualTo(RealState.MAXCONNS_THROTTLED);

            real.setWeight(0);

            assertThat(real.state()).isEqualTo(RealState.DFP_THROTTLED);
        }

        @Test
        void aFailedRealPutBackInServiceWithWeightZeroIsThrottled() {
            fail();
            real.setWeight(0);
            assertThat(real.state()).isEqualTo(RealState.FAILED);

            real.putInService();

            assertThat(real.state()).isEqualTo(RealState.DFP_THROTTLED);
        }

        @Test
        void aDfpThrottledRealCanFail() {
            real.setWeight(0);

            fail();

            assertThat(real.failures()).isEqualTo(1);
        }

        @Test
        void weightOutsideZeroTo255IsRefused() {
            assertThatThrownBy(() -> real.setWeight(-1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> real.setWeight(256)).isInstanceOf(IllegalArgumentException.class);
            assertThat(real.weight()).isEqualTo(8);
            real.setWeight(255);
            assertThat(real.weight()).isEqualTo(255);
        }

        @Test
        void weightZeroSetDuringATestIsKeptWhenTheTestIsAnswered() {
            fail();
            real.tick(ticker.advance(AFTER_RETRY));
            assertThat(real.tryTakeNewWork()).isTrue();
            real.setWeight(0);

            answered();

            assertThat(real.state()).isEqualTo(RealState.DFP_THROTTLED);
            assertThat(real.tryTakeNewWork()).isFalse();
        }
    }

    @Nested
    class CandidacyListener {

        @Test
        void firesOnEveryTransitionThatChangesCandidacy() {
            fail();
            assertThat(candidacyChanges).as("OPERATIONAL -> FAILED").hasValue(1);

            real.tick(ticker.advance(AFTER_RETRY));
            assertThat(candidacyChanges).as("FAILED -> READY_TO_TEST").hasValue(2);

            real.tryTakeNewWork();
            assertThat(candidacyChanges).as("READY_TO_TEST -> TESTING").hasValue(3);

            answered();
            assertThat(candidacyChanges).as("TESTING -> OPERATIONAL").hasValue(4);

            real.takeOutOfService();
            assertThat(candidacyChanges).as("OPERATIONAL -> OUTOFSERVICE").hasValue(5);

            real.takeOutOfService();
            assertThat(candidacyChanges).as("already out of service").hasValue(5);

            real.putInService();
            assertThat(candidacyChanges).as("OUTOFSERVICE -> OPERATIONAL").hasValue(6);
        }

        @Test
        void firesOnWeightChangesOnly() {
            real.setWeight(8);
            assertThat(candidacyChanges).as("same weight").hasValue(0);

            real.setWeight(4);
            assertThat(candidacyChanges).as("4").hasValueGreaterThanOrEqualTo(1);

            int before = candidacyChanges.get();
            real.setWeight(0);
            assertThat(candidacyChanges).as("0").hasValueGreaterThan(before);

            before = candidacyChanges.get();
            real.setWeight(3);
            assertThat(candidacyChanges).as("back from 0").hasValueGreaterThan(before);
        }

        @Test
        void doesNotFireForAPlainRequestAndAnswer() {
            answered();
            unanswered(CLIENT_1);

            assertThat(candidacyChanges).hasValue(0);
        }
    }

    /** What the cluster shares: this node's own changes are reported, changes applied for another node are not. */
    @Nested
    class SharedState {

        private final java.util.List<String> reported = new java.util.ArrayList<>();

        @BeforeEach
        void listen() {
            real.stateListener(new RealStateListener() {
                @Override
                public void adminChanged(RealServer r, boolean inService) {
                    reported.add(inService ? "in" : "out");
                }

                @Override
                public void weightChanged(RealServer r, int weight) {
                    reported.add("weight " + weight);
                }

                @Override
                public void failed(RealServer r) {
                    reported.add("failed");
                }
            });
        }

        @Test
        void reportsAdministrativeCommandsWeightsAndDetectedFailures() {
            real.takeOutOfService();
            real.putInService();
            real.setWeight(0);
            real.setWeight(5);
            fail();
            real.putInService();
            real.failInBand(ticker.nanos(), "resource cause");

            assertThat(reported).containsExactly("out", "in", "weight 0", "weight 5", "failed", "in", "failed");
        }

        @Test
        void appliesAnotherNodesChangesWithoutReportingThem() {
            real.applyAdmin(false);
            assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);
            real.applyAdmin(true);
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            real.applyWeight(0);
            assertThat(real.state()).isEqualTo(RealState.DFP_THROTTLED);
            real.applyWeight(8);
            real.applyFailure(ticker.nanos());
            assertThat(real.state()).isEqualTo(RealState.FAILED);
            assertThat(real.failures()).isEqualTo(1);

            assertThat(reported).isEmpty();
        }

        @Test
        void aFailureOnAnotherNodeCountsTheRetryTimerFromWhenItHappened() {
            long failedThere = ticker.nanos();
            ticker.advance(Duration.ofSeconds(50)); // the news arrived late, or this node joined later
            real.applyFailure(failedThere);
            real.tick(ticker.nanos());
            assertThat(real.state()).isEqualTo(RealState.FAILED);

            ticker.advance(Duration.ofSeconds(10));
            real.tick(ticker.nanos());
            assertThat(real.state()).isEqualTo(RealState.READY_TO_TEST);
        }

        @Test
        void aFailureOnAnotherNodeSendsARealWaitingForItsTestBackToFailed() {
            fail();
            ticker.advance(AFTER_RETRY);
            real.tick(ticker.nanos());
            assertThat(real.state()).isEqualTo(RealState.READY_TO_TEST);

            real.applyFailure(ticker.nanos());

            assertThat(real.state()).isEqualTo(RealState.FAILED);
        }

        @Test
        void anOutOfServiceRealStaysOutOfServiceWhenAnotherNodeSeesItFail() {
            real.takeOutOfService();
            real.applyFailure(ticker.nanos());
            assertThat(real.state()).isEqualTo(RealState.OUTOFSERVICE);
        }
    }

    /** A reload's new configured weight and maxconns. */
    @Nested
    class Reconfiguration {

        private final java.util.List<Integer> shared = new java.util.ArrayList<>();

        @BeforeEach
        void listen() {
            real.stateListener(new RealStateListener() {
                @Override
                public void weightChanged(RealServer r, int weight) {
                    shared.add(weight);
                }
            });
        }

        @Test
        void theRunningWeightFollowsANewStaticWeightAndIsShared() {
            int before = candidacyChanges.get();

            assertThat(real.configureWeight(4)).isTrue();

            assertThat(real.staticWeight()).isEqualTo(4);
            assertThat(real.weight()).isEqualTo(4);
            assertThat(shared).containsExactly(4);
            assertThat(candidacyChanges.get()).as("the predictor rebuilds").isGreaterThan(before);
        }

        @Test
        void aDynamicWeightStaysUntilSetAgain() {
            real.setWeight(3);
            shared.clear();

            assertThat(real.configureWeight(4)).isFalse();

            assertThat(real.staticWeight()).isEqualTo(4);
            assertThat(real.weight()).as("the dynamic weight").isEqualTo(3);
            assertThat(shared).isEmpty();
        }

        @Test
        void aLowerMaxconnsThrottlesAtOnceAndAHigherOneLifts() {
            real.requestForwarded();
            real.requestForwarded();

            real.configureMaxConns(2);
            assertThat(real.state()).isEqualTo(RealState.MAXCONNS_THROTTLED);
            assertThat(real.tryTakeNewWork()).isFalse();

            real.configureMaxConns(Integer.MAX_VALUE);
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
            assertThat(real.maxConns()).isEqualTo(Integer.MAX_VALUE);
            assertThat(real.tryTakeNewWork()).isTrue();
        }
    }
}
