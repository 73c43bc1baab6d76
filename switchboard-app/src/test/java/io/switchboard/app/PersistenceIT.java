package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private DatagramSocket ggsn;
    private Thread ggsnThread;
    private String yaml;
    private Node node;

    /** A GGSN stand-in: answers each Create PDP Context Request with cause 128 and TEID-C 0x00abcdef. */
    private void serve() {
        while (!ggsn.isClosed()) {
            try {
                DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
                ggsn.receive(in);
                byte[] req = Arrays.copyOf(in.getData(), in.getLength());
                if (req.length < 12 || req[1] != 16) {
                    continue;
                }
                // TS 29.060 §7.3.2: header (type 17, TEID 0x2000, the request's sequence), Cause 128,
                // TEID Control Plane, GSN Address 10.9.8.7.
                ByteBuffer b = ByteBuffer.allocate(26);
                b.put((byte) 0x32).put((byte) 17).putShort((short) 18).putInt(0x2000).put(req[8]).put(req[9])
                        .put((byte) 0).put((byte) 0).put(new byte[] {1, (byte) 128}).put((byte) 17).putInt(0x00abcdef)
                        .put(new byte[] {(byte) 133, 0, 4, 10, 9, 8, 7});
                ggsn.send(new DatagramPacket(b.array(), 26, in.getSocketAddress()));
            } catch (IOException e) {
                // closed
            }
        }
    }

    @BeforeEach
    void start() throws Exception {
        for (String name : List.of("one", "two")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        ggsn = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        ggsnThread = new Thread(this::serve, "ggsn-stand-in");
        ggsnThread.setDaemon(true);
        ggsnThread.start();
        yaml = CONFIG.formatted(dir.resolve("state.snapshot"), backends.get(0).address().getPort(),
                backends.get(1).address().getPort(), ggsn.getLocalPort());
    }

    @AfterEach
    void stop() throws Exception {
        if (node != null) {
            node.close();
        }
        backends.forEach(SimulatedUdpBackend::close);
        ggsn.close();
        ggsnThread.join(2000);
    }

    private void startNode() throws Exception {
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();
    }

    private HttpResponse<String> get(String path) throws Exception {
        URI base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
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
        return get("/metrics").body().lines().filter(l -> l.startsWith(name + " ")).findFirst().orElse("");
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
        byte[] create = {0x32, 16, 0, 13, 0, 0, 0, 0, 0x12, 0x34, 0, 0,
            2, 0x62, 0x42, 0x02, 0, 0, 0, 0, (byte) 0xf1}; // TS 29.060 §7.3.1, IMSI 262420000000001 only
        try (DatagramSocket sgsn = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            sgsn.setSoTimeout(5000);
            sgsn.send(new DatagramPacket(create, create.length, node.director().localAddress("gtp-c")));
            DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
            sgsn.receive(in);
            assertThat(in.getData()[1]).as("Create PDP Context Response").isEqualTo((byte) 17);
        }
        String real = "127.0.0.1:" + ggsn.getLocalPort();
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
