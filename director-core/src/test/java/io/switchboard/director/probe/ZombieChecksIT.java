package io.switchboard.director.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.ZombieChecks;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.spi.RealView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Status checks (FreeRADIUS's home_server) in the scheduler: a zombie (failed in band) is checked at
 * the check interval and revived by one answer; unanswered for the zombie period it is dead
 * (PROBE_FAILED); a dead real needs answers-to-alive answers in a row.
 */
class ZombieChecksIT {

    /** Long: a real that serves is checked once in this test; every other check is a zombie's. */
    private static final Duration INTERVAL = Duration.ofMinutes(10);
    private static final Duration CHECK_INTERVAL = Duration.ofMillis(50);
    private static final Duration ZOMBIE_PERIOD = Duration.ofMillis(400);
    private static final int ANSWERS_TO_ALIVE = 3;

    private final Vertx vertx = Vertx.vertx();
    private ProbeScheduler scheduler;

    /** A check whose answer the test sets; it notes the real's state at each check. */
    record Scripted(AtomicBoolean answers, List<RealState> seen, ZombieChecks checks) implements ProbeCheck {
        @Override
        public String type() {
            return "scripted";
        }

        @Override
        public Optional<ZombieChecks> zombies() {
            return Optional.of(checks);
        }

        @Override
        public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
            return new Probe() {
                @Override
                public Future<Void> check(InetSocketAddress target) {
                    return answers.get() ? Future.succeededFuture() : Future.failedFuture("paused");
                }

                @Override
                public Future<Void> check(RealView real, InetSocketAddress target) {
                    // The answer is read first: a check noted after the test resumes answers never
                    // answers from before, so the first answers after it are all counted below.
                    Future<Void> result = check(target);
                    seen.add(real.state());
                    return result;
                }
            };
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (scheduler != null) {
            scheduler.stop();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aZombieIsRevivedByOneAnswerDeadAfterTheZombiePeriodAndAliveAfterAnswersInARow() throws Exception {
        AtomicBoolean answers = new AtomicBoolean(true);
        List<RealState> seen = new CopyOnWriteArrayList<>();
        Scripted check = new Scripted(answers, seen,
                new ZombieChecks(Optional.of(CHECK_INTERVAL), ZOMBIE_PERIOD, ANSWERS_TO_ALIVE));
        ProbeConfig probe = new ProbeConfig("status", check, INTERVAL, Duration.ofMillis(200), 2, OptionalInt.empty());
        RealConfig rc = new RealConfig(InetAddress.getByName("127.0.0.1"), 1812, 1, OptionalInt.empty(), true);
        FarmConfig farm = new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT, List.of(rc),
                Optional.empty(), List.of("status"));
        Farms farms = new Farms(Map.of("aaa", farm));
        scheduler = new ProbeScheduler(vertx, farms, Map.of("aaa", farm), Map.of("status", probe),
                new SimpleMeterRegistry());
        RealServer real = farms.real("aaa", "127.0.0.1:1812");
        scheduler.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 1);

        // Zombie: checked at the check interval (not the ten-minute interval), one answer revives it.
        real.failInBand(System.nanoTime(), "requests unanswered");
        await().atMost(Duration.ofSeconds(5)).until(() -> real.state() == RealState.OPERATIONAL);
        assertThat(seen).contains(RealState.FAILED);

        // A zombie that answers nothing: still a zombie within the zombie period, dead after it.
        answers.set(false);
        long failedAt = System.nanoTime();
        real.failInBand(failedAt, "requests unanswered");
        await().atMost(Duration.ofSeconds(5)).until(() -> real.state() == RealState.PROBE_FAILED);
        assertThat(Duration.ofNanos(System.nanoTime() - failedAt)).isGreaterThanOrEqualTo(ZOMBIE_PERIOD);
        long zombieChecks = seen.stream().filter(RealState::zombie).count();
        assertThat(zombieChecks).as("checks while a zombie, every %s", CHECK_INTERVAL).isGreaterThanOrEqualTo(3);

        // Dead: the first answers do not bring it back, the third in a row does.
        int before = seen.size();
        answers.set(true);
        await().atMost(Duration.ofSeconds(5)).until(() -> real.state() == RealState.OPERATIONAL);
        List<RealState> afterResume = seen.subList(before, seen.size());
        assertThat(afterResume.subList(0, ANSWERS_TO_ALIVE))
                .as("the real's state at the answers it needed").containsOnly(RealState.PROBE_FAILED);
    }
}
