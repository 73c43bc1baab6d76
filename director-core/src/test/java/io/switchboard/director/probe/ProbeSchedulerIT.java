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
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.sim.SimulatedUdpBackend;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Probes of every type against servers on 127.0.0.1: failing reals leave rotation, recovered ones return. */
class ProbeSchedulerIT {

    private static final Duration INTERVAL = Duration.ofMillis(100);
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Vertx vertx;
    private ProbeScheduler scheduler;
    private final List<AutoCloseable> servers = new ArrayList<>();

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() throws Exception {
        if (scheduler != null) {
            scheduler.stop();
        }
        for (AutoCloseable s : servers) {
            s.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private static RealConfig real(int port) throws IOException {
        return new RealConfig(InetAddress.getByName("127.0.0.1"), port, 1, OptionalInt.empty(), true);
    }

    private Farms probed(ProbeConfig probe, RealConfig... reals) {
        FarmConfig farm = new FarmConfig("web", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT, List.of(reals),
                Optional.empty(), List.of(probe.name()));
        Farms farms = new Farms(Map.of("web", farm));
        scheduler = new ProbeScheduler(vertx, farms, Map.of("web", farm), Map.of(probe.name(), probe), registry);
        scheduler.start();
        return farms;
    }

    private static ProbeConfig probe(ProbeCheck check) {
        return new ProbeConfig("p-" + check.type(), check, INTERVAL, TIMEOUT, 2, OptionalInt.empty());
    }

    private HttpServer httpServer(int port, int status) throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(r -> r.response().setStatusCode(status).end())
                .listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        servers.add(() -> server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS));
        return server;
    }

    @Test
    void httpProbeFailsARealWithoutServerOrWithTheWrongStatusAndRestoresIt() throws Exception {
        int up = freeTcpPort();
        int down = freeTcpPort();
        int wrong = freeTcpPort();
        httpServer(up, 401);
        HttpServer wrongServer = httpServer(wrong, 200);
        Farms farms = probed(probe(new ProbeCheck.Http("/", 401, Optional.empty())), real(up), real(down), real(wrong));
        RealServer a = farms.real("web", "127.0.0.1:" + up);
        RealServer b = farms.real("web", "127.0.0.1:" + down);
        RealServer c = farms.real("web", "127.0.0.1:" + wrong);

        await().atMost(Duration.ofSeconds(10)).until(() -> b.state() == RealState.PROBE_FAILED
                && c.state() == RealState.PROBE_FAILED);
        assertThat(a.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(b.tryTakeNewWork()).isFalse();
        assertThat(b.servesBoundClients()).isFalse();

        // B's server comes up with the expected 401: all probes pass, B is back.
        httpServer(down, 401);
        await().atMost(Duration.ofSeconds(10)).until(() -> b.state() == RealState.OPERATIONAL);
        assertThat(c.state()).isEqualTo(RealState.PROBE_FAILED);
        wrongServer.close();
    }

    @Test
    void aReloadStartsTheProbesOfAddedRealsKeepsTheUnchangedOnesAndStopsTheRemovedOnes() throws Exception {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        servers.add(listener);
        int down = freeTcpPort();
        ProbeConfig tcp = probe(new ProbeCheck.TcpConnect());
        Farms farms = probed(tcp, real(down));
        RealServer a = farms.real("web", "127.0.0.1:" + down);
        await().atMost(Duration.ofSeconds(10)).until(() -> a.state() == RealState.PROBE_FAILED);

        FarmConfig grown = new FarmConfig("web", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                List.of(real(down), real(listener.getLocalPort())), Optional.empty(), List.of(tcp.name()));
        farms.reconfigure(Map.of("web", grown));
        scheduler.reconfigure(farms, Map.of("web", grown), Map.of(tcp.name(), tcp));
        RealServer b = farms.real("web", "127.0.0.1:" + listener.getLocalPort());

        await().atMost(Duration.ofSeconds(10)).until(() -> passes(b, "p-tcp") >= 1);
        assertThat(a.state()).as("its unchanged probe kept its failures").isEqualTo(RealState.PROBE_FAILED);

        FarmConfig unprobed = new FarmConfig("web", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                List.of(real(down), real(listener.getLocalPort())), Optional.empty(), List.of());
        farms.reconfigure(Map.of("web", unprobed));
        scheduler.reconfigure(farms, Map.of("web", unprobed), Map.of());

        assertThat(a.state()).as("no probe judges it any more").isEqualTo(RealState.OPERATIONAL);
        double checked = passes(b, "p-tcp");
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .until(() -> passes(b, "p-tcp") <= checked + 1); // at most the check in flight
    }

    @Test
    void tcpProbeFollowsTheListener() throws Exception {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        int port = listener.getLocalPort();
        Thread acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    listener.accept().close();
                } catch (IOException e) {
                    // closed
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        Farms farms = probed(probe(new ProbeCheck.TcpConnect()), real(port));
        RealServer real = farms.real("web", "127.0.0.1:" + port);
        await().atMost(Duration.ofSeconds(10)).until(() -> passes(real, "p-tcp") >= 2);
        assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);

        listener.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> real.state() == RealState.PROBE_FAILED);
    }

    @Test
    void udpProbeExpectsTheAnswerPrefix() throws Exception {
        SimulatedUdpBackend good = new SimulatedUdpBackend("good", new InetSocketAddress("127.0.0.1", 0));
        SimulatedUdpBackend other = new SimulatedUdpBackend("other", new InetSocketAddress("127.0.0.1", 0));
        servers.add(good);
        servers.add(other);
        Farms farms = probed(probe(new ProbeCheck.Udp("ping".getBytes(StandardCharsets.US_ASCII),
                "good|ping".getBytes(StandardCharsets.US_ASCII))), real(good.address().getPort()),
                real(other.address().getPort()));
        RealServer goodReal = farms.real("web", "127.0.0.1:" + good.address().getPort());
        RealServer otherReal = farms.real("web", "127.0.0.1:" + other.address().getPort());

        await().atMost(Duration.ofSeconds(10)).until(() -> otherReal.state() == RealState.PROBE_FAILED);
        assertThat(good.received()).isGreaterThanOrEqualTo(2);
        assertThat(goodReal.state()).isEqualTo(RealState.OPERATIONAL);

        good.silent(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> goodReal.state() == RealState.PROBE_FAILED);
    }

    @Test
    void dnsProbeChecksTheAnsweredAddress() throws Exception {
        TinyDnsServer right = new TinyDnsServer(new byte[] {127, 0, 0, 99});
        TinyDnsServer wrong = new TinyDnsServer(new byte[] {127, 0, 0, 98});
        servers.add(right);
        servers.add(wrong);
        Farms farms = probed(probe(new ProbeCheck.Dns("www.example.test", InetAddress.getByName("127.0.0.99"))),
                real(right.port()), real(wrong.port()));
        RealServer rightReal = farms.real("web", "127.0.0.1:" + right.port());
        RealServer wrongReal = farms.real("web", "127.0.0.1:" + wrong.port());

        await().atMost(Duration.ofSeconds(10)).until(() -> wrongReal.state() == RealState.PROBE_FAILED);
        await().atMost(Duration.ofSeconds(10)).until(() -> passes(rightReal, "p-dns") >= 2);
        assertThat(rightReal.state()).isEqualTo(RealState.OPERATIONAL);
    }

    @Test
    void pingProbePassesForTheLoopback() throws Exception {
        Farms farms = probed(probe(new ProbeCheck.Ping()), real(1));
        RealServer real = farms.real("web", "127.0.0.1:1");
        await().atMost(Duration.ofSeconds(10)).until(() -> passes(real, "p-ping") >= 2);
        assertThat(real.state()).isEqualTo(RealState.OPERATIONAL);
    }

    private double passes(RealServer real, String probe) {
        var counter = registry.find("switchboard.probe.checks").tag("real", real.id()).tag("probe", probe)
                .tag("result", "pass").counter();
        return counter == null ? 0 : counter.count();
    }

    /** Answers every A query with one address (RFC 1035 §4.1): enough for the probe, nothing more. */
    static final class TinyDnsServer implements AutoCloseable {
        private final DatagramSocket socket;
        private final Thread thread;

        TinyDnsServer(byte[] address) throws IOException {
            socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
            thread = new Thread(() -> serve(address), "tiny-dns");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void serve(byte[] address) {
            byte[] buf = new byte[512];
            while (!socket.isClosed()) {
                try {
                    DatagramPacket in = new DatagramPacket(buf, buf.length);
                    socket.receive(in);
                    int questionEnd = 12;
                    while (buf[questionEnd] != 0) {
                        questionEnd += (buf[questionEnd] & 0xff) + 1;
                    }
                    questionEnd += 5; // root label, QTYPE, QCLASS
                    byte[] answer = {(byte) 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4,
                            address[0], address[1], address[2], address[3]};
                    byte[] out = new byte[questionEnd + answer.length];
                    System.arraycopy(buf, 0, out, 0, questionEnd);
                    out[2] = (byte) 0x81; // QR, RD
                    out[3] = (byte) 0x80; // RA, NOERROR
                    out[7] = 1;           // ANCOUNT
                    out[9] = 0;
                    out[11] = 0;
                    System.arraycopy(answer, 0, out, questionEnd, answer.length);
                    socket.send(new DatagramPacket(out, out.length, in.getSocketAddress()));
                } catch (IOException e) {
                    // closed
                }
            }
        }

        @Override
        public void close() {
            socket.close();
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
