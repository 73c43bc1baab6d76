package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.config.ZombieChecks;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Status-Server (RFC 5997) both ways, against real peers: {@code radclient status} asks the director,
 * which answers for itself (an Access-Accept on its authentication virtual server, an
 * Accounting-Response on its accounting one) while its real serves, and stays silent when it does
 * not; the director's RADIUS probe, with FreeRADIUS's home_server status checks, checks a FreeRADIUS
 * 3.2 real ({@code status_server = yes}, Debian's default) that stops answering (the test pauses the
 * process it started, SIGSTOP / SIGCONT by its pid): zombie, revived by one answer; dead after the
 * zombie period; alive again after answers-to-alive answers in a row. Secrets differ on each hop.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StatusServerIT {

    static final String CLIENT_SECRET = "nas-to-director";
    static final String REAL_SECRET = "director-to-aaa";
    static final String ADDRESS = "127.0.0.5";
    static final Duration CHECK_INTERVAL = Duration.ofMillis(200);
    static final Duration ZOMBIE_PERIOD = Duration.ofMillis(1500);
    static final int ANSWERS_TO_ALIVE = 2;

    @TempDir
    static Path work;

    static Process server;
    static Path dir;
    static int authPort;
    static int acctPort;
    static Vertx vertx;
    static Director director;
    static InetSocketAddress authVip;
    static InetSocketAddress acctVip;
    static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() throws Exception {
        authPort = FreeRadiusIT.freePort(ADDRESS);
        acctPort = FreeRadiusIT.freePort(ADDRESS);
        dir = work.resolve("aaa");
        FreeRadiusProcess.Result made = FreeRadiusProcess.run(work, List.of("bash", FreeRadiusIT.script().toString(), dir.toString(), "aaa", ADDRESS,
                String.valueOf(authPort), String.valueOf(acctPort), REAL_SECRET), 60);
        assertThat(made.exit()).as(made.output()).isZero();
        startServer();
        InetAddress address = InetAddress.getByName(ADDRESS);
        RealConfig auth = new RealConfig(address, authPort, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, REAL_SECRET);
        RealConfig acct = new RealConfig(address, acctPort, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, REAL_SECRET);
        // One unanswered request fails the real in band (a zombie); the retry timer is far away, so
        // only the status checks bring it back.
        FailureDetection failure = new FailureDetection(1, 1, Duration.ofMinutes(10));
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("aaa-auth", new FarmConfig("aaa-auth", PredictorKind.ROUNDROBIN, failure, List.of(auth),
                Optional.empty(), List.of("home-server")));
        farms.put("aaa-acct", new FarmConfig("aaa-acct", PredictorKind.ROUNDROBIN, failure, List.of(acct),
                Optional.empty(), List.of()));
        // A ten-minute interval: a real that serves is checked once here; every later check is a zombie's.
        ProbeConfig probe = new ProbeConfig("home-server", new RadiusCheck("", Optional.empty(), Optional.empty(),
                Optional.of(new ZombieChecks(Optional.of(CHECK_INTERVAL), ZOMBIE_PERIOD, ANSWERS_TO_ALIVE))),
                Duration.ofMinutes(10), Duration.ofMillis(500), 3, OptionalInt.empty());
        RadiusOptions options = new RadiusOptions(List.of(
                new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"), 32, CLIENT_SECRET)));
        InetAddress vip = InetAddress.getByName("127.0.0.10");
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        vservers.put("radius-auth", new VirtualServerConfig("radius-auth", new Endpoint(vip, 0), "radius",
                "aaa-auth", Optional.empty(), Duration.ofMillis(700), Duration.ofMinutes(1), 4096, true,
                options.withStatusServer(RadiusOptions.StatusServerPort.ACCESS)));
        vservers.put("radius-acct", new VirtualServerConfig("radius-acct", new Endpoint(vip, 0), "radius",
                "aaa-acct", Optional.empty(), Duration.ofMillis(700), Duration.ofMinutes(1), 4096, true,
                options.withStatusServer(RadiusOptions.StatusServerPort.ACCOUNTING)));
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms, vservers,
                Map.of("home-server", probe)), vs -> new RadiusService(), registry, Ticker.SYSTEM);
        vertx = Vertx.vertx();
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        authVip = director.localAddress("radius-auth");
        acctVip = director.localAddress("radius-acct");
    }

    @AfterAll
    static void stop() throws Exception {
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (server != null && server.isAlive()) {
            signal("CONT"); // a stopped process takes its SIGTERM only once continued
            FreeRadiusProcess.stop(server);
        }
    }

    static void startServer() throws IOException {
        server = FreeRadiusProcess.start(dir);
    }

    /** SIGSTOP or SIGCONT to the FreeRADIUS this test started, by its pid. */
    static void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(server.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -" + name).isTrue();
    }


    /** radclient, one try of {@code seconds}, one request of {@code type} to {@code vip}. */
    static FreeRadiusProcess.Result radclient(InetSocketAddress vip, String type, String secret, String request, int seconds)
            throws IOException, InterruptedException {
        Path file = Files.createTempFile(work, "request", ".txt");
        Files.writeString(file, request + "\n");
        return FreeRadiusProcess.run(work, List.of("radclient", "-x", "-t", String.valueOf(seconds), "-r", "1", "-f", file.toString(),
                vip.getAddress().getHostAddress() + ":" + vip.getPort(), type, secret), 30);
    }

    /** {@code radclient status} to {@code vip}. */
    static FreeRadiusProcess.Result status(InetSocketAddress vip) throws IOException, InterruptedException {
        return radclient(vip, "status", CLIENT_SECRET, "Message-Authenticator = 0x00", 1);
    }

    static RealServer real() {
        return director.farms().real("aaa-auth", ADDRESS + ":" + authPort);
    }

    static double passedChecks() {
        var counter = registry.find("switchboard.probe.checks").tag("real", ADDRESS + ":" + authPort)
                .tag("result", "pass").counter();
        return counter == null ? 0 : counter.count();
    }

    /** An Access-Request through the director that the paused real leaves unanswered: the real is a zombie. */
    static void failInBand() throws Exception {
        FreeRadiusProcess.Result r = radclient(authVip, "auth", CLIENT_SECRET, FreeRadiusIT.access("zombie-maker", "491700000001"), 2);
        assertThat(r.output()).contains("No reply");
        await().atMost(Duration.ofSeconds(5)).until(() -> real().state().zombie());
    }

    @Test
    @Order(1)
    void radclientStatusIsAnsweredByTheDirectorItselfAccessAcceptOrAccountingResponse() throws Exception {
        long forwarded = real().forwarded();
        FreeRadiusProcess.Result auth = status(authVip);
        assertThat(auth.exit()).as(auth.output()).isZero();
        assertThat(auth.output()).contains("Received Access-Accept");

        FreeRadiusProcess.Result acct = status(acctVip);
        assertThat(acct.exit()).as(acct.output()).isZero();
        assertThat(acct.output()).contains("Received Accounting-Response");

        assertThat(real().forwarded()).as("Status-Server is never forwarded").isEqualTo(forwarded);
        assertThat(registry.find("switchboard.radius.status.server").tag("vserver", "radius-auth")
                .tag("outcome", "answered").counter().count()).isEqualTo(1);
        // With the wrong secret radclient's Message-Authenticator does not verify: discarded.
        FreeRadiusProcess.Result wrong = radclient(authVip, "status", "not-the-secret", "Message-Authenticator = 0x00", 1);
        assertThat(wrong.output()).contains("No reply");
    }

    @Test
    @Order(2)
    void aZombieThatAnswersAStatusCheckIsBackAtOnce() throws Exception {
        signal("STOP");
        failInBand();
        // No real serves: the director does not answer, and the NAS fails over to another director.
        FreeRadiusProcess.Result silent = status(authVip);
        assertThat(silent.exit()).isNotZero();
        assertThat(silent.output()).contains("No reply");

        double passed = passedChecks();
        signal("CONT");
        await().atMost(ZOMBIE_PERIOD).until(() -> real().state() == RealState.OPERATIONAL);
        assertThat(passedChecks() - passed).as("one answer revives a zombie").isGreaterThanOrEqualTo(1);
        assertThat(status(authVip).output()).contains("Received Access-Accept");
    }

    @Test
    @Order(3)
    void aZombieUnansweredForTheZombiePeriodIsDeadAndComesBackAfterAnswersInARow() throws Exception {
        signal("STOP");
        long zombieAt = System.nanoTime();
        failInBand();
        await().atMost(Duration.ofSeconds(10)).until(() -> real().state() == RealState.PROBE_FAILED);
        assertThat(Duration.ofNanos(System.nanoTime() - zombieAt)).isGreaterThanOrEqualTo(ZOMBIE_PERIOD);

        double passed = passedChecks();
        signal("CONT");
        await().atMost(Duration.ofSeconds(10)).until(() -> real().state() == RealState.OPERATIONAL);
        assertThat(passedChecks() - passed).as("answers in a row to bring a dead real back")
                .isGreaterThanOrEqualTo(ANSWERS_TO_ALIVE);
        assertThat(status(authVip).output()).contains("Received Access-Accept");
    }
}
