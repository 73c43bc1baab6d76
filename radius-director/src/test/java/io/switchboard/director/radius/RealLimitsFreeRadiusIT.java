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
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.RealLimits;
import io.switchboard.director.config.RemovalPolicy;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyTable;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * IOS SLB's {@code maxclients}, {@code failaction purge} and {@code no faildetect inband} through a
 * running director in front of two real FreeRADIUS servers (as {@link FreeRadiusIT}: Debian
 * {@code freeradius}, driven by {@code radclient}); which server took a subscriber is read from the
 * servers' own authentication logs. Three virtual servers, each with its own farm over the same two
 * servers and its own Calling-Station-Id sticky table.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealLimitsFreeRadiusIT {

    static final String CLIENT_SECRET = "nas-to-director";
    static final String[] REAL_SECRETS = {"director-to-aaa1", "director-to-aaa2"};
    static final String[] ADDRESSES = {"127.0.0.2", "127.0.0.3"};
    private static final Pattern LOGIN = Pattern.compile("Login OK: \\[([^\\]]*)\\] .* cli (\\S+)\\)");

    @TempDir
    static Path work;

    static final List<Process> servers = new ArrayList<>();
    static final Path[] dirs = new Path[2];
    static final int[] authPorts = new int[2];
    static Vertx vertx;
    static Director director;
    static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() throws Exception {
        for (int i = 0; i < 2; i++) {
            authPorts[i] = freePort(ADDRESSES[i]);
            dirs[i] = work.resolve("aaa" + (i + 1));
            FreeRadiusProcess.run(work, List.of("bash", FreeRadiusIT.script().toString(), dirs[i].toString(),
                    "aaa" + (i + 1), ADDRESSES[i], String.valueOf(authPorts[i]),
                    String.valueOf(freePort(ADDRESSES[i])), REAL_SECRETS[i]), 60);
            servers.add(FreeRadiusProcess.start(dirs[i]));
        }
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        // aaa1 takes at most two subscribers (IOS maxclients 2); weighted round robin 1/1 otherwise.
        farms.put("limited", farm("limited", FailureDetection.DEFAULT,
                new RealLimits(OptionalInt.empty(), OptionalInt.of(2))));
        // aaa1 takes at most one new subscriber per second (IOS rate 1).
        farms.put("rated", farm("rated", FailureDetection.DEFAULT, new RealLimits(OptionalInt.of(1), OptionalInt.empty())));
        // One unanswered request fails a real; the failed real's bindings go at once (failaction purge).
        farms.put("purging", farm("purging", new FailureDetection(1, 1, Duration.ofMinutes(5), true, true),
                RealLimits.NONE));
        // The same thresholds without in-band detection (no faildetect inband): only probes would fail it.
        farms.put("probes-only", farm("probes-only", new FailureDetection(1, 1, Duration.ofMinutes(5), false, false),
                RealLimits.NONE));
        RadiusOptions options = new RadiusOptions(List.of(
                new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"), 32, CLIENT_SECRET)),
                RadiusOptions.FramedIp.DEFAULT, RadiusOptions.DEFAULT_STATE_IDLE, Optional.empty());
        InetAddress vip = InetAddress.getByName("127.0.0.10");
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        for (String name : farms.keySet()) {
            StickyConfig sticky = new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID), Duration.ofHours(1),
                    OptionalInt.empty(), 100_000, Optional.empty());
            vservers.put(name, new VirtualServerConfig(name, new Endpoint(vip, 0), "radius", name, Optional.of(sticky),
                    Duration.ofMillis(700), Duration.ofMinutes(1), 4096, true, options));
        }
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms, vservers),
                vs -> new RadiusService(), registry, Ticker.SYSTEM);
        vertx = Vertx.vertx();
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** A farm over both servers, weight 1 each, aaa1 with {@code limits}. */
    static FarmConfig farm(String name, FailureDetection failure, RealLimits aaa1Limits) throws IOException {
        List<RealConfig> reals = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            reals.add(new RealConfig(InetAddress.getByName(ADDRESSES[i]), authPorts[i], 1, OptionalInt.empty(), true,
                    Map.of(), RemovalPolicy.DEFAULT, i == 0 ? aaa1Limits : RealLimits.NONE)
                    .with(RadiusModule.SECRET, REAL_SECRETS[i]));
        }
        return new FarmConfig(name, PredictorKind.ROUNDROBIN, failure, reals, Optional.empty());
    }

    @AfterAll
    static void stop() throws Exception {
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        for (Process p : servers) {
            FreeRadiusProcess.stop(p);
        }
    }

    static int freePort(String address) throws IOException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(address, 0))) {
            return s.getLocalPort();
        }
    }

    static FreeRadiusProcess.Result radclient(String vs, List<String> csids, String... options)
            throws IOException, InterruptedException {
        List<String> requests = csids.stream().map(c -> "User-Name = \"user-" + c + "\"\nUser-Password = \"testpw\""
                + "\nCalling-Station-Id = \"" + c + "\"\nMessage-Authenticator = 0x00").toList();
        Path file = Files.createTempFile(work, "requests", ".txt");
        Files.writeString(file, String.join("\n\n", requests) + "\n");
        InetSocketAddress vip = director.localAddress(vs);
        List<String> command = new ArrayList<>(List.of("radclient", "-x"));
        command.addAll(List.of(options));
        command.addAll(List.of("-f", file.toString(), vip.getAddress().getHostAddress() + ":" + vip.getPort(), "auth",
                CLIENT_SECRET));
        return FreeRadiusProcess.run(work, command, 120);
    }

    /** Calling-Station-Id (those starting with {@code prefix}) → the logins each server logged for it. */
    static Map<String, int[]> logins(String prefix) throws IOException {
        Map<String, int[]> logins = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            for (String line : Files.readAllLines(dirs[i].resolve("log").resolve("radius.log"))) {
                Matcher m = LOGIN.matcher(line);
                if (m.find() && m.group(2).startsWith(prefix)) {
                    logins.computeIfAbsent(m.group(2), k -> new int[2])[i]++;
                }
            }
        }
        return logins;
    }

    static RealServer real(String farm, int i) {
        return director.farms().real(farm, ADDRESSES[i] + ":" + authPorts[i]);
    }

    static StickyTable table(String vs) {
        return director.virtualServers().get(vs).selector().sticky();
    }

    static List<String> csids(String prefix, int n) {
        List<String> list = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            list.add(prefix + i);
        }
        return list;
    }

    @Test
    @Order(1)
    void aRealWithMaxclientsTakesNoMoreSubscribersThanThatAndKeepsThoseItHas() throws Exception {
        // Cisco IOS SLB Command Reference, "maxclients": the most sticky subscribers a real takes.
        List<String> subscribers = csids("4915100", 8);
        FreeRadiusProcess.Result r = radclient("limited", subscribers, "-t", "3", "-r", "2", "-p", "1");
        assertThat(r.exit()).as(r.output()).isZero();
        Map<String, int[]> logins = await().atMost(Duration.ofSeconds(10))
                .until(() -> logins("4915100"), l -> l.size() == 8);
        long onAaa1 = logins.values().stream().filter(c -> c[0] > 0).count();
        assertThat(onAaa1).as("aaa1 took its two subscribers, no more: %s", logins.keySet()).isEqualTo(2);
        RealServer aaa1 = real("limited", 0);
        assertThat(aaa1.state()).isEqualTo(RealState.MAXCLIENTS_THROTTLED);
        assertThat(aaa1.limits().refusedClients()).isPositive();
        assertThat(registry.get("switchboard.real.refused").tag("farm", "limited").tag("real", aaa1.id())
                .tag("reason", "maxclients").functionCounter().count()).isPositive();
        // The director's own count of the table agrees once housekeeping walked it.
        await().atMost(Duration.ofSeconds(5)).until(() -> table("limited").countBoundTo("limited", aaa1.id(),
                System.nanoTime()) == 2 && aaa1.limits().clients() == 2);

        // Its two subscribers are still served by it (a throttle keeps bound clients).
        String bound = logins.entrySet().stream().filter(e -> e.getValue()[0] > 0).findFirst().orElseThrow().getKey();
        assertThat(radclient("limited", List.of(bound), "-t", "3", "-r", "2").exit()).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> logins("4915100").get(bound)[0] == 2);
        assertThat(logins("4915100").get(bound)[1]).isZero();
    }

    @Test
    @Order(2)
    void aRealWithARateTakesNoMoreNewSubscribersPerSecondThanThat() throws Exception {
        // Cisco IOS SLB Command Reference, "rate": the most new connections per second to the real.
        List<String> subscribers = csids("4915400", 10);
        long start = System.nanoTime();
        FreeRadiusProcess.Result r = radclient("rated", subscribers, "-t", "3", "-r", "2", "-p", "10");
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(r.exit()).as(r.output()).isZero();
        Map<String, int[]> logins = await().atMost(Duration.ofSeconds(10))
                .until(() -> logins("4915400"), l -> l.size() == 10);
        long onAaa1 = logins.values().stream().filter(c -> c[0] > 0).count();
        // Round robin would give aaa1 five; the rate lets one through per second of the run (the
        // windows are the housekeeping's seconds, so a run of s seconds touches at most s + 1 of them).
        assertThat(onAaa1).as("aaa1's subscribers in a %.1f s run", seconds).isBetween(1L, (long) Math.ceil(seconds) + 1);
        assertThat(onAaa1).isLessThan(5);
        RealServer aaa1 = real("rated", 0);
        assertThat(aaa1.limits().refusedRate()).isPositive();
        assertThat(aaa1.state()).as("a rate refuses, it does not throttle").isEqualTo(RealState.OPERATIONAL);
    }

    @Test
    @Order(3)
    void failactionPurgeRemovesAFailedRealsBindingsAtOnceWithoutItTheyWaitAndWithoutInbandItDoesNotFail()
            throws Exception {
        List<String> purging = csids("4915200", 4);
        List<String> probesOnly = csids("4915300", 4);
        assertThat(radclient("purging", purging, "-t", "3", "-r", "2", "-p", "1").exit()).isZero();
        assertThat(radclient("probes-only", probesOnly, "-t", "3", "-r", "2", "-p", "1").exit()).isZero();
        RealServer purgingAaa2 = real("purging", 1);
        RealServer probesAaa2 = real("probes-only", 1);
        long now = System.nanoTime();
        assertThat(table("purging").countBoundTo("purging", purgingAaa2.id(), now)).isEqualTo(2);
        assertThat(table("probes-only").countBoundTo("probes-only", probesAaa2.id(), now)).isEqualTo(2);
        String purgingOnAaa2 = purging.stream().filter(c -> logins0("4915200").get(c)[1] > 0).findFirst().orElseThrow();
        String probesOnAaa2 = probesOnly.stream().filter(c -> logins0("4915300").get(c)[1] > 0).findFirst()
                .orElseThrow();

        FreeRadiusProcess.stop(servers.get(1)); // aaa2 answers nothing any more
        radclient("purging", List.of(purgingOnAaa2), "-t", "2", "-r", "1");
        radclient("probes-only", List.of(probesOnAaa2), "-t", "2", "-r", "1");

        // purging: one unanswered request failed aaa2, and both its bindings went with it at once (the
        // other subscriber on aaa2 sent nothing, so only the purge can have removed it).
        await().atMost(Duration.ofSeconds(10)).until(() -> purgingAaa2.state() == RealState.FAILED
                && table("purging").countBoundTo("purging", purgingAaa2.id(), System.nanoTime()) == 0);
        assertThat(registry.get("switchboard.real.failure.purged").tag("farm", "purging").counter().count())
                .isEqualTo(2);
        // probes-only: the request went unanswered, yet aaa2 is not failed and keeps its subscribers.
        await().atMost(Duration.ofSeconds(10)).until(() -> probesAaa2.unanswered() > 0);
        assertThat(probesAaa2.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(table("probes-only").countBoundTo("probes-only", probesAaa2.id(), System.nanoTime()))
                .isEqualTo(2);
    }

    private static Map<String, int[]> logins0(String prefix) {
        try {
            return logins(prefix);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
