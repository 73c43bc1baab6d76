package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code gtp-inspect} virtual server built from YAML by the launcher, and the admin API's GTP views:
 * {@code GET /api/v1/sticky/imsi/{imsi}} and {@code GET /api/v1/sessions?real=...}.
 */
class GtpAdminApiIT {

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private GgsnStandIn ggsn;
    private Node node;
    private URI base;

    @BeforeEach
    void start() throws Exception {
        ggsn = new GgsnStandIn();
        node = Nodes.started(ggsn.inspectConfig());
        base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
    }

    @AfterEach
    void stop() throws Exception {
        if (node != null) {
            node.close();
        }
        ggsn.close();
    }

    private JsonNode get(String path, int status) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s: %s", path, r.body()).isEqualTo(status);
        return json.readTree(r.body());
    }

    @Test
    void imsiBindingsAndSessionsAreVisible() throws Exception {
        String real = "127.0.0.1:" + ggsn.port();
        get("/api/v1/sticky/imsi/262420000000001", 404);
        assertThat(get("/api/v1/sessions", 200)).isEmpty();

        // IMSI 262420000000001 attaches (TS 29.060 §7.3.1, IMSI IE only).
        GgsnStandIn.attach(node.director().localAddress("gtp-c"), (byte) 0x34, (byte) 0xf1);

        JsonNode bindings = get("/api/v1/sticky/imsi/262420000000001", 200);
        assertThat(bindings).hasSize(1);
        assertThat(bindings.get(0).get("vserver").asText()).isEqualTo("gtp-c");
        assertThat(bindings.get(0).get("real").asText()).isEqualTo(real);

        JsonNode sessions = get("/api/v1/sessions?real=" + real, 200);
        assertThat(sessions).hasSize(1);
        assertThat(sessions.get(0).get("key").asText()).isEqualTo("262420000000001");
        assertThat(sessions.get(0).get("detail").asText()).isEqualTo("real TEID-C 0x00abcdef");
        assertThat(get("/api/v1/sessions?real=127.0.0.9:2123", 200)).isEmpty();
    }

    /** A session pinned to a draining real counts as what is left, and its deadline releases it. */
    @Test
    void aDrainsDeadlineReleasesTheSessionsPinnedToTheReal() throws Exception {
        String real = "127.0.0.1:" + ggsn.port();
        GgsnStandIn.attach(node.director().localAddress("gtp-c"), (byte) 0x35, (byte) 0xf2);
        assertThat(get("/api/v1/sessions?real=" + real, 200)).hasSize(1);

        HttpResponse<String> started = http.send(HttpRequest.newBuilder(base.resolve(
                "/api/v1/farms/ggsn/reals/" + real + "/drain")).timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString("{\"deadline\":\"3s\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> get("/api/v1/farms/ggsn/reals/" + real + "/drain", 200).get("connections").asInt(-1) == 1);
        JsonNode left = get("/api/v1/farms/ggsn/reals/" + real + "/drain", 200);
        assertThat(left.get("result").asText()).as("the session holds the drain open").isEqualTo("draining");
        assertThat(left.get("bindings").asInt()).isEqualTo(1);
        assertThat(get("/api/v1/sessions?real=" + real, 200)).hasSize(1);

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> get("/api/v1/farms/ggsn/reals/" + real + "/drain", 200).get("done").asBoolean());
        JsonNode ended = get("/api/v1/farms/ggsn/reals/" + real + "/drain", 200);
        assertThat(ended.get("result").asText()).isEqualTo("deadline");
        assertThat(ended.get("bindings").asInt()).isZero();
        assertThat(ended.get("connections").asInt()).isZero();
        assertThat(get("/api/v1/sessions?real=" + real, 200)).isEmpty();
        String metrics = http.send(HttpRequest.newBuilder(base.resolve("/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics).contains("switchboard_real_drain_released_total{what=\"sessions\"} 1.0",
                "switchboard_real_drain_released_total{what=\"bindings\"} 1.0",
                "switchboard_real_drains_total{result=\"deadline\"} 1.0");
    }
}
