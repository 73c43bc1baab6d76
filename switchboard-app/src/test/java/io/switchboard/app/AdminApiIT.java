package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The admin listener of a running node: health, Prometheus metrics, the token, real control, sticky lookups. */
class AdminApiIT {

    private static final String TOKEN = "s3cret";
    private static final Duration ASK = Duration.ofSeconds(2);

    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private Node node;
    private URI base;
    private InetSocketAddress vip;

    @BeforeEach
    void start() throws Exception {
        for (String name : List.of("one", "two")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        String yaml = """
                admin: { listen: 127.0.0.1:0, token: %s }
                farms:
                  pair:
                    reals:
                      - { address: 127.0.0.1, port: %d }
                      - { address: 127.0.0.1, port: %d }
                virtual-servers:
                  echo:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: pair
                    sticky: { key: client-address, idle: 10m }
                """.formatted(TOKEN, backends.get(0).address().getPort(), backends.get(1).address().getPort());
        node = Nodes.started(yaml);
        base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
        vip = node.director().localAddress("echo");
    }

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
        backends.forEach(SimulatedUdpBackend::close);
    }

    private HttpResponse<String> call(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthAndMetricsAreOpenAndCountTraffic() throws Exception {
        HttpResponse<String> health = call("GET", "/health", null, null);
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(json.readTree(health.body()).get("status").asText()).isEqualTo("UP");

        try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0.41", 0), vip)) {
            assertThat(client.ask("hello", ASK)).endsWith("|hello");
        }
        HttpResponse<String> metrics = call("GET", "/metrics", null, null);
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
                .contains("switchboard_requests_forwarded_total{service=\"udp\",vserver=\"echo\"} 1.0")
                .contains("switchboard_responses_relayed_total{service=\"udp\",vserver=\"echo\"} 1.0")
                .contains("switchboard_dropped_total{reason=\"no-real-available\",service=\"udp\",vserver=\"echo\"} 0.0")
                .contains("switchboard_real_state{farm=\"pair\",real=\"127.0.0.1:" + backends.get(0).address().getPort()
                        + "\",state=\"OPERATIONAL\"} 1.0");
    }

    @Test
    void apiNeedsTheToken() throws Exception {
        assertThat(call("GET", "/api/v1/farms", null, null).statusCode()).isEqualTo(401);
        assertThat(call("GET", "/api/v1/farms", "wrong", null).statusCode()).isEqualTo(401);
        HttpResponse<String> farms = call("GET", "/api/v1/farms", TOKEN, null);
        assertThat(farms.statusCode()).isEqualTo(200);
        JsonNode reals = json.readTree(farms.body()).get(0).get("reals");
        assertThat(reals).hasSize(2);
        assertThat(reals.get(0).get("state").asText()).isEqualTo("OPERATIONAL");
    }

    @Test
    void outOfServiceMovesBoundClientsAndInServiceTakesNewOnes() throws Exception {
        try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0.42", 0), vip)) {
            String first = client.ask("a", ASK);
            String name = first.substring(0, first.indexOf('|'));
            SimulatedUdpBackend bound = backends.stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
            String realId = "127.0.0.1:" + bound.address().getPort();

            HttpResponse<String> sticky = call("GET", "/api/v1/sticky/echo?key=127.0.0.42", TOKEN, null);
            assertThat(sticky.statusCode()).isEqualTo(200);
            assertThat(json.readTree(sticky.body()).get("real").asText()).isEqualTo(realId);

            HttpResponse<String> out = call("POST", "/api/v1/reals/pair/" + realId + "/outofservice", TOKEN, null);
            assertThat(out.statusCode()).isEqualTo(200);
            assertThat(json.readTree(out.body()).get("state").asText()).isEqualTo("OUTOFSERVICE");
            String moved = client.ask("b", ASK);
            assertThat(moved).doesNotStartWith(name + "|").endsWith("|b");

            RealServer real = node.director().farms().real("pair", realId);
            assertThat(call("POST", "/api/v1/reals/pair/" + realId + "/inservice", TOKEN, null).statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(5)).until(() -> real.state() == RealState.OPERATIONAL);

            assertThat(call("DELETE", "/api/v1/sticky/echo?key=127.0.0.42", TOKEN, null).statusCode()).isEqualTo(204);
            assertThat(call("GET", "/api/v1/sticky/echo?key=127.0.0.42", TOKEN, null).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void weightZeroThrottlesTheReal() throws Exception {
        String realId = "127.0.0.1:" + backends.get(1).address().getPort();
        HttpResponse<String> r = call("PUT", "/api/v1/reals/pair/" + realId + "/weight", TOKEN, "{\"weight\": 0}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json.readTree(r.body()).get("state").asText()).isEqualTo("DFP_THROTTLED");
        assertThat(call("PUT", "/api/v1/reals/pair/" + realId + "/weight", TOKEN, "{\"weight\": 900}").statusCode())
                .isEqualTo(400);
        // New clients all go to the other real now.
        for (int i = 0; i < 4; i++) {
            try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + (50 + i), 0), vip)) {
                assertThat(client.ask("x", ASK)).startsWith("one|");
            }
        }
    }

    @Test
    void showRealsPrintsTheIosTable() {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        int exit = cli.execute("show", "reals", "--admin", base.toString(), "--token", TOKEN);

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("farm name").contains("127.0.0.1:" + backends.get(0).address().getPort())
                .contains("pair").contains("OPERATIONAL");
    }
}
