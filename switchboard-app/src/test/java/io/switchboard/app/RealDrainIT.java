package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real drained through the admin API on a running node: new subscribers go to the other real,
 * bound ones stay on it; the drain completes when nothing names the real any more, or its deadline
 * reassigns what is left.
 */
class RealDrainIT {

    private static final String TOKEN = "s3cret";
    private static final Duration ASK = Duration.ofSeconds(2);
    /** Clients 127.0.0.50.. bound before the drain; round robin puts every other one on each real. */
    private static final int BOUND = 4;

    private static final String CONFIG = """
            admin: { listen: 127.0.0.1:0, token: %s }
            farms:
              pair:
                reals:
                  - { address: 127.0.0.1, port: %d, weight: 1 }
                  - { address: 127.0.0.1, port: %d, weight: 1 }
            virtual-servers:
              echo:
                listen: 127.0.0.1:0
                service: udp
                farm: pair
                sticky: { key: client-address, idle: 10m }
            """;

    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private final List<SimulatedUdpClient> bound = new ArrayList<>();
    private final ObjectMapper json = new ObjectMapper();
    private Node node;
    private InetSocketAddress vip;
    private String one;

    @BeforeEach
    void start() throws Exception {
        for (String name : List.of("one", "two")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        one = "127.0.0.1:" + backends.get(0).address().getPort();
        String yaml = CONFIG.formatted(TOKEN, backends.get(0).address().getPort(), backends.get(1).address().getPort());
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();
        vip = node.director().localAddress("echo");
        for (int i = 0; i < BOUND; i++) {
            SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + (50 + i), 0), vip);
            bound.add(client);
            client.ask("bind", ASK);
        }
    }

    @AfterEach
    void stop() {
        bound.forEach(SimulatedUdpClient::close);
        if (node != null) {
            node.close();
        }
        backends.forEach(SimulatedUdpBackend::close);
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return new AdminClient(node.adminAddress(), TOKEN).call(method, path, body, "application/json");
    }

    private JsonNode drain() throws Exception {
        HttpResponse<String> r = call("GET", "/api/v1/farms/pair/reals/" + one + "/drain", null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    private static String backend(String answer) {
        return answer.substring(0, answer.indexOf('|'));
    }

    /** The clients bound to real one (its answers start with its name). */
    private List<SimulatedUdpClient> boundToOne() throws Exception {
        List<SimulatedUdpClient> onOne = new ArrayList<>();
        for (SimulatedUdpClient client : bound) {
            if (backend(client.ask("which", ASK)).equals("one")) {
                onOne.add(client);
            }
        }
        return onOne;
    }

    private List<String> newClients(int first, int count) throws Exception {
        List<String> served = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + i, 0), vip)) {
                served.add(backend(client.ask("new", ASK)));
            }
        }
        return served;
    }

    private String metric(String line) throws Exception {
        return call("GET", "/metrics", null).body().lines().filter(l -> l.startsWith(line + " ")).findFirst().orElse("");
    }

    /** Every bound client asking in turn, on a thread of its own until closed: whom each reached, and what was lost. */
    private final class Traffic implements AutoCloseable {

        final Map<SimulatedUdpClient, Set<String>> served = new ConcurrentHashMap<>();
        final AtomicInteger answered = new AtomicInteger();
        final AtomicInteger lost = new AtomicInteger();
        private volatile boolean running = true;
        private final Thread thread = new Thread(this::run, "traffic");

        Traffic() {
            thread.start();
        }

        private void run() {
            while (running) {
                for (SimulatedUdpClient client : bound) {
                    String answer = client.ask("traffic", ASK);
                    if (answer == null) {
                        lost.incrementAndGet();
                    } else {
                        served.computeIfAbsent(client, c -> ConcurrentHashMap.newKeySet()).add(backend(answer));
                        answered.incrementAndGet();
                    }
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join();
        }
    }

    @Test
    void aDrainedRealKeepsItsBoundClientsTakesNoNewOnesAndCompletesWhenTheirBindingsAreRemoved() throws Exception {
        List<SimulatedUdpClient> onOne = boundToOne();
        assertThat(onOne).hasSize(BOUND / 2);

        try (Traffic traffic = new Traffic()) {
            HttpResponse<String> started = call("POST", "/api/v1/farms/pair/reals/" + one + "/drain", null);

            assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
            assertThat(json.readTree(started.body()).get("state").asText()).isEqualTo("DRAINING");
            assertThat(newClients(100, 6)).containsOnly("two");
            int atDrain = traffic.answered.get();
            await().atMost(Duration.ofSeconds(5)).until(() -> traffic.answered.get() >= atDrain + 4 * BOUND);
            traffic.close();
            assertThat(traffic.lost.get()).isZero();
            for (SimulatedUdpClient client : bound) {
                assertThat(traffic.served.get(client)).as("bound clients stay where they are")
                        .containsExactly(onOne.contains(client) ? "one" : "two");
            }
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> drain().get("bindings").asInt(-1) == BOUND / 2);
        assertThat(drain().get("result").asText()).isEqualTo("draining");
        assertThat(drain().get("done").asBoolean()).isFalse();

        for (SimulatedUdpClient client : onOne) {
            String key = client.address().getAddress().getHostAddress();
            assertThat(call("DELETE", "/api/v1/sticky/echo?key=" + key, null).statusCode()).isEqualTo(204);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> drain().get("done").asBoolean());
        JsonNode done = drain();
        assertThat(done.get("result").asText()).isEqualTo("completed");
        assertThat(done.get("bindings").asInt()).isZero();
        assertThat(done.get("connections").asInt()).isZero();
        assertThat(done.get("state").asText()).as("drained, still out of rotation").isEqualTo("DRAINING");
        assertThat(metric("switchboard_real_drains_total{result=\"completed\"}")).endsWith(" 1.0");
        assertThat(metric("switchboard_real_drains_total{result=\"deadline\"}")).endsWith(" 0.0");

        HttpResponse<String> back = call("POST", "/api/v1/reals/pair/" + one + "/inservice", null);
        assertThat(json.readTree(back.body()).get("state").asText()).isEqualTo("OPERATIONAL");
        assertThat(call("GET", "/api/v1/farms/pair/reals/" + one + "/drain", null).statusCode()).isEqualTo(404);
        assertThat(newClients(110, 4)).contains("one", "two");
    }

    @Test
    void theDeadlineReassignsTheClientsStillBoundToTheRealAndCountsThem() throws Exception {
        List<SimulatedUdpClient> onOne = boundToOne();

        HttpResponse<String> started = call("POST", "/api/v1/reals/pair/" + one + "/drain", "{\"deadline\":\"2s\"}");

        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        assertThat(json.readTree(started.body()).get("drain").get("deadline").isNull()).isFalse();
        for (SimulatedUdpClient client : onOne) {
            assertThat(backend(client.ask("before the deadline", ASK))).isEqualTo("one");
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> drain().get("done").asBoolean());

        assertThat(drain().get("result").asText()).isEqualTo("deadline");
        assertThat(drain().get("bindings").asInt()).isZero();
        for (SimulatedUdpClient client : onOne) {
            assertThat(backend(client.ask("after the deadline", ASK))).isEqualTo("two");
        }
        assertThat(metric("switchboard_real_drains_total{result=\"deadline\"}")).endsWith(" 1.0");
        assertThat(metric("switchboard_real_drain_released_total{what=\"bindings\"}"))
                .endsWith(" " + (double) onOne.size());
    }

    @Test
    void aBadDeadlineOrAnOutOfServiceRealIsRefused() throws Exception {
        HttpResponse<String> bad = call("POST", "/api/v1/farms/pair/reals/" + one + "/drain", "{\"deadline\":\"10\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("deadline must be a duration with a unit");
        assertThat(call("GET", "/api/v1/farms/pair/reals/" + one + "/drain", null).statusCode()).isEqualTo(404);

        call("POST", "/api/v1/reals/pair/" + one + "/outofservice", null);
        assertThat(call("POST", "/api/v1/farms/pair/reals/" + one + "/drain", null).statusCode()).isEqualTo(409);
    }
}
