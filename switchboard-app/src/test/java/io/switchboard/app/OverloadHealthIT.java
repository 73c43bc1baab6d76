package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node whose virtual server admits one new flow a second (burst 1 s): the second client's new flow
 * is refused and counted, the first client's flow goes on, and {@code /health} says DEGRADED with
 * HTTP 200 (docs/overload.md: an overloaded node keeps its sessions) until a second passes without a
 * refusal.
 */
class OverloadHealthIT {

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    private HttpResponse<String> get(URI base, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void refusedNewWorkMakesTheNodeDegradedNotDown() throws Exception {
        try (SimulatedUdpBackend backend = new SimulatedUdpBackend("one", new InetSocketAddress("127.0.0.1", 0))) {
            String yaml = """
                    admin: { listen: 127.0.0.1:0 }
                    farms:
                      one:
                        reals: [ { address: 127.0.0.1, port: %d } ]
                    virtual-servers:
                      echo:
                        listen: 127.0.0.1:0
                        service: udp
                        farm: one
                        overload: { new-per-second: 1 }
                    """.formatted(backend.address().getPort());
            Services services = Services.discover();
            Node node = new Node(new ConfigLoader(services.available()).parse(yaml), services);
            try {
                node.startAndWait();
                URI base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
                InetSocketAddress vip = node.director().localAddress("echo");
                try (SimulatedUdpClient first = new SimulatedUdpClient(new InetSocketAddress("127.0.0.51", 0), vip);
                        SimulatedUdpClient second = new SimulatedUdpClient(new InetSocketAddress("127.0.0.52", 0), vip)) {
                    assertThat(first.ask("a", Duration.ofSeconds(2))).endsWith("|a");
                    assertThat(second.ask("b", Duration.ofMillis(300))).as("a second new flow in the same second").isNull();
                    assertThat(first.ask("c", Duration.ofSeconds(2))).as("the admitted flow goes on").endsWith("|c");

                    HttpResponse<String> health = get(base, "/health");
                    assertThat(health.statusCode()).as("degraded, not down: 200").isEqualTo(200);
                    JsonNode body = json.readTree(health.body());
                    assertThat(body.get("status").asText()).isEqualTo("DEGRADED");
                    assertThat(body.get("virtualServers").get("echo").asText()).isEqualTo("OVERLOADED");
                    assertThat(get(base, "/metrics").body())
                            .contains("switchboard_overload_refused_total{limit=\"new-rate\",service=\"udp\",vserver=\"echo\",work=\"new\"} 1.0")
                            .contains("switchboard_dropped_total{reason=\"overload\",service=\"udp\",vserver=\"echo\"} 1.0")
                            .contains("switchboard_overload_active{service=\"udp\",vserver=\"echo\"} 1.0");

                    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() ->
                            json.readTree(get(base, "/health").body()).get("status").asText().equals("UP"));
                }
            } finally {
                node.close();
            }
        }
    }
}
