package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.Director;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.probe.Probe;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.TransportKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.netty.channel.EventLoop;
import io.switchboard.director.transport.Transports;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The director in front of two real FreeRADIUS 3.2 servers (Debian {@code freeradius}, one copied
 * configuration directory each, on 127.0.0.2 and 127.0.0.3 with ports of their own), driven by
 * {@code radclient} (Debian {@code freeradius-utils}), which verifies every answer's authenticator.
 * Client and real secrets all differ. Which server handled what is read from the servers' own
 * logs (authentication log with the Calling-Station-Id, accounting detail files), not from the
 * director's counters. {@code .ci/run} installs both packages; this test installs nothing.
 *
 * <p>Every test runs twice, the servers and the director started afresh for each: on {@code transport:
 * epoll} and on {@code transport: io_uring} (SO_REUSEPORT lanes, batched reads, the Accounting-Start
 * grown past its read slot on both). io_uring needs {@code /proc/sys/kernel/io_uring_disabled} 0;
 * elsewhere its run is skipped with the host's reason (never run on another transport instead).
 */
@ParameterizedClass(name = "transport {0}")
@EnumSource(value = TransportKind.class, names = {"EPOLL", "IO_URING"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FreeRadiusIT {

    /** The transport of this run (the lifecycle methods take it as their argument). */
    @Parameter
    TransportKind transport;

    static final String CLIENT_SECRET = "nas-to-director";
    static final String[] REAL_SECRETS = {"director-to-aaa1", "director-to-aaa2"};
    static final String[] ADDRESSES = {"127.0.0.2", "127.0.0.3"};
    static final int[] WEIGHTS = {3, 1};

    @TempDir
    static Path work;

    static final List<Process> servers = new ArrayList<>(List.of());
    static final Path[] dirs = new Path[2];
    static final int[] authPorts = new int[2];
    static final int[] acctPorts = new int[2];
    static Vertx vertx;
    static Director director;
    static InetSocketAddress authVip;
    static InetSocketAddress acctVip;
    /** New for each run (a subclass runs the same tests on another transport in the same JVM). */
    static SimpleMeterRegistry registry;

    /** The servers and the director on {@code transport}. */
    @BeforeParameterizedClassInvocation
    static void start(TransportKind transport) throws Exception {
        // A host without io_uring (io_uring_disabled, a seccomp profile) skips that run with its reason, as a
        // host without root skips the namespaces: the run on epoll still runs; the refusal is TransportRunJarIT's.
        Assumptions.assumeTrue(Transports.of(transport).available(),
                () -> Transports.problem(Optional.of(transport)).orElse(""));
        registry = new SimpleMeterRegistry();
        servers.clear();
        for (int i = 0; i < 2; i++) {
            authPorts[i] = freePort(ADDRESSES[i]);
            acctPorts[i] = freePort(ADDRESSES[i]);
            dirs[i] = work.resolve(transport.configName()).resolve("aaa" + (i + 1));
            run(List.of("bash", script().toString(), dirs[i].toString(), "aaa" + (i + 1), ADDRESSES[i],
                    String.valueOf(authPorts[i]), String.valueOf(acctPorts[i]), REAL_SECRETS[i]), 60);
            servers.add(null);
            startServer(i);
        }
        List<RealConfig> auth = new ArrayList<>();
        List<RealConfig> acct = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            InetAddress address = InetAddress.getByName(ADDRESSES[i]);
            auth.add(new RealConfig(address, authPorts[i], WEIGHTS[i], OptionalInt.empty(), true)
                    .with(RadiusModule.SECRET, REAL_SECRETS[i]));
            acct.add(new RealConfig(address, acctPorts[i], WEIGHTS[i], OptionalInt.empty(), true)
                    .with(RadiusModule.SECRET, REAL_SECRETS[i]));
        }
        FailureDetection failure = new FailureDetection(2, 1, Duration.ofMinutes(5));
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        // Route maps (predictor route-map; unrouted requests by weighted round robin), each farm its own:
        // authentication sends 10.8.0.0/16 to aaa2; accounting sends 10.8.0.0/16 to aaa1 but
        // 10.8.1.0/24 (longer) to aaa2. The other tests use framed IPs outside 10.8.0.0/16.
        farms.put("aaa-auth", new FarmConfig("aaa-auth", PredictorKind.ROUTE_MAP, failure, auth, Optional.empty(),
                List.of(), Optional.empty(), Map.of(subnet("10.8.0.0", 16), auth.get(1).endpoint())));
        Map<Subnet, Endpoint> acctRoutes = new LinkedHashMap<>();
        acctRoutes.put(subnet("10.8.0.0", 16), acct.get(0).endpoint());
        acctRoutes.put(subnet("10.8.1.0", 24), acct.get(1).endpoint());
        farms.put("aaa-acct", new FarmConfig("aaa-acct", PredictorKind.ROUTE_MAP, failure, acct, Optional.empty(),
                List.of(), Optional.empty(), acctRoutes));
        StickyConfig sticky = new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID, RadiusModule.USERNAME),
                Duration.ofHours(1), OptionalInt.empty(), 100_000, Optional.of("subscribers"));
        // Only 127.0.0.1 (where radclient sends from) is a client.
        // 3GPP-IMSI-MCC-MNC (10415/8) seen in authentication is copied into the Accounting-Start.
        RadiusOptions options = new RadiusOptions(List.of(
                new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"), 32, CLIENT_SECRET)),
                RadiusOptions.FramedIp.DEFAULT, RadiusOptions.DEFAULT_STATE_IDLE,
                Optional.of(new RadiusOptions.VsaCorrelation(10415, 8, Duration.ofMinutes(5))));
        InetAddress vip = InetAddress.getByName("127.0.0.10");
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        vservers.put("radius-auth", new VirtualServerConfig("radius-auth", new Endpoint(vip, 0), "radius",
                "aaa-auth", Optional.of(sticky), Duration.ofMillis(700), Duration.ofMinutes(1), 4096, true, options));
        vservers.put("radius-acct", new VirtualServerConfig("radius-acct", new Endpoint(vip, 0), "radius",
                "aaa-acct", Optional.of(sticky), Duration.ofMillis(700), Duration.ofMinutes(1), 4096, true, options));
        SwitchboardConfig config = new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms,
                vservers).withTransport(transport);
        director = new Director(config, vs -> new RadiusService(), registry, Ticker.SYSTEM);
        // A native transport, as `switchboard run` uses it: with epoll the director reads with recvmmsg
        // and with io_uring with batched recvmsg submissions, whose datagrams (slots of one buffer) cannot
        // grow in place (the VSA added to the Start below). Refused, not replaced, where unavailable.
        vertx = Transports.forNode(config.transport()).newVertx(new io.vertx.core.VertxOptions());
        assertThat(Transports.of((EventLoop) ((VertxInternal) vertx).nettyEventLoopGroup().next()))
                .as("the event loops run the transport asked for").isEqualTo(Transports.of(transport));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        authVip = director.localAddress("radius-auth");
        acctVip = director.localAddress("radius-acct");
    }

    static Subnet subnet(String network, int bits) throws IOException {
        return new Subnet(InetAddress.getByName(network), bits);
    }

    @AfterParameterizedClassInvocation
    static void stop() throws Exception {
        try {
            if (director != null) {
                director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
            if (vertx != null) {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        } finally {
            director = null;
            vertx = null;
            for (int i = 0; i < servers.size(); i++) {
                if (servers.get(i) != null) {
                    stopServer(i);
                }
            }
            servers.clear();
        }
    }

    static Path script() {
        return Path.of("src", "test", "resources", "freeradius", "make-instance.sh").toAbsolutePath();
    }

    static void startServer(int i) throws IOException {
        servers.set(i, FreeRadiusProcess.start(dirs[i]));
    }

    /** Stops one server by its own pid. */
    static void stopServer(int i) throws InterruptedException {
        FreeRadiusProcess.stop(servers.get(i));
    }

    static int freePort(String address) throws IOException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(address, 0))) {
            return s.getLocalPort();
        }
    }

    static FreeRadiusProcess.Result run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        return FreeRadiusProcess.run(work, command, timeoutSeconds);
    }

    /** radclient with a file of requests (blank-line separated), through the director. */
    static FreeRadiusProcess.Result radclient(InetSocketAddress vip, String type, String secret, List<String> requests, String... options)
            throws IOException, InterruptedException {
        Path file = Files.createTempFile(work, "requests", ".txt");
        Files.writeString(file, String.join("\n\n", requests) + "\n");
        List<String> command = new ArrayList<>(List.of("radclient", "-x"));
        command.addAll(List.of(options));
        command.addAll(List.of("-f", file.toString(), vip.getAddress().getHostAddress() + ":" + vip.getPort(), type,
                secret));
        return run(command, 120);
    }

    static String access(String user, String csid) {
        return "User-Name = \"" + user + "\"\nUser-Password = \"testpw\"\nCalling-Station-Id = \"" + csid + "\""
                + "\nMessage-Authenticator = 0x00";
    }

    static String accounting(String status, String user, String csid, String framedIp, String session) {
        return "User-Name = \"" + user + "\"\nAcct-Status-Type = " + status + "\nAcct-Session-Id = \"" + session
                + "\"\nCalling-Station-Id = \"" + csid + "\"" + (framedIp == null ? "" : "\nFramed-IP-Address = "
                + framedIp);
    }

    private static final Pattern LOGIN = Pattern.compile("Login OK: \\[([^\\]]*)\\] .* cli (\\S+)\\)");

    /** Calling-Station-Id → how many logins each server logged for it. */
    static Map<String, int[]> loginsByCsid() throws IOException {
        Map<String, int[]> logins = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            for (String line : Files.readAllLines(dirs[i].resolve("log").resolve("radius.log"))) {
                Matcher m = LOGIN.matcher(line);
                if (m.find()) {
                    logins.computeIfAbsent(m.group(2), k -> new int[2])[i]++;
                }
            }
        }
        return logins;
    }

    /** The accounting detail a server wrote, all files together. */
    static String detail(int i) throws IOException {
        Path radacct = dirs[i].resolve("log").resolve("radacct");
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(radacct)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                text.append(Files.readString(f));
            }
        }
        return text.toString();
    }

    static VirtualServerMetrics metrics(String vs) {
        return director.virtualServers().get(vs).metrics();
    }

    static StickyTable groupTable() {
        return director.virtualServers().get("radius-auth").selector().sticky();
    }

    static String csid(int n) {
        return String.format("49151%08d", n);
    }

    @Test
    @Order(1)
    void accessRequestsSpreadByWeightAndEachCallingStationStaysOnOneServer() throws Exception {
        List<String> requests = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            requests.add(access("user" + n, csid(n)));
        }
        for (int round = 0; round < 2; round++) {
            FreeRadiusProcess.Result r = radclient(authVip, "auth", CLIENT_SECRET, requests, "-t", "3", "-r", "2");
            assertThat(r.exit()).as(r.output()).isZero();
            assertThat(r.output().split("Received Access-Accept", -1)).hasSize(41);
            assertThat(r.output()).contains("served by aaa1").contains("served by aaa2");
            // radclient decrypts the salt-encrypted Tunnel-Password with the client's secret: the
            // director re-encrypted it from the real's.
            assertThat(r.output().split("Tunnel-Password:0 = \"tunnel-pw-aaa", -1)).hasSize(41);
        }
        Map<String, int[]> logins = loginsByCsid();
        int[] subscribers = new int[2];
        for (int n = 0; n < 40; n++) {
            int[] count = logins.get(csid(n));
            assertThat(count).as(csid(n)).isNotNull();
            // Both logins of a subscriber on the same server, none on the other. (More than two when a
            // request expired at the director on a loaded machine and radclient's retry went out anew:
            // the server then logs it again, still the same server.)
            assertThat(count[0] >= 2 && count[1] == 0 || count[0] == 0 && count[1] >= 2)
                    .as("%s logins on aaa1, aaa2: %s (expired requests: %s)", csid(n), java.util.Arrays.toString(count),
                            metrics("radius-auth").expiredCount()).isTrue();
            subscribers[count[0] > 0 ? 0 : 1]++;
        }
        // Weights 3:1 over 40 new subscribers.
        assertThat(subscribers[0]).isBetween(27, 33);
        assertThat(subscribers[1]).isBetween(7, 13);
    }

    @Test
    @Order(2)
    void accountingFollowsAuthenticationAndTheFramedIpIsBoundUntilStop() throws Exception {
        // (and the VSA of the Access-Request is added to the Accounting-Start, re-signed)
        Map<String, int[]> logins = loginsByCsid();
        // One subscriber authenticated by each server.
        int[] subscriber = {-1, -1};
        for (int n = 0; n < 40; n++) {
            int server = logins.get(csid(n))[0] > 0 ? 0 : 1;
            if (subscriber[server] < 0) {
                subscriber[server] = n;
            }
        }
        for (int server = 0; server < 2; server++) {
            int n = subscriber[server];
            String ip = "10.9.0." + (n + 1);
            String mccMnc = "2620" + server;
            FreeRadiusProcess.Result again = radclient(authVip, "auth", CLIENT_SECRET, List.of(access("user" + n, csid(n))
                    + "\n3GPP-IMSI-MCC-MNC = \"" + mccMnc + "\""), "-t", "3", "-r", "2");
            assertThat(again.exit()).as(again.output()).isZero();
            assertThat(again.output()).contains("served by aaa" + (server + 1));
            FreeRadiusProcess.Result start = radclient(acctVip, "acct", CLIENT_SECRET,
                    List.of(accounting("Start", "user" + n, csid(n), ip, "session-" + n)), "-t", "3", "-r", "2");
            assertThat(start.exit()).as(start.output()).isZero();
            assertThat(start.output()).contains("Received Accounting-Response");
            String session = "Acct-Session-Id = \"session-" + n + "\"";
            assertThat(detail(server)).contains(session).contains("Framed-IP-Address = " + ip)
                    .contains("3GPP-IMSI-MCC-MNC = \"" + mccMnc + "\"");
            assertThat(detail(1 - server)).doesNotContain(session);

            StickyKey key = StickyKey.parse(RadiusModule.FRAMED_IP, ip);
            StickyBinding binding = groupTable().lookup(key, System.nanoTime());
            assertThat(binding).isEqualTo(new StickyBinding("aaa-acct", ADDRESSES[server] + ":" + acctPorts[server]));

            FreeRadiusProcess.Result stop = radclient(acctVip, "acct", CLIENT_SECRET,
                    List.of(accounting("Stop", "user" + n, csid(n), ip, "session-" + n)), "-t", "3", "-r", "2");
            assertThat(stop.exit()).as(stop.output()).isZero();
            assertThat(groupTable().lookup(key, System.nanoTime())).isNull();
        }
    }

    @Test
    @Order(3)
    void accountingOnReachesBothServersAndPurgesTheFramedIpBindingsLearnedFromTheClient() throws Exception {
        // Two open sessions, one on each server (the round robin of the acct farm, weights 3:1, puts
        // new subscribers on both over a few tries), each with a Framed-IP binding.
        List<StickyKey> framed = new ArrayList<>();
        Set<Integer> servers = new TreeSet<>();
        for (int n = 200; n < 240 && servers.size() < 2; n++) {
            String ip = "10.9.1." + (n - 199);
            FreeRadiusProcess.Result start = radclient(acctVip, "acct", CLIENT_SECRET,
                    List.of(accounting("Start", "on-user" + n, csid(n), ip, "on-session-" + n)), "-t", "3", "-r", "2");
            assertThat(start.exit()).as(start.output()).isZero();
            StickyKey key = StickyKey.parse(RadiusModule.FRAMED_IP, ip);
            StickyBinding binding = groupTable().lookup(key, System.nanoTime());
            assertThat(binding).isNotNull();
            framed.add(key);
            servers.add(binding.real().equals(ADDRESSES[0] + ":" + acctPorts[0]) ? 0 : 1);
        }
        assertThat(servers).containsExactly(0, 1);
        VirtualServerMetrics acct = metrics("radius-acct");
        double absorbed = acct.absorbedCount();

        FreeRadiusProcess.Result on = radclient(acctVip, "acct", CLIENT_SECRET, List.of("Acct-Status-Type = Accounting-On\n"
                + "Acct-Session-Id = \"nas-reboot-1\"\nNAS-Identifier = \"switchboard-it\""), "-t", "3", "-r", "1");
        assertThat(on.exit()).as(on.output()).isZero();
        // radclient verified the one answer's authenticator under the client's secret.
        assertThat(on.output().split("Received Accounting-Response", -1)).hasSize(2);
        // Each server logged it (each got it signed with its own secret, or it would have dropped it);
        // the slower one may still be writing when the first answer has reached radclient.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (int i = 0; i < 2; i++) {
                assertThat(detail(i)).as("aaa%d detail", i + 1).contains("Acct-Session-Id = \"nas-reboot-1\"")
                        .contains("Acct-Status-Type = Accounting-On");
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> acct.absorbedCount() == absorbed + 1);
        // The client's Framed-IP bindings are gone: its sessions ended with the reboot.
        for (StickyKey key : framed) {
            assertThat(groupTable().lookup(key, System.nanoTime())).as(key.toString()).isNull();
        }
    }

    @Test
    @Order(4)
    void badRequestsAreDroppedEachWithItsReasonWhileValidTrafficContinues() throws Exception {
        VirtualServerMetrics auth = metrics("radius-auth");
        VirtualServerMetrics acct = metrics("radius-acct");
        // Accounting signed with the wrong secret: never reaches a real, radclient gets no answer.
        FreeRadiusProcess.Result wrong = radclient(acctVip, "acct", "not-the-secret",
                List.of(accounting("Start", "mallory", csid(99), "10.9.9.9", "bad")), "-t", "1", "-r", "1");
        assertThat(wrong.exit()).isNotZero();
        assertThat(acct.droppedCount(RadiusPlugin.BAD_AUTHENTICATOR)).isGreaterThanOrEqualTo(1);
        assertThat(detail(0) + detail(1)).doesNotContain("mallory");
        // Access-Request with a Message-Authenticator under the wrong secret.
        FreeRadiusProcess.Result badMa = radclient(authVip, "auth", "not-the-secret", List.of(access("mallory", csid(98))),
                "-t", "1", "-r", "1");
        assertThat(badMa.exit()).isNotZero();
        assertThat(auth.droppedCount(RadiusPlugin.BAD_MESSAGE_AUTHENTICATOR)).isGreaterThanOrEqualTo(1);
        assertThat(loginsByCsid()).doesNotContainKey(csid(98));

        // Unknown client, truncated packet, attribute overrun: crafted by hand, sent while radclient
        // sends 40 valid Access-Requests one after the other.
        byte[] valid = validLookingRequest();
        byte[] truncated = java.util.Arrays.copyOf(valid, 12);
        byte[] overrun = valid.clone();
        overrun[RadiusView.HEADER_LENGTH + 1] = (byte) 250;
        List<String> requests = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            requests.add(access("user" + n, csid(n)));
        }
        double forwardedBefore = auth.forwardedCount();
        double receivedBefore = auth.receivedCount();
        java.util.concurrent.CompletableFuture<FreeRadiusProcess.Result> flowing = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return radclient(authVip, "auth", CLIENT_SECRET, requests, "-t", "3", "-r", "2", "-p", "1");
            } catch (IOException | InterruptedException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> auth.receivedCount() >= receivedBefore + 5);
        try (DatagramSocket stranger = new DatagramSocket(new InetSocketAddress("127.0.0.7", 0));
             DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            stranger.send(new DatagramPacket(valid, valid.length, authVip));
            nas.send(new DatagramPacket(truncated, truncated.length, authVip));
            nas.send(new DatagramPacket(overrun, overrun.length, authVip));
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(auth.droppedCount(EngineDrops.CLIENT_NOT_ALLOWED)).isEqualTo(1);
            assertThat(auth.droppedCount(DropReason.TRUNCATED)).isEqualTo(1);
            assertThat(auth.droppedCount(RadiusView.BAD_ATTRIBUTE)).isEqualTo(1);
        });
        FreeRadiusProcess.Result ok = flowing.get(120, TimeUnit.SECONDS);
        assertThat(ok.exit()).as(ok.output()).isZero();
        assertThat(ok.output().split("Received Access-Accept", -1)).hasSize(41);
        // Exactly the valid requests (and radclient's retries, if any) reached a real; nothing else.
        assertThat(auth.forwardedCount() - forwardedBefore).isEqualTo(40);
    }

    @Test
    @Order(5)
    void eachFarmsRouteMapSendsFramedIpsToItsRealLongestPrefixFirstAheadOfStickiness() throws Exception {
        // Authentication: 10.8.0.0/16 -> aaa2. Four new subscribers, which the round robin (3:1)
        // would spread three to aaa1 and one to aaa2, all land on aaa2 (its login log says so).
        List<String> requests = new ArrayList<>();
        for (int n = 300; n < 304; n++) {
            requests.add(access("route-user" + n, csid(n)) + "\nFramed-IP-Address = 10.8.0." + (n - 299));
        }
        FreeRadiusProcess.Result auth = radclient(authVip, "auth", CLIENT_SECRET, requests, "-t", "3", "-r", "2");
        assertThat(auth.exit()).as(auth.output()).isZero();
        assertThat(auth.output().split("Received Access-Accept", -1)).hasSize(5);
        Map<String, int[]> logins = loginsByCsid();
        for (int n = 300; n < 304; n++) {
            assertThat(logins.get(csid(n))).as(csid(n)).isNotNull();
            assertThat(logins.get(csid(n))[0]).as("%s logins on aaa1", csid(n)).isZero();
            assertThat(logins.get(csid(n))[1]).as("%s logins on aaa2", csid(n)).isPositive();
        }
        // Accounting, same subscribers and sticky group, but the acct farm's own map: 10.8.0.0/16 -> aaa1.
        for (int n = 300; n < 304; n++) {
            FreeRadiusProcess.Result start = radclient(acctVip, "acct", CLIENT_SECRET, List.of(accounting("Start", "route-user" + n,
                    csid(n), "10.8.0." + (n - 299), "route-session-" + n)), "-t", "3", "-r", "2");
            assertThat(start.exit()).as(start.output()).isZero();
            String session = "Acct-Session-Id = \"route-session-" + n + "\"";
            assertThat(detail(0)).contains(session);
            assertThat(detail(1)).doesNotContain(session);
        }
        // A subscriber the sticky group holds on aaa1 (authenticated there by the first test): its
        // Accounting-Start with a framed IP in 10.8.1.0/24 (the longer prefix) goes to aaa2.
        int onAaa1 = -1;
        for (int n = 0; n < 40 && onAaa1 < 0; n++) {
            if (logins.get(csid(n))[0] > 0) {
                onAaa1 = n;
            }
        }
        StickyBinding held = groupTable().lookup(StickyKey.parse(RadiusModule.CALLING_STATION_ID, csid(onAaa1)),
                System.nanoTime());
        assertThat(held).isNotNull();
        assertThat(held.real()).startsWith(ADDRESSES[0] + ":");
        FreeRadiusProcess.Result routed = radclient(acctVip, "acct", CLIENT_SECRET, List.of(accounting("Start", "user" + onAaa1,
                csid(onAaa1), "10.8.1.7", "route-session-longest")), "-t", "3", "-r", "2");
        assertThat(routed.exit()).as(routed.output()).isZero();
        assertThat(detail(1)).contains("Acct-Session-Id = \"route-session-longest\"")
                .contains("Framed-IP-Address = 10.8.1.7");
        assertThat(detail(0)).doesNotContain("route-session-longest");
        // The Framed-IP table learned from the answer, as for any Accounting-Start.
        assertThat(groupTable().lookup(StickyKey.parse(RadiusModule.FRAMED_IP, "10.8.1.7"), System.nanoTime()))
                .isEqualTo(new StickyBinding("aaa-acct", ADDRESSES[1] + ":" + acctPorts[1]));
    }

    private static byte[] validLookingRequest() {
        byte[] user = "stranger".getBytes(StandardCharsets.US_ASCII);
        byte[] packet = new byte[20 + 2 + user.length];
        packet[0] = 1;
        packet[1] = 42;
        packet[2] = (byte) (packet.length >> 8);
        packet[3] = (byte) packet.length;
        packet[20] = 1;
        packet[21] = (byte) (2 + user.length);
        System.arraycopy(user, 0, packet, 22, user.length);
        return packet;
    }

    @Test
    @Order(6)
    void aStoppedServerFailsOverAndItsSubscribersAreServedByTheOther() throws Exception {
        Map<String, int[]> before = loginsByCsid();
        List<String> onAaa2 = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            if (before.get(csid(n))[1] > 0) {
                onAaa2.add(csid(n));
            }
        }
        assertThat(onAaa2).isNotEmpty();
        stopServer(1);
        List<String> requests = new ArrayList<>();
        for (String csid : onAaa2.subList(0, Math.min(4, onAaa2.size()))) {
            requests.add(access("failover-" + csid, csid));
        }
        // radclient retries; the director's retransmission handling sends each retry to the same real
        // until the request expires; then the unanswered requests mark aaa2 FAILED and the
        // subscribers are reassigned to aaa1, which answers.
        FreeRadiusProcess.Result r = radclient(authVip, "auth", CLIENT_SECRET, requests, "-t", "1", "-r", "6");
        assertThat(r.exit()).as(r.output()).isZero();
        RealServer aaa2 = director.farms().real("aaa-auth", ADDRESSES[1] + ":" + authPorts[1]);
        assertThat(aaa2.state()).isEqualTo(RealState.FAILED);
        Map<String, int[]> after = loginsByCsid();
        Set<String> servedByAaa1 = new TreeSet<>();
        for (String csid : onAaa2.subList(0, Math.min(4, onAaa2.size()))) {
            if (after.get(csid)[0] > 0) {
                servedByAaa1.add(csid);
            }
        }
        assertThat(servedByAaa1).hasSize(Math.min(4, onAaa2.size()));
    }

    @Test
    @Order(7)
    void theRadiusProbeChecksEachServerWithStatusServerOrAnAccessRequest() throws Exception {
        InetSocketAddress aaa1 = new InetSocketAddress(ADDRESSES[0], authPorts[0]);
        InetSocketAddress aaa2 = new InetSocketAddress(ADDRESSES[1], authPorts[1]); // stopped by the failover test
        assertThat(probe(new RadiusCheck(REAL_SECRETS[0], Optional.empty(), Optional.empty()), aaa1)).isNull();
        // FreeRADIUS drops a Status-Server whose Message-Authenticator does not verify.
        assertThat(probe(new RadiusCheck("wrong", Optional.empty(), Optional.empty()), aaa1))
                .contains("no answer");
        assertThat(probe(new RadiusCheck(REAL_SECRETS[0], Optional.of("probe"), Optional.of("testpw")), aaa1))
                .isNull();
        // A Reject proves the server alive as well.
        assertThat(probe(new RadiusCheck(REAL_SECRETS[0], Optional.of("probe"), Optional.of("bad")), aaa1))
                .isNull();
        assertThat(probe(new RadiusCheck(REAL_SECRETS[1], Optional.empty(), Optional.empty()), aaa2))
                .contains("no answer");
        // Without a secret of its own, the probe signs with each real's secret.
        RealServer real1 = director.farms().real("aaa-auth", ADDRESSES[0] + ":" + authPorts[0]);
        Probe own = Probe.create(vertx, new ProbeConfig("own", new RadiusCheck("", Optional.empty(),
                Optional.empty()), Duration.ofSeconds(10), Duration.ofSeconds(2), 1, OptionalInt.empty()));
        try {
            own.check(real1, aaa1).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } finally {
            own.close();
        }
    }

    /** Null when the check passes, else its failure message. */
    private static String probe(ProbeCheck check, InetSocketAddress target) throws Exception {
        Probe probe = Probe.create(vertx, new ProbeConfig("p", check, Duration.ofSeconds(10), Duration.ofSeconds(2),
                1, OptionalInt.empty()));
        try {
            probe.check(target).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause().getMessage();
        } finally {
            probe.close();
        }
    }
}
