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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WeightedRoundRobinTest {

    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";
    private static final String C = "10.0.0.3";

    private static ServerFarm farmOf(RealConfig... reals) {
        return new ServerFarm(farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, reals), 0);
    }

    /** Names (A, B, C) of the reals picked, in order; "-" for no real. */
    private static String picks(ServerFarm farm, int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RealServer r = farm.pick(i);
            names.add(r == null ? "-" : name(r));
        }
        return String.join(",", names);
    }

    private static String name(RealServer r) {
        String address = r.address().getAddress().getHostAddress();
        return switch (address) {
            case A -> "A";
            case B -> "B";
            case C -> "C";
            default -> address;
        };
    }

    private static void failNow(RealServer real) {
        real.requestForwarded();
        real.requestUnanswered(ip("192.0.2.1"), 0);
        assertThat(real.state()).isEqualTo(RealState.FAILED);
    }

    @Test
    void weightsThreeOneTwoGiveConsecutiveTurnsInConfigurationOrder() {
        ServerFarm farm = farmOf(real(A, 3), real(B, 1), real(C, 2));

        assertThat(picks(farm, 18)).isEqualTo("A,A,A,B,C,C,A,A,A,B,C,C,A,A,A,B,C,C");
    }

    @Test
    void equalWeightsAlternate() {
        ServerFarm farm = farmOf(real(A, 1), real(B, 1));

        assertThat(picks(farm, 5)).isEqualTo("A,B,A,B,A");
    }

    @Test
    void aFailedRealIsSkippedAndTheOthersKeepTheirOrder() {
        ServerFarm farm = farmOf(real(A, 3), real(B, 1), real(C, 2));
        failNow(farm.reals().get(1));

        assertThat(picks(farm, 10)).isEqualTo("A,A,A,C,C,A,A,A,C,C");
    }

    @Test
    void anOutOfServiceRealIsSkippedAndTheOthersKeepTheirOrder() {
        ServerFarm farm = farmOf(real(A, 3), real(B, 1), real(C, 2));
        farm.reals().get(0).takeOutOfService();

        assertThat(picks(farm, 6)).isEqualTo("B,C,C,B,C,C");
    }

    @Test
    void aRealBackInServiceGetsItsTurnsAgain() {
        ServerFarm farm = farmOf(real(A, 3), real(B, 1), real(C, 2));
        RealServer b = farm.reals().get(1);
        b.takeOutOfService();
        assertThat(picks(farm, 5)).isEqualTo("A,A,A,C,C");

        b.putInService();

        // The rotation runs on from where it was (restarting it at every rebuild would favour the
        // first reals): the next six picks are the IOS schedule, rotated.
        String next = picks(farm, 6);
        assertThat("A,A,A,B,C,C,A,A,A,B,C,C").contains(next);
    }

    @Test
    void aMaxconnsThrottledRealIsSkippedForItsTurnOnly() {
        ServerFarm farm = farmOf(real(A, 3), real(B, 1, 1), real(C, 2));
        RealServer b = farm.reals().get(1);
        b.requestForwarded();
        assertThat(b.state()).isEqualTo(RealState.MAXCONNS_THROTTLED);

        // B's turn goes to the next real in the schedule.
        assertThat(picks(farm, 10)).isEqualTo("A,A,A,C,C,A,A,A,C,C");

        b.requestAnswered();

        // Not rebuilt: B keeps its place in the schedule and takes its next turn.
        assertThat(picks(farm, 6)).isEqualTo("A,A,A,B,C,C");
    }

    @Test
    void aWeightChangeRebuildsTheSchedule() {
        ServerFarm farm = farmOf(real(A, 3), real(B, 1), real(C, 2));

        farm.reals().get(1).setWeight(2);
        farm.reals().get(0).setWeight(1);

        assertThat(picks(farm, 10)).isEqualTo("A,B,B,C,C,A,B,B,C,C");
    }

    @Test
    void weightZeroTakesTheRealOutOfTheSchedule() {
        ServerFarm farm = farmOf(real(A, 3), real(B, 1), real(C, 2));

        farm.reals().get(2).setWeight(0);

        assertThat(picks(farm, 8)).isEqualTo("A,A,A,B,A,A,A,B");
    }

    @Test
    void noRealWhenNoneMayTakeWork() {
        ServerFarm farm = farmOf(real(A, 3), real(B, 1, 1));
        farm.reals().get(0).takeOutOfService();
        farm.reals().get(1).requestForwarded();

        assertThat(farm.pick(0)).isNull();
    }

    @Test
    void aReadyToTestRealGetsExactlyOneRequest() {
        ServerFarm farm = farmOf(real(A, 1), real(B, 1));
        RealServer b = farm.reals().get(1);
        failNow(b);
        farm.tick(FAIL_AT_ONCE.retry().plusSeconds(1).toNanos());
        assertThat(b.state()).isEqualTo(RealState.READY_TO_TEST);

        List<RealServer> picked = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            picked.add(farm.pick(i));
        }

        assertThat(picked).containsOnly(farm.reals().get(0), b);
        assertThat(picked).filteredOn(r -> r == b).hasSize(1);
        assertThat(b.state()).isEqualTo(RealState.TESTING);
    }
}
