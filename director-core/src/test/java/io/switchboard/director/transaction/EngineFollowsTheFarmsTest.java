package io.switchboard.director.transaction;

import static io.switchboard.director.testing.ToyPlugin.answer;
import static io.switchboard.director.testing.ToyPlugin.request;
import static io.switchboard.director.transaction.EngineFixture.ALICE;
import static io.switchboard.director.transaction.EngineFixture.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.EngineHarness.ToReal;
import io.switchboard.director.testing.TestFarms;
import io.switchboard.director.testing.ToyPlugin;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A running engine while a reload adds and removes reals: new reals take work, a removed real's answers still match. */
class EngineFollowsTheFarmsTest {

    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";

    private final EngineFixture fixture = new EngineFixture(FailureDetection.DEFAULT, A);

    private static FarmConfig toys(String... reals) {
        return TestFarms.farm("toys", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                java.util.Arrays.stream(reals).map(r -> TestFarms.real(r, 1)).toArray(io.switchboard.director.config.RealConfig[]::new));
    }

    @Test
    void aRealAddedAfterTheEngineStartedTakesRequestsAndItsAnswersAreRelayed() {
        // Narrow ids over several sockets: the per-real, per-socket counts must cover the new slot.
        EngineHarness engine = fixture.harness(new ToyPlugin().idBits(8).sockets(4), false);
        engine.fromClient(request(1, "x;1"), ALICE);

        fixture.farms.reconfigure(Map.of("toys", toys(A, B)));
        RealServer b = fixture.real(B);
        assertThat(b.slot()).as("a new slot, after every slot handed out").isGreaterThan(fixture.real(A).slot());
        for (int i = 2; i <= 601; i++) {
            engine.fromClient(request(i, "x;" + i), ALICE);
        }

        List<ToReal> toB = engine.toReals().stream().filter(s -> s.real() == b).toList();
        assertThat(toB).as("round robin over A and B").hasSize(300);
        assertThat(toB).as("more than one socket's 256 ids toward B").anyMatch(s -> s.socket() > 0);
        toB.forEach(sent -> engine.answer(sent, answer(sent.bytes(), "ok")));
        assertThat(engine.toClients()).hasSize(300);
        assertThat(b.answered()).isEqualTo(300);
        assertThat(b.connections()).isZero();
    }

    @Test
    void anAnswerFromARemovedRealIsMatchedUntilTheResponseTimeout() {
        fixture.farms.reconfigure(Map.of("toys", toys(A, B)));
        EngineHarness engine = fixture.harness(new ToyPlugin(), false);
        RealServer b = fixture.real(B);
        engine.fromClient(request(1, "x;1"), ALICE);
        engine.fromClient(request(2, "x;2"), ALICE);
        ToReal toB = engine.toReals().stream().filter(s -> s.real() == b).findFirst().orElseThrow();

        assertThat(fixture.farms.leaving(b)).isTrue();
        assertThat(fixture.farms.leave(b, false)).isTrue();
        assertThat(fixture.farms.real("toys", b.id())).isNull();
        engine.answer(toB, answer(toB.bytes(), "late but in time"));

        assertThat(engine.toClients()).hasSize(1);
        assertThat(b.answered()).isEqualTo(1);

        // Once a response timeout went by, nothing it was sent can be answered: its address is no real's.
        engine.fromClient(request(3, "x;3"), ALICE);
        assertThat(engine.lastToReal().real()).as("only A is left").isSameAs(fixture.real(A));
        fixture.ticker.advance(TIMEOUT.plus(Duration.ofMillis(1)));
        engine.housekeep();
        engine.answer(toB, answer(toB.bytes(), "too late"));
        assertThat(engine.metrics().unmatchedCount("unknown-source")).isEqualTo(1);
    }
}
