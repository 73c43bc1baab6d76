package io.switchboard.l4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.codec.DropReason;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The director on 127.0.0.1 (ephemeral port) in front of three simulated UDP backends, driven by
 * clients on distinct loopback addresses: distribution, stickiness, in-band failover, return after
 * the retry timer, and oversized datagrams dropped while traffic continues.
 */
class UdpDirectorIT {

    private static final Duration RESPONSE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final Duration ASK = Duration.ofSeconds(2);

    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private final List<SimulatedUdpClient> clients = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Vertx vertx;
    private Director director;
    private InetSocketAddress vip;

    @BeforeEach
    void start() throws Exception {
        List<RealConfig> reals = new ArrayList<>();
        for (String name : List.of("A", "B", "C")) {
            SimulatedUdpBackend backend = new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0));
            backends.add(backend);
            reals.add(new RealConfig(backend.address().getAddress(), backend.address().getPort(), 1,
                    OptionalInt.empty(), true));
        }
        FarmConfig farm = new FarmConfig("responders", PredictorKind.ROUNDROBIN,
                new FailureDetection(3, 2, RETRY), reals, Optional.empty());
        VirtualServerConfig vs = new VirtualServerConfig("echo",
                new Endpoint(InetAddress.getByName("127.0.0.1"), 0), "udp", "responders",
                Optional.of(new StickyConfig(List.of(StickyKind.CLIENT_ADDRESS), Duration.ofHours(1),
                        OptionalInt.empty(), 10_000)),
                RESPONSE_TIMEOUT, Duration.ofMinutes(1), 4096, true);
        SwitchboardConfig config = new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of("responders", farm), Map.of("echo", vs));
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        director = new Director(config, v -> new UdpService(), registry, Ticker.SYSTEM);
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vip = director.localAddress("echo");
    }

    @AfterEach
    void stop() throws Exception {
        clients.forEach(SimulatedUdpClient::close);
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        backends.forEach(SimulatedUdpBackend::close);
    }

    @Test
    void spreadsClientsKeepsThemStickyFailsOverAndTakesTheRealBack() throws Exception {
        // Six clients on six loopback addresses, ten requests each.
        Map<SimulatedUdpClient, String> stuckTo = new HashMap<>();
        for (int i = 0; i < 6; i++) {
            SimulatedUdpClient client = client("127.0.0." + (11 + i));
            Set<String> answeredBy = new HashSet<>();
            for (int r = 0; r < 10; r++) {
                String answer = client.ask("req-" + i + "-" + r, ASK);
                assertThat(answer).endsWith("|req-" + i + "-" + r);
                answeredBy.add(answer.substring(0, answer.indexOf('|')));
            }
            assertThat(answeredBy).as("client %d stays on one real", i).hasSize(1);
            stuckTo.put(client, answeredBy.iterator().next());
        }
        // Round robin over three equal reals: two clients each.
        Map<String, Long> clientsPerReal = new HashMap<>();
        stuckTo.values().forEach(r -> clientsPerReal.merge(r, 1L, Long::sum));
        assertThat(clientsPerReal).containsOnlyKeys("A", "B", "C").allSatisfy((real, n) -> assertThat(n).isEqualTo(2));
        assertThat(backends).allSatisfy(b -> assertThat(b.received()).isEqualTo(20));

        // Backend A goes silent: its two clients' requests go unanswered until A is FAILED.
        SimulatedUdpBackend a = backends.get(0);
        RealServer realA = director.farms().farm("responders").real(idOf(a));
        List<SimulatedUdpClient> onA = stuckTo.entrySet().stream().filter(e -> e.getValue().equals("A")).map(Map.Entry::getKey).toList();
        a.silent(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            onA.forEach(c -> c.send("probe"));
            return realA.state() == RealState.FAILED;
        });
        assertThat(realA.failures()).isEqualTo(1);
        // The expiry that fails the real is counted just after the real hears of it (the engine's expired()),
        // on the event loop: this thread may look in between.
        await().atMost(Duration.ofSeconds(5)).until(() -> counter("switchboard.requests.expired") >= 3);

        // Its clients are reassigned to B or C and stay there. Probes sent once A had failed were
        // forwarded to the new real, and under load their answers may still be on the way: they
        // come from the same real as every later answer.
        for (SimulatedUdpClient c : onA) {
            List<String> probeAnswers = new ArrayList<>();
            String first = askPastProbeAnswers(c, "after-failover", probeAnswers);
            assertThat(first).matches("[BC]\\|after-failover");
            String real = first.substring(0, 2);
            assertThat(askPastProbeAnswers(c, "again", probeAnswers)).isEqualTo(real + "again");
            assertThat(probeAnswers).allSatisfy(p -> assertThat(p).isEqualTo(real + "probe"));
        }

        // A answers again; after the retry timer it is READY_TO_TEST, a new client's request tests
        // it and it is OPERATIONAL again.
        a.silent(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> realA.state() == RealState.READY_TO_TEST);
        long aBefore = a.received();
        List<String> newcomers = new ArrayList<>();
        for (int i = 0; i < 3 && realA.state() != RealState.OPERATIONAL; i++) {
            SimulatedUdpClient c = client("127.0.0." + (31 + i));
            newcomers.add(c.ask("newcomer", ASK));
        }
        assertThat(realA.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(newcomers).contains("A|newcomer");
        assertThat(a.received()).isGreaterThan(aBefore);
    }

    @Test
    void oversizedDatagramIsCountedAndDroppedWhileTrafficContinues() throws Exception {
        SimulatedUdpClient client = client("127.0.0.21");
        assertThat(client.ask("before", ASK)).endsWith("|before");
        long received = backends.stream().mapToLong(SimulatedUdpBackend::received).sum();

        client.send("x".repeat(5000));
        await().atMost(Duration.ofSeconds(5)).until(() -> counter("switchboard.dropped", "reason", "oversized") == 1);

        assertThat(client.ask("after", ASK)).endsWith("|after");
        assertThat(backends.stream().mapToLong(SimulatedUdpBackend::received).sum()).isEqualTo(received + 1);
        VirtualServer vs = director.virtualServers().get("echo");
        assertThat(vs.metrics().droppedCount(DropReason.OVERSIZED)).isEqualTo(1);
        assertThat(vs.metrics().forwardedCount()).isEqualTo(2);
        assertThat(vs.metrics().relayedCount()).isEqualTo(2);
    }

    /**
     * Sends {@code payload} and returns the next answer that is not an answer to a "probe" (those,
     * from probes sent earlier, are collected in {@code probeAnswers}); null when none came.
     */
    private static String askPastProbeAnswers(SimulatedUdpClient c, String payload, List<String> probeAnswers) {
        c.send(payload);
        for (String answer = c.receive(ASK); ; answer = c.receive(ASK)) {
            if (answer == null || !answer.endsWith("|probe")) {
                return answer;
            }
            probeAnswers.add(answer);
        }
    }

    private static String idOf(SimulatedUdpBackend backend) {
        return backend.address().getAddress().getHostAddress() + ":" + backend.address().getPort();
    }

    private double counter(String name, String... tags) {
        var search = registry.find(name).tag("vserver", "echo");
        if (tags.length > 0) {
            search = search.tags(tags);
        }
        var c = search.counter();
        return c == null ? 0 : c.count();
    }

    private SimulatedUdpClient client(String address) throws IOException {
        SimulatedUdpClient c = new SimulatedUdpClient(new InetSocketAddress(address, 0), vip);
        clients.add(c);
        return c;
    }
}
