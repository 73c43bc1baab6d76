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
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * IPv6 subscribers through the director, against two real FreeRADIUS servers (as in
 * {@link FreeRadiusIT}: {@code make-instance.sh}, own secrets, which server handled what read from
 * their authentication logs and accounting detail files) with {@code radclient} as the NAS: an
 * Accounting-Start carrying Framed-IPv6-Prefix and Delegated-IPv6-Prefix binds both prefixes to the
 * accounting server that took it, and an Access-Request naming either prefix then goes to that same
 * server; Stop and Accounting-On end the bindings; the accounting farm's route map sends an IPv6
 * prefix to its real. The auth and acct virtual servers share a sticky group keyed by
 * {@code [framed-ipv6-prefix, delegated-ipv6-prefix, calling-station-id]}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class Ipv6SubscribersIT {

    static final String CLIENT_SECRET = "nas-to-director-v6";
    static final String[] REAL_SECRETS = {"director-to-aaa1-v6", "director-to-aaa2-v6"};
    static final String[] ADDRESSES = {"127.0.0.2", "127.0.0.3"};
    /** The acct farm's route map sends this prefix to aaa2. */
    static final String ROUTED = "2001:db8:8::/48";

    @TempDir
    static Path work;

    static final Process[] servers = new Process[2];
    static final Path[] dirs = new Path[2];
    static final int[] authPorts = new int[2];
    static final int[] acctPorts = new int[2];
    static Vertx vertx;
    static Director director;

    @BeforeAll
    static void start() throws Exception {
        List<RealConfig> auth = new ArrayList<>();
        List<RealConfig> acct = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            authPorts[i] = FreeRadiusIT.freePort(ADDRESSES[i]);
            acctPorts[i] = FreeRadiusIT.freePort(ADDRESSES[i]);
            dirs[i] = work.resolve("aaa" + (i + 1));
            run(List.of("bash", FreeRadiusIT.script().toString(), dirs[i].toString(), "aaa" + (i + 1), ADDRESSES[i],
                    String.valueOf(authPorts[i]), String.valueOf(acctPorts[i]), REAL_SECRETS[i]));
            servers[i] = FreeRadiusProcess.start(dirs[i]);
            InetAddress address = InetAddress.getByName(ADDRESSES[i]);
            auth.add(new RealConfig(address, authPorts[i], 1, OptionalInt.empty(), true)
                    .with(RadiusModule.SECRET, REAL_SECRETS[i]));
            acct.add(new RealConfig(address, acctPorts[i], 1, OptionalInt.empty(), true)
                    .with(RadiusModule.SECRET, REAL_SECRETS[i]));
        }
        FailureDetection failure = new FailureDetection(100, 1, Duration.ofMinutes(5));
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("aaa-auth", new FarmConfig("aaa-auth", PredictorKind.ROUNDROBIN, failure, auth, Optional.empty()));
        farms.put("aaa-acct", new FarmConfig("aaa-acct", PredictorKind.ROUTE_MAP, failure, acct, Optional.empty(),
                List.of(), Optional.empty(), Map.of(new Subnet(InetAddress.getByName("2001:db8:8::"), 48),
                        acct.get(1).endpoint())));
        StickyConfig sticky = new StickyConfig(List.of(RadiusModule.FRAMED_IPV6_PREFIX,
                RadiusModule.DELEGATED_IPV6_PREFIX, RadiusModule.CALLING_STATION_ID), Duration.ofHours(1),
                OptionalInt.empty(), 10_000, Optional.of("subscribers"));
        RadiusOptions options = new RadiusOptions(List.of(
                new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"), 32, CLIENT_SECRET)));
        InetAddress vip = InetAddress.getByName("127.0.0.10");
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        for (String name : List.of("auth", "acct")) {
            vservers.put("radius-" + name, new VirtualServerConfig("radius-" + name, new Endpoint(vip, 0), "radius",
                    "aaa-" + name, Optional.of(sticky), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true,
                    options));
        }
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms, vservers),
                vs -> new RadiusService(), new SimpleMeterRegistry(), Ticker.SYSTEM);
        vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
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

    /** {@code n} from 1: FreeRADIUS prints a zero group compressed ({@code 2001:db8:1::/64}). */
    static String framed(int n) {
        return "2001:db8:1:" + Integer.toHexString(n) + "::/64";
    }

    static String delegated(int n) {
        return "2001:db8:f" + Integer.toHexString(n) + "::/48";
    }

    static String csid(int n) {
        return String.format("49152%08d", n);
    }

    static String start(String status, int n, String framedPrefix) {
        return "User-Name = \"v6-user" + n + "\"\nAcct-Status-Type = " + status + "\nAcct-Session-Id = \"v6-session-"
                + n + "\"\nCalling-Station-Id = \"" + csid(n) + "\"\nFramed-IPv6-Prefix = " + framedPrefix
                + "\nDelegated-IPv6-Prefix = " + delegated(n);
    }

    static String access(String csid, String attribute) {
        return "User-Name = \"v6-login-" + csid + "\"\nUser-Password = \"testpw\"\nCalling-Station-Id = \"" + csid
                + "\"\nMessage-Authenticator = 0x00\n" + attribute;
    }

    /** The server (0, 1) whose accounting detail holds the session, failing unless exactly one does. */
    static int accountedBy(int n) throws IOException {
        String session = "Acct-Session-Id = \"v6-session-" + n + "\"";
        boolean on1 = detail(0).contains(session);
        boolean on2 = detail(1).contains(session);
        assertThat(on1 ^ on2).as("session %d on exactly one server (aaa1 %s, aaa2 %s)", n, on1, on2).isTrue();
        return on1 ? 0 : 1;
    }

    /** The servers (0, 1) that logged a login from {@code csid}. */
    static List<Integer> loggedIn(String csid) throws IOException {
        List<Integer> by = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            if (Files.readString(dirs[i].resolve("log").resolve("radius.log")).contains("cli " + csid + ")")) {
                by.add(i);
            }
        }
        return by;
    }

    static StickyTable group() {
        return director.virtualServers().get("radius-acct").selector().sticky();
    }

    static StickyBinding bound(StickyKey key) {
        return group().lookup(key, System.nanoTime());
    }

    static StickyBinding acctReal(int server) {
        return new StickyBinding("aaa-acct", ADDRESSES[server] + ":" + acctPorts[server]);
    }

    @Test
    @Order(1)
    void anAccessRequestNamingAPrefixLearntFromAccountingGoesToThatSubscribersServer() throws Exception {
        int[] servedBy = new int[2];
        for (int n = 1; n <= 8; n++) {
            FreeRadiusProcess.Result r = radclient("acct", start("Start", n, framed(n)));
            assertThat(r.exit()).as(r.output()).isZero();
            assertThat(r.output()).contains("Received Accounting-Response");
            int server = accountedBy(n);
            servedBy[server]++;
            // FreeRADIUS decoded what radclient encoded and the director relayed unchanged.
            assertThat(detail(server)).contains("Framed-IPv6-Prefix = " + framed(n))
                    .contains("Delegated-IPv6-Prefix = " + delegated(n));
            assertThat(bound(StickyKey.parse(RadiusModule.FRAMED_IPV6_PREFIX, framed(n))))
                    .as(framed(n)).isEqualTo(acctReal(server));
            assertThat(bound(StickyKey.parse(RadiusModule.DELEGATED_IPV6_PREFIX, delegated(n))))
                    .as(delegated(n)).isEqualTo(acctReal(server));
        }
        // The round robin put new subscribers on both servers, so the logins below prove the binding.
        assertThat(servedBy[0]).isPositive();
        assertThat(servedBy[1]).isPositive();
        for (int n = 1; n <= 8; n++) {
            int server = accountedBy(n);
            String byFramed = "v6f-" + csid(n);
            String byDelegated = "v6d-" + csid(n);
            FreeRadiusProcess.Result r = radclient("auth", access(byFramed, "Framed-IPv6-Prefix = " + framed(n)) + "\n\n"
                    + access(byDelegated, "Delegated-IPv6-Prefix = " + delegated(n)));
            assertThat(r.exit()).as(r.output()).isZero();
            assertThat(r.output().split("Received Access-Accept", -1)).hasSize(3);
            assertThat(loggedIn(byFramed)).as(byFramed).containsExactly(server);
            assertThat(loggedIn(byDelegated)).as(byDelegated).containsExactly(server);
        }
    }

    @Test
    @Order(2)
    void stopEndsASubscribersPrefixesAndAccountingOnEndsTheClientsRest() throws Exception {
        FreeRadiusProcess.Result stop = radclient("acct", start("Stop", 1, framed(1)));
        assertThat(stop.exit()).as(stop.output()).isZero();
        assertThat(bound(StickyKey.parse(RadiusModule.FRAMED_IPV6_PREFIX, framed(1)))).isNull();
        assertThat(bound(StickyKey.parse(RadiusModule.DELEGATED_IPV6_PREFIX, delegated(1)))).isNull();
        assertThat(bound(StickyKey.parse(RadiusModule.FRAMED_IPV6_PREFIX, framed(2)))).isNotNull();

        FreeRadiusProcess.Result on = radclient("acct", "Acct-Status-Type = Accounting-On\n"
                + "Acct-Session-Id = \"v6-nas-reboot\"\nNAS-Identifier = \"switchboard-v6-it\"");
        assertThat(on.exit()).as(on.output()).isZero();
        for (int n = 2; n <= 8; n++) {
            assertThat(bound(StickyKey.parse(RadiusModule.FRAMED_IPV6_PREFIX, framed(n)))).as(framed(n)).isNull();
            assertThat(bound(StickyKey.parse(RadiusModule.DELEGATED_IPV6_PREFIX, delegated(n)))).as(delegated(n))
                    .isNull();
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(detail(0) + detail(1)).contains("Acct-Session-Id = \"v6-nas-reboot\""));
    }

    @Test
    @Order(3)
    void theAcctFarmsRouteMapSendsAFramedIpv6PrefixInsideItsPrefixToItsReal() throws Exception {
        // Four new subscribers in 2001:db8:8::/48, which the round robin would spread over both.
        for (int n = 20; n < 24; n++) {
            String prefix = "2001:db8:8:" + n + "::/64";
            FreeRadiusProcess.Result r = radclient("acct", start("Start", n, prefix));
            assertThat(r.exit()).as(r.output()).isZero();
            assertThat(accountedBy(n)).as(prefix).isEqualTo(1);
            // Learnt from the answer as any Start (routing itself writes nothing).
            assertThat(bound(StickyKey.parse(RadiusModule.FRAMED_IPV6_PREFIX, prefix))).isEqualTo(acctReal(1));
        }
    }

    static FreeRadiusProcess.Result radclient(String vserver, String requests) throws Exception {
        InetSocketAddress vip = director.localAddress("radius-" + vserver);
        Path file = Files.createTempFile(work, "requests", ".txt");
        Files.writeString(file, requests + "\n");
        return run(List.of("radclient", "-x", "-t", "3", "-r", "2", "-f", file.toString(),
                vip.getAddress().getHostAddress() + ":" + vip.getPort(), vserver, CLIENT_SECRET));
    }

    /** The accounting detail a server wrote, all files together. */
    static String detail(int i) throws IOException {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(dirs[i].resolve("log").resolve("radacct"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                text.append(Files.readString(f));
            }
        }
        return text.toString();
    }


    private static FreeRadiusProcess.Result run(List<String> command) throws IOException, InterruptedException {
        return FreeRadiusProcess.run(work, command, 120);
    }
}
