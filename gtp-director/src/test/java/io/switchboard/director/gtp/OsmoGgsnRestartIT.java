package io.switchboard.director.gtp;

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
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GTP Echo probe against a real peer: osmo-ggsn on 127.0.6.10 answers the probe's GTPv1 Echo
 * Requests with its restart counter, which it keeps in its state directory and increments at every
 * start. Restarted, it answers with the next value: the director counts one restart and purges the
 * IMSI bindings to it (and only those). Needs root, {@code /dev/net/tun} and {@code osmo-ggsn}.
 */
class OsmoGgsnRestartIT {

    private static final String GGSN = "127.0.6.10";
    private static final String VIP = "127.0.6.11";
    /** libgtp keeps its restart counter in this file of the state directory (gtp.c, RESTART_FILE). */
    private static final String RESTART_FILE = "gsn_restart";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aRestartedGgsnIsSeenByItsRecoveryAndItsBindingsArePurged() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/osmo-ggsn")), "osmo-ggsn is not installed");
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/net/tun")), "/dev/net/tun is missing");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "osmo-ggsn needs root for its tun device");
        Path config = dir.resolve("osmo-ggsn.cfg");
        Files.writeString(config, OsmoGgsnIT.ggsnConfig(6, GGSN, dir,
                "sbr" + Long.toHexString(ProcessHandle.current().pid() & 0xffff)));

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        FarmConfig farm = new FarmConfig("ggsn", PredictorKind.ROUNDROBIN, new FailureDetection(8, 2, Duration.ofMinutes(1)),
                List.of(new RealConfig(InetAddress.getByName(GGSN), 2123, 1, OptionalInt.empty(), true),
                        new RealConfig(InetAddress.getByName("127.0.6.12"), 2123, 1, OptionalInt.empty(), true)),
                Optional.empty(), List.of("echo"));
        VirtualServerConfig vs = new VirtualServerConfig("gtp-c", new Endpoint(InetAddress.getByName(VIP), 0),
                "gtp", "ggsn",
                Optional.of(new StickyConfig(List.of(GtpModule.IMSI), Duration.ofHours(1), OptionalInt.empty(), 1000)),
                Duration.ofSeconds(3), Duration.ofMinutes(1), 4096, true,
                new GtpOptions(Set.of(1), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1, GtpOptions.DEFAULT_RESOURCE_CAUSES_V2,
                        List.of(), GtpOptions.DEFAULT.v0TidOrder(), 7));
        ProbeConfig echo = new ProbeConfig("echo", new GtpEchoCheck(1, 0, true), Duration.ofMillis(200),
                Duration.ofMillis(500), 2, OptionalInt.empty());
        Director director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of("ggsn", farm), Map.of("gtp-c", vs), Map.of("echo", echo)), v -> new GtpService(), registry,
                Ticker.SYSTEM);
        Vertx vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true)); // epoll, as `switchboard run`
        Process ggsn = start(config, dir.resolve("log-1"));
        try {
            int firstCounter = restartCounter();
            director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            RealServer real = director.farms().real("ggsn", GGSN + ":2123");
            RealServer absent = director.farms().real("ggsn", "127.0.6.12:2123");
            await().atMost(WAIT).until(() -> checks(registry, real, "pass") >= 2);
            await().atMost(WAIT).until(() -> absent.state() == RealState.PROBE_FAILED); // nothing answers there
            assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);

            StickyTable sticky = director.virtualServers().get("gtp-c").selector().sticky();
            StickyKey onGgsn = GtpPlugin.imsiKey("262420000000001");
            StickyKey elsewhere = GtpPlugin.imsiKey("262420000000002");
            sticky.bindIfAbsent(onGgsn, new StickyBinding("ggsn", real.id()), Ticker.SYSTEM.nanos());
            sticky.bindIfAbsent(elsewhere, new StickyBinding("ggsn", absent.id()), Ticker.SYSTEM.nanos());

            stop(ggsn);
            ggsn = start(config, dir.resolve("log-2"));
            assertThat(restartCounter()).as("osmo-ggsn's own restart counter").isEqualTo((firstCounter + 1) & 0xff);

            await().atMost(WAIT).until(() -> restarts(registry, real) == 1);
            await().atMost(WAIT).until(() -> sticky.lookup(onGgsn, Ticker.SYSTEM.nanos()) == null);
            assertThat(sticky.lookup(elsewhere, Ticker.SYSTEM.nanos())).isEqualTo(new StickyBinding("ggsn", absent.id()));
            double passed = checks(registry, real, "pass");
            await().atMost(WAIT).until(() -> checks(registry, real, "pass") >= passed + 2);
            assertThat(restarts(registry, real)).as("the new counter is not a second restart").isEqualTo(1);
        } finally {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            stop(ggsn);
        }
    }

    private Process start(Path config, Path log) throws Exception {
        Process p = new ProcessBuilder("/usr/bin/osmo-ggsn", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        await().atMost(WAIT).until(() -> !p.isAlive() || Files.readString(log).contains("Successfully started"));
        assertThat(p.isAlive()).as("osmo-ggsn running; log:%n%s", Files.readString(log)).isTrue();
        return p;
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private int restartCounter() throws Exception {
        return Integer.parseInt(Files.readString(dir.resolve(RESTART_FILE)).trim());
    }

    private static double checks(SimpleMeterRegistry registry, RealServer real, String result) {
        var c = registry.find("switchboard.probe.checks").tag("real", real.id()).tag("result", result).counter();
        return c == null ? 0 : c.count();
    }

    private static double restarts(SimpleMeterRegistry registry, RealServer real) {
        var c = registry.find("switchboard.real.restarts").tag("real", real.id()).counter();
        return c == null ? 0 : c.count();
    }
}
