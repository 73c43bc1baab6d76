package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lone node with {@code persistence} restarted: stopped gracefully, started again on the same file,
 * it still has every sticky binding and {@code gtp-inspect} session (through the admin API, before
 * any traffic) and its subscribers go to the same reals.
 */
class PersistenceIT {

    private static final Duration ASK = Duration.ofSeconds(2);
    private static final String IMSI = "262420000000001";
    /** Clients 127.0.0.50.. bound before the restart. */
    private static final int BOUND = 4;

    private static final String CONFIG = """
            admin: { listen: 127.0.0.1:0 }
            persistence: { file: %s }
            farms:
              pair:
                reals:
                  - { address: 127.0.0.1, port: %d, weight: 1 }
                  - { address: 127.0.0.1, port: %d, weight: 1 }
              ggsn:
                reals: [{ address: 127.0.0.1, port: %d }]
            virtual-servers:
              echo:
                listen: 127.0.0.1:0
                service: udp
                farm: pair
                sticky: { key: client-address, idle: 10m }
              gtp-c:
                listen: 127.0.0.1:0
                service: gtp-inspect
                farm: ggsn
                sticky: { key: imsi, idle: 1h }
                gtp: { versions: [1], carrier-codes: ["26242"] }
            """;

    @TempDir
    Path dir;
    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private final ObjectMapper json = new ObjectMapper();
    private GgsnStandIn ggsn;
    private String yaml;
    private Node node;

    @BeforeEach
    void start() throws Exception {
        for (String name : List.of("one", "two")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        ggsn = new GgsnStandIn();
        yaml = CONFIG.formatted(dir.resolve("state.snapshot"), backends.get(0).address().getPort(),
                backends.get(1).address().getPort(), ggsn.port());
    }

    @AfterEach
    void stop() throws Exception {
        if (node != null) {
            node.close();
        }
        backends.forEach(SimulatedUdpBackend::close);
        ggsn.close();
    }

    private void startNode() throws Exception {
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return new AdminClient(node.adminAddress(), null).call("GET", path, null, null);
    }

    private JsonNode getJson(String path) throws Exception {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as("%s: %s", path, r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    /** The backend that answered the client (its answers start with its name), or null when none did. */
    private String ask(String client) throws Exception {
        try (SimulatedUdpClient c = new SimulatedUdpClient(new InetSocketAddress(client, 0),
                node.director().localAddress("echo"))) {
            String answer = c.ask("which", ASK);
            return answer == null ? null : answer.substring(0, answer.indexOf('|'));
        }
    }

    /** Each bound client's real, as the admin API shows its binding. */
    private Map<String, String> bindings() throws Exception {
        Map<String, String> reals = new LinkedHashMap<>();
        for (int i = 0; i < BOUND; i++) {
            String client = "127.0.0." + (50 + i);
            HttpResponse<String> r = get("/api/v1/sticky/echo?key=" + client);
            reals.put(client, r.statusCode() == 200 ? json.readTree(r.body()).get("real").asText() : null);
        }
        return reals;
    }

    private String metric(String name) throws Exception {
        return new AdminClient(node.adminAddress(), null).metric(name + " ");
    }

    @Test
    void aRestartedLoneNodeKeepsItsBindingsAndSessions() throws Exception {
        startNode();
        // A first client takes real one, so that round robin after a restart would deal the others the
        // other way round: only a binding that survived sends each to the same real again.
        assertThat(ask("127.0.0.49")).isEqualTo("one");
        Map<String, String> served = new LinkedHashMap<>();
        for (int i = 0; i < BOUND; i++) {
            served.put("127.0.0." + (50 + i), ask("127.0.0." + (50 + i)));
        }
        assertThat(served.values()).containsExactly("two", "one", "two", "one");
        Map<String, String> bound = bindings();
        assertThat(bound.values()).doesNotContainNull();
        GgsnStandIn.attach(node.director().localAddress("gtp-c"), (byte) 0x34, (byte) 0xf1); // IMSI 262420000000001
        String real = "127.0.0.1:" + ggsn.port();
        assertThat(getJson("/api/v1/sessions?real=" + real)).hasSize(1);

        node.shutdown(Duration.ofSeconds(2));
        node = null;
        assertThat(dir.resolve("state.snapshot")).exists();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("state.snapshot");
        startNode();

        // Before any traffic: the admin API shows what the node had.
        assertThat(bindings()).isEqualTo(bound);
        JsonNode imsi = getJson("/api/v1/sticky/imsi/" + IMSI);
        assertThat(imsi).hasSize(1);
        assertThat(imsi.get(0).get("real").asText()).isEqualTo(real);
        JsonNode sessions = getJson("/api/v1/sessions?real=" + real);
        assertThat(sessions).hasSize(1);
        assertThat(sessions.get(0).get("key").asText()).isEqualTo(IMSI);
        assertThat(sessions.get(0).get("detail").asText()).isEqualTo("real TEID-C 0x00abcdef");
        // 5 client bindings, the IMSI's binding, its session.
        assertThat(metric("switchboard_persistence_restored_total")).isEqualTo("switchboard_persistence_restored_total 7.0");
        // And through traffic: each bound subscriber reaches its real again.
        for (Map.Entry<String, String> client : served.entrySet()) {
            assertThat(ask(client.getKey())).as(client.getKey()).isEqualTo(client.getValue());
        }
    }
}
