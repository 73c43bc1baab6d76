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
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.radius.radsec.RadsecMeters;
import io.switchboard.director.radius.radsec.RadsecOptions;
import io.switchboard.director.radius.radsec.TestCertificates;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RADIUS over TLS (RFC 6614) against radsecproxy 1.9 (Debian {@code radsecproxy}), with a real
 * FreeRADIUS (UDP) as the AAA server and radclient as the NAS; certificates made by {@code openssl}
 * at run time. Both ways the director joins the two transports:
 * <ul>
 *   <li>radsecproxy as a RadSec client: radclient (UDP) → radsecproxy → the director's RadSec
 *       listener (the peer identified by its certificate) → FreeRADIUS over UDP;</li>
 *   <li>radsecproxy as a RadSec server in front of FreeRADIUS: radclient → the director's UDP
 *       address → radsecproxy (TLS, the director's client certificate) → FreeRADIUS — and, when that
 *       radsecproxy restarts, the director reconnects.</li>
 * </ul>
 * radclient verifies every answer's authenticator with its own secret; the reply's "served by"
 * comes from FreeRADIUS. {@code .ci/run} installs the packages; this test installs nothing.
 */
class RadsecIT {

    static final String AAA = "127.0.0.2";
    static final String DIRECTOR = "127.0.0.30";
    static final String PROXY_CLIENT = "127.0.0.31";
    static final String PROXY_SERVER = "127.0.0.32";
    static final String NAS_SECRET = "nas-to-director";
    static final String AAA_SECRET = "to-freeradius";

    @TempDir
    static Path work;
    static TestCertificates certificates;
    static RadsecOptions.TlsFiles directorTls;
    static RadsecOptions.TlsFiles proxyTls;
    static Process aaa;
    static int authPort;
    static int radsecPort;
    static int radsecBothPort;
    static int proxyTlsPort;
    static RadiusOptions inOptions;
    static Vertx vertx;
    static Director director;
    static final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<Process> proxies = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        for (String tool : List.of("radsecproxy", "openssl", "freeradius", "radclient")) {
            Assumptions.assumeTrue(onPath(tool), tool + " is not installed (.ci/run installs it)");
        }
        certificates = new TestCertificates(work);
        directorTls = certificates.issue("director", "director.test", "DNS:director.test", "IP:" + DIRECTOR);
        proxyTls = certificates.issue("proxy", "nas1.test", "DNS:nas1.test", "IP:" + PROXY_CLIENT, "IP:" + PROXY_SERVER);
        authPort = FreeRadiusIT.freePort(AAA);
        int acctPort = FreeRadiusIT.freePort(AAA);
        Path dir = work.resolve("aaa");
        FreeRadiusProcess.run(work, List.of("bash", FreeRadiusIT.script().toString(), dir.toString(), "aaa", AAA,
                String.valueOf(authPort), String.valueOf(acctPort), AAA_SECRET), 60);
        aaa = FreeRadiusProcess.start(dir);
        radsecPort = freeTcpPort(DIRECTOR);
        radsecBothPort = freeTcpPort(DIRECTOR);
        proxyTlsPort = freeTcpPort(PROXY_SERVER);

        RealConfig udpReal = new RealConfig(InetAddress.getByName(AAA), authPort, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, AAA_SECRET);
        RealConfig radsecReal = new RealConfig(InetAddress.getByName(PROXY_SERVER), proxyTlsPort, 1,
                OptionalInt.empty(), true).with(RadiusModule.TRANSPORT, "radsec");
        // The RadSec real stays in service through the restart below: what it loses counts against it, not enough to fail it.
        FailureDetection failure = new FailureDetection(50, 1, Duration.ofSeconds(1));
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("aaa-udp", new FarmConfig("aaa-udp", PredictorKind.ROUNDROBIN, failure, List.of(udpReal),
                Optional.empty()));
        farms.put("aaa-radsec", new FarmConfig("aaa-radsec", PredictorKind.ROUNDROBIN, failure, List.of(radsecReal),
                Optional.empty()));
        InetAddress vip = InetAddress.getByName(DIRECTOR);
        // RadSec in: the peer is the client whose certificate-name its certificate carries.
        RadiusOptions in = inOptions = new RadiusOptions(List.of(new RadiusOptions.Client(InetAddress.getByName("127.0.0.0"), 8,
                "unused-over-tls", RadiusOptions.DEFAULT_REQUIRE, RadiusOptions.DEFAULT_LIMIT_PROXY_STATE,
                Optional.of("nas1.test")))).withRadsec(new RadsecOptions(true, Optional.of(new Endpoint(vip, radsecPort)),
                RadsecOptions.Identify.CERTIFICATE, directorTls));
        // RadSec out: UDP clients, a RadSec real.
        RadiusOptions out = new RadiusOptions(List.of(new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"), 32,
                NAS_SECRET))).withRadsec(new RadsecOptions(false, Optional.empty(), RadsecOptions.Identify.ADDRESS,
                directorTls));
        // RadSec both ways: the peer identified by its address.
        RadiusOptions both = new RadiusOptions(List.of(new RadiusOptions.Client(InetAddress.getByName("127.0.0.0"), 8,
                "unused-over-tls"))).withRadsec(new RadsecOptions(true, Optional.of(new Endpoint(vip, radsecBothPort)),
                RadsecOptions.Identify.ADDRESS, directorTls));
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        vservers.put("radsec-both", new VirtualServerConfig("radsec-both", new Endpoint(vip, 0), "radius",
                "aaa-radsec", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, both));
        vservers.put("radsec-in", new VirtualServerConfig("radsec-in", new Endpoint(vip, 0), "radius", "aaa-udp",
                Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, in));
        vservers.put("radsec-out", new VirtualServerConfig("radsec-out", new Endpoint(vip, 0), "radius", "aaa-radsec",
                Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, out));
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms, vservers),
                vs -> new RadiusService(), registry, Ticker.SYSTEM);
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true).setEventLoopPoolSize(2));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stopProxies() throws InterruptedException {
        for (Process p : proxies) {
            FreeRadiusProcess.stop(p);
        }
        proxies.clear();
    }

    @AfterAll
    static void stop() throws Exception {
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        FreeRadiusProcess.stop(aaa);
    }

    /** radsecproxy as a RadSec client: radclient's datagrams on {@code udpPort} to the director's {@code tlsPort}. */
    static String asClient(int udpPort, int tlsPort) {
        return """
                ListenUDP %s:%d
                %s
                client radclient {
                    host 127.0.0.1
                    type udp
                    secret %s
                }
                server director {
                    host %s
                    port %d
                    type tls
                    tls default
                    secret radsec
                }
                realm * {
                    server director
                }
                """.formatted(PROXY_CLIENT, udpPort, tlsBlock(proxyTls), NAS_SECRET, DIRECTOR, tlsPort);
    }

    /** radsecproxy as a RadSec server in front of FreeRADIUS, the director's certificate matched by its CN. */
    static String asServer() {
        return """
                ListenTLS %s:%d
                %s
                client director {
                    host 127.0.0.0/8
                    type tls
                    tls default
                    secret radsec
                    CertificateNameCheck off
                    MatchCertificateAttribute CN:/^director\\.test$/
                }
                server aaa {
                    host %s
                    port %d
                    type udp
                    secret %s
                }
                realm * {
                    server aaa
                }
                """.formatted(PROXY_SERVER, proxyTlsPort, tlsBlock(proxyTls), AAA, authPort, AAA_SECRET);
    }

    @Test
    void aRadsecNasReachesAUdpAaaFarm() throws Exception {
        int udpPort = FreeRadiusIT.freePort(PROXY_CLIENT);
        proxy("as-client", asClient(udpPort, radsecPort));
        FreeRadiusProcess.Result result = radclient(new InetSocketAddress(PROXY_CLIENT, udpPort), NAS_SECRET,
                "alice", "csid-radsec-in");
        assertThat(result.output()).contains("Received Access-Accept").contains("served by aaa");
        assertThat(radsec("radsec-in", RadsecMeters.CONNECTIONS, "client", "opened")).isGreaterThanOrEqualTo(1);
        assertThat(radsec("radsec-in", RadsecMeters.PACKETS, "client", "sent")).isGreaterThanOrEqualTo(1);
        assertThat(registry.find("switchboard.radius.requests").tag("vserver", "radsec-in")
                .tag("code", "Access-Request").counter().count()).isGreaterThanOrEqualTo(1);

        // A reload that replaces the virtual server (another response timeout) keeps the connection:
        // its peer stays known to the new plug-in, and the next request is served by it.
        double opened = radsec("radsec-in", RadsecMeters.CONNECTIONS, "client", "opened");
        director.replaceVirtualServer(new VirtualServerConfig("radsec-in", new Endpoint(InetAddress.getByName(DIRECTOR),
                0), "radius", "aaa-udp", Optional.empty(),
                Duration.ofSeconds(3), Duration.ofMinutes(1), 4096, true, inOptions))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(director.virtualServers().get("radsec-in").config().responseTimeout()).hasSeconds(3);
        assertThat(radclient(new InetSocketAddress(PROXY_CLIENT, udpPort), NAS_SECRET, "alice2", "csid-radsec-in-2")
                .output()).contains("Received Access-Accept").contains("served by aaa");
        assertThat(radsec("radsec-in", RadsecMeters.CONNECTIONS, "client", "opened")).isEqualTo(opened);
    }

    @Test
    void aUdpNasReachesARadsecAaaFarmAndTheDirectorReconnects() throws Exception {
        String config = asServer();
        Process first = proxy("as-server", config);
        InetSocketAddress vip = director.localAddress("radsec-out");
        assertThat(radclient(vip, NAS_SECRET, "bob", "csid-radsec-out").output())
                .contains("Received Access-Accept").contains("served by aaa");
        double opened = radsec("radsec-out", RadsecMeters.CONNECTIONS, "real", "opened");
        assertThat(opened).isGreaterThanOrEqualTo(1);

        FreeRadiusProcess.stop(first);
        await().atMost(Duration.ofSeconds(10)).until(
                () -> radsec("radsec-out", RadsecMeters.CONNECTIONS, "real", "dropped") >= 1);
        proxy("as-server-again", config);
        assertThat(radclient(vip, NAS_SECRET, "carol", "csid-radsec-out-2").output())
                .contains("Received Access-Accept").contains("served by aaa");
        // Connected again: the lane whose connection dropped reconnects by itself, a new lane at its first request.
        assertThat(radsec("radsec-out", RadsecMeters.CONNECTIONS, "real", "opened")).isGreaterThan(opened);
        assertThat(radsec("radsec-out", RadsecMeters.PACKETS, "real", "received")).isGreaterThanOrEqualTo(2);
    }

    /** RadSec on both sides: radclient → radsecproxy (client) → director → radsecproxy (server) → FreeRADIUS. */
    @Test
    void aRadsecNasReachesARadsecAaaFarm() throws Exception {
        proxy("both-server", asServer());
        int udpPort = FreeRadiusIT.freePort(PROXY_CLIENT);
        proxy("both-client", asClient(udpPort, radsecBothPort));
        assertThat(radclient(new InetSocketAddress(PROXY_CLIENT, udpPort), NAS_SECRET, "dave", "csid-radsec-both")
                .output()).contains("Received Access-Accept").contains("served by aaa");
        assertThat(radsec("radsec-both", RadsecMeters.PACKETS, "client", "sent")).isGreaterThanOrEqualTo(1);
        assertThat(radsec("radsec-both", RadsecMeters.PACKETS, "real", "received")).isGreaterThanOrEqualTo(1);
    }

    /** A Length below the header's 20 octets on an identified client's stream: counted, the connection closed. */
    @Test
    void aBadLengthClosesTheConnection() throws Exception {
        double before = radsec("radsec-in", RadsecMeters.FRAMING_ERRORS, "client", null);
        Path bad = work.resolve("bad-length.bin");
        Files.write(bad, new byte[] {1, 1, 0, 5, 0, 0, 0, 0});
        sClient(proxyTls, bad);
        await().atMost(Duration.ofSeconds(10)).until(
                () -> radsec("radsec-in", RadsecMeters.FRAMING_ERRORS, "client", null) > before);
    }

    /**
     * Peers the listener must not serve, as {@code openssl s_client} presents them: a certificate no
     * configured CA signed fails the handshake; one the CA signed for a name no client has is refused.
     */
    @Test
    void unknownCertificatesAreRefused() throws Exception {
        double failures = radsec("radsec-in", RadsecMeters.HANDSHAKE_FAILURES, "client", null);
        double refused = radsec("radsec-in", RadsecMeters.CONNECTIONS, "client", "refused");
        sClient(certificates.selfSigned("stranger", "nas1.test"));
        await().atMost(Duration.ofSeconds(10)).until(
                () -> radsec("radsec-in", RadsecMeters.HANDSHAKE_FAILURES, "client", null) > failures);
        sClient(certificates.issue("other", "other.test", "DNS:other.test", "IP:" + PROXY_CLIENT));
        await().atMost(Duration.ofSeconds(10)).until(
                () -> radsec("radsec-in", RadsecMeters.CONNECTIONS, "client", "refused") > refused);
    }

    /** {@code openssl s_client} to the RadSec listener with {@code tls}, its input at end of file. */
    static void sClient(RadsecOptions.TlsFiles tls) throws IOException, InterruptedException {
        sClient(tls, Path.of("/dev/null"));
    }

    /** {@code openssl s_client} to the RadSec listener with {@code tls}, sending {@code input} once connected. */
    static void sClient(RadsecOptions.TlsFiles tls, Path input) throws IOException, InterruptedException {
        Path out = Files.createTempFile(work, "s_client", ".txt");
        Process p = new ProcessBuilder("openssl", "s_client", "-connect", DIRECTOR + ":" + radsecPort,
                "-cert", tls.certificate().toString(), "-key", tls.key().toString(), "-CAfile",
                certificates.ca().toString()).redirectInput(input.toFile())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("openssl s_client did not finish: " + Files.readString(out));
        }
    }

    /** radsecproxy's {@code tls default} block with these files. */
    static String tlsBlock(RadsecOptions.TlsFiles tls) {
        return """
                tls default {
                    CACertificateFile %s
                    CertificateFile %s
                    CertificateKeyFile %s
                }
                """.formatted(tls.ca(), tls.certificate(), tls.key());
    }

    /** Starts radsecproxy in the foreground (logging to its standard error) on {@code config}; waits until it listens. */
    Process proxy(String name, String config) throws IOException {
        Path conf = work.resolve(name + ".conf");
        Files.writeString(conf, "LogLevel 4\n" + config);
        Path out = work.resolve(name + ".out");
        Process p = new ProcessBuilder("radsecproxy", "-f", "-c", conf.toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        proxies.add(p);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            if (!p.isAlive()) {
                throw new AssertionError("radsecproxy " + name + " exited: " + Files.readString(out));
            }
            return Files.readString(out).contains("createlistener: listening for");
        });
        return p;
    }

    /** One Access-Request by radclient, retried while a connection comes up. */
    static FreeRadiusProcess.Result radclient(InetSocketAddress to, String secret, String user, String csid)
            throws IOException, InterruptedException {
        Path file = Files.createTempFile(work, "request", ".txt");
        Files.writeString(file, FreeRadiusIT.access(user, csid) + "\n");
        return FreeRadiusProcess.run(work, List.of("radclient", "-x", "-r", "5", "-t", "2", "-f", file.toString(),
                to.getAddress().getHostAddress() + ":" + to.getPort(), "auth", secret), 60);
    }

    static double radsec(String vserver, io.switchboard.director.spi.MetricSpec meter, String side, String outcome) {
        var search = registry.find(meter.name()).tag("vserver", vserver).tag("side", side);
        var counter = (outcome == null ? search : search.tag("outcome", outcome)).counter();
        return counter == null ? 0 : counter.count();
    }

    static int freeTcpPort(String address) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(address))) {
            return s.getLocalPort();
        }
    }

    static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", tool));
    }
}
