package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.probe.ProbeScheduler;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GTP Echo probes (v1 and v2) against stand-in peers on 127.0.6.1/.2: reachability, and the Recovery
 * value tracked per real, a change of which is reported once as a restart.
 */
class GtpEchoProbeIT {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<String> restarts = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Vertx vertx;
    private ProbeScheduler scheduler;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() throws Exception {
        if (scheduler != null) {
            scheduler.stop();
        }
        for (AutoCloseable c : closing) {
            c.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private GtpEchoResponder responder(String address, int recovery) throws Exception {
        GtpEchoResponder r = new GtpEchoResponder(address, recovery);
        closing.add(r);
        return r;
    }

    private Farms probed(int version, GtpEchoResponder... peers) {
        List<RealConfig> reals = new ArrayList<>();
        for (GtpEchoResponder p : peers) {
            reals.add(new RealConfig(p.address().getAddress(), p.address().getPort(), 1, OptionalInt.empty(), true));
        }
        ProbeConfig probe = new ProbeConfig("echo", new GtpEchoCheck(version, 0, true), Duration.ofMillis(100),
                Duration.ofMillis(400), 2, OptionalInt.empty());
        FarmConfig farm = new FarmConfig("pgw", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT, reals,
                Optional.empty(), List.of("echo"));
        Farms farms = new Farms(Map.of("pgw", farm));
        scheduler = new ProbeScheduler(vertx, farms, Map.of("pgw", farm), Map.of("echo", probe), registry,
                (real, previous, current, purge) -> restarts.add(real.id() + " " + previous + "->" + current + " " + purge));
        scheduler.start();
        return farms;
    }

    private double checks(RealServer real, String result) {
        var counter = registry.find("switchboard.probe.checks").tag("real", real.id()).tag("result", result).counter();
        return counter == null ? 0 : counter.count();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aChangedRecoveryIsOneRestartAndSilenceFailsTheReal(int version) throws Exception {
        GtpEchoResponder a = responder("127.0.6.1", 7);
        GtpEchoResponder b = responder("127.0.6.2", 200);
        Farms farms = probed(version, a, b);
        RealServer realA = farms.farm("pgw").reals().get(0);
        RealServer realB = farms.farm("pgw").reals().get(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> checks(realA, "pass") >= 3 && checks(realB, "pass") >= 3);
        assertThat(restarts).isEmpty();

        a.recovery = 8; // A restarted: one restart reported, B's unchanged counter reports none
        await().atMost(Duration.ofSeconds(10)).until(() -> !restarts.isEmpty());
        double passed = checks(realA, "pass");
        await().atMost(Duration.ofSeconds(10)).until(() -> checks(realA, "pass") >= passed + 3);
        assertThat(restarts).containsExactly(realA.id() + " 7->8 true");
        assertThat(realA.state()).isEqualTo(RealState.OPERATIONAL);

        b.silent = true; // unreachable: failed after two checks without answer
        await().atMost(Duration.ofSeconds(10)).until(() -> realB.state() == RealState.PROBE_FAILED);
        b.silent = false;
        await().atMost(Duration.ofSeconds(10)).until(() -> realB.state() == RealState.OPERATIONAL);

        a.wrongSequence = true; // an answer to another request does not count
        await().atMost(Duration.ofSeconds(10)).until(() -> realA.state() == RealState.PROBE_FAILED);
        assertThat(restarts).hasSize(1);
    }
}
