package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The admin plane of docs/securing.md on a running node: the token read from a file, every change
 * logged with its source and counted by outcome, and the configuration shown without its secrets.
 * One node for the class (the configuration test only reads, which is neither logged nor counted).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminSecurityIT {

    private static final String TOKEN = "t0k3n from a file";
    private static final String REAL_SECRET = "real-secret-in-clear";

    @TempDir
    static Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ListAppender<ILoggingEvent> audit = new ListAppender<>();
    private SimulatedUdpBackend backend;
    private Node node;
    private URI base;
    private String real;

    @BeforeAll
    void start() throws Exception {
        ((Logger) LoggerFactory.getLogger("io.switchboard.audit")).addAppender(audit);
        audit.start();
        Path token = Files.writeString(dir.resolve("admin.token"), TOKEN + "\n");
        backend = new SimulatedUdpBackend("one", new InetSocketAddress("127.0.0.1", 0));
        real = "127.0.0.1:" + backend.address().getPort();
        String yaml = """
                admin: { listen: 127.0.0.1:0, token: { file: %s } }
                farms:
                  one:
                    reals:
                      - { address: 127.0.0.1, port: %d, secret: %s }
                virtual-servers:
                  echo: { listen: 127.0.0.1:0, service: udp, farm: one }
                """.formatted(token, backend.address().getPort(), REAL_SECRET);
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();
        base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
    }

    @AfterAll
    void stop() {
        ((Logger) LoggerFactory.getLogger("io.switchboard.audit")).detachAppender(audit);
        if (node != null) {
            node.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    private HttpResponse<String> call(String method, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyChangeIsLoggedWithItsSourceAndCounted() throws Exception {
        assertThat(call("POST", "/api/v1/reals/one/" + real + "/outofservice", TOKEN).statusCode()).isEqualTo(200);
        assertThat(call("POST", "/api/v1/reals/one/" + real + "/inservice", "t0k3n").statusCode()).isEqualTo(401);
        assertThat(call("POST", "/api/v1/reals/one/127.0.0.9:1/inservice", TOKEN).statusCode()).isEqualTo(404);
        assertThat(call("GET", "/api/v1/farms", TOKEN).statusCode()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(5)).until(() -> audit.list.size() == 3);
        List<String> lines = audit.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).allMatch(l -> l.contains(" from 127.0.0.1:"), "has the source address and port");
        assertThat(lines.get(0)).startsWith("admin API: POST /api/v1/reals/one/" + real + "/outofservice from")
                .endsWith(": 200");
        assertThat(lines.get(1)).endsWith(": 401 (missing or wrong token)");
        assertThat(lines.get(2)).endsWith(": 404 (refused, nothing changed)");
        assertThat(String.join("\n", lines)).doesNotContain("t0k3n");
        String metrics = call("GET", "/metrics", null).body();
        assertThat(metrics).contains("switchboard_admin_changes_total{outcome=\"done\"} 1.0")
                .contains("switchboard_admin_changes_total{outcome=\"unauthorized\"} 1.0")
                .contains("switchboard_admin_changes_total{outcome=\"refused\"} 1.0");
    }

    @Test
    void theConfigurationIsShownWithoutItsSecrets() throws Exception {
        HttpResponse<String> config = call("GET", "/api/v1/config", TOKEN);

        assertThat(config.statusCode()).isEqualTo(200);
        String yaml = new ObjectMapper().readTree(config.body()).get("yaml").asText();
        assertThat(yaml).doesNotContain(REAL_SECRET, TOKEN).contains("secret: \"***\"")
                .contains("token: { file: " + dir.resolve("admin.token") + " }");
    }
}
