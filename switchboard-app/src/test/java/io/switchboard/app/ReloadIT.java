package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Reload on a running node through {@code POST /api/v1/config} and {@code switchboard reload}: what
 * applies in place changes the running reals and virtual server, bindings and traffic untouched;
 * an invalid configuration or one that needs a restart changes nothing.
 */
class ReloadIT {

    private static final String TOKEN = "s3cret";
    private static final Duration ASK = Duration.ofSeconds(2);

    /** Two reals (weights and inservice filled in), a sticky round-robin virtual server. */
    private static final String CONFIG = """
            admin: { listen: 127.0.0.1:0, token: %s }
            farms:
              pair:
                reals:
                  - { address: 127.0.0.1, port: %d, weight: %d, inservice: %s }
                  - { address: 127.0.0.1, port: %d, weight: %d }
            virtual-servers:
              echo:
                listen: 127.0.0.1:0
                service: udp
                farm: pair
                sticky: { key: client-address, idle: 10m }
            """;

    @TempDir
    Path dir;

    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private final ObjectMapper json = new ObjectMapper();
    private Node node;
    private URI base;
    private InetSocketAddress vip;
    private String one;
    private String two;

    @BeforeEach
    void start() throws Exception {
        for (String name : List.of("one", "two")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        one = "127.0.0.1:" + backends.get(0).address().getPort();
        two = "127.0.0.1:" + backends.get(1).address().getPort();
        String yaml = config(8, true, 8);
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();
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

    private String config(int weightOne, boolean oneInService, int weightTwo) {
        return CONFIG.formatted(TOKEN, backends.get(0).address().getPort(), weightOne, oneInService,
                backends.get(1).address().getPort(), weightTwo);
    }

    private HttpResponse<String> call(String method, String path, String body, String contentType) throws Exception {
        return new AdminClient(node.adminAddress(), TOKEN).call(method, path, body, contentType);
    }

    private HttpResponse<String> post(String yaml) throws Exception {
        return new AdminClient(node.adminAddress(), TOKEN).reload(yaml);
    }

    private JsonNode real(String id) throws Exception {
        for (JsonNode real : json.readTree(call("GET", "/api/v1/farms/pair", null, null).body()).get("reals")) {
            if (real.get("real").asText().equals(id)) {
                return real;
            }
        }
        throw new AssertionError("no real " + id);
    }

    /** New subscribers (one client address each) and which backend each one got. */
    private Map<String, Integer> newClients(int first, int count) throws Exception {
        Map<String, Integer> served = new HashMap<>();
        for (int i = first; i < first + count; i++) {
            try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + i, 0), vip)) {
                String answer = client.ask("new", ASK);
                served.merge(answer.substring(0, answer.indexOf('|')), 1, Integer::sum);
            }
        }
        return served;
    }

    private String metric(String result) throws Exception {
        String metrics = call("GET", "/metrics", null, null).body();
        return metrics.lines().filter(l -> l.startsWith("switchboard_config_reloads_total{result=\"" + result + "\"}"))
                .findFirst().orElse("");
    }

    @Test
    void aNewWeightIsAppliedAndTheRoundRobinFollowsIt() throws Exception {
        try (SimulatedUdpClient bound = new SimulatedUdpClient(new InetSocketAddress("127.0.0.61", 0), vip)) {
            String before = bound.ask("before", ASK);
            String digest = json.readTree(call("GET", "/api/v1/config", null, null).body()).get("digest").asText();

            HttpResponse<String> r = post(config(1, true, 3));

            assertThat(r.statusCode()).isEqualTo(200);
            JsonNode body = json.readTree(r.body());
            assertThat(body.get("result").asText()).isEqualTo("applied");
            assertThat(body.get("added")).isEmpty();
            assertThat(body.get("removed")).isEmpty();
            Map<String, String> changed = new HashMap<>();
            body.get("changed").forEach(c -> changed.put(c.get("path").asText(),
                    c.get("old").asInt() + " -> " + c.get("new").asInt()));
            assertThat(changed).containsOnly(Map.entry("farms.pair.reals[" + one + "].weight", "8 -> 1"),
                    Map.entry("farms.pair.reals[" + two + "].weight", "8 -> 3"));
            assertThat(real(one).get("weight").asInt()).isEqualTo(1);
            assertThat(real(one).get("staticWeight").asInt()).isEqualTo(1);
            assertThat(real(two).get("weight").asInt()).isEqualTo(3);

            // Weighted round robin, 1:3, over ten turns of new subscribers.
            Map<String, Integer> served = newClients(100, 40);
            assertThat(served.get("one")).isBetween(9, 11);
            assertThat(served.get("two")).isBetween(29, 31);
            // The binding made before the reload holds, and traffic went on throughout.
            assertThat(bound.ask("after", ASK)).startsWith(before.substring(0, before.indexOf('|') + 1));

            JsonNode running = json.readTree(call("GET", "/api/v1/config", null, null).body());
            assertThat(running.get("digest").asText()).isNotEqualTo(digest)
                    .isEqualTo(json.readTree(call("GET", "/api/v1/cluster", null, null).body()).get("configDigest").asText());
            assertThat(running.get("yaml").asText()).isEqualTo(masked(config(1, true, 3)));
            assertThat(metric("applied")).endsWith(" 1.0");
        }
    }

    @Test
    void aRealTakenOutOfServiceByReloadTakesNoNewSubscribers() throws Exception {
        HttpResponse<String> r = post(config(8, false, 8));

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json.readTree(r.body()).get("changed").get(0).get("path").asText())
                .isEqualTo("farms.pair.reals[" + one + "].inservice");
        assertThat(real(one).get("state").asText()).isEqualTo("OUTOFSERVICE");
        assertThat(newClients(100, 6)).containsOnlyKeys("two");

        assertThat(post(config(8, true, 8)).statusCode()).isEqualTo(200);
        assertThat(real(one).get("state").asText()).isEqualTo("OPERATIONAL");
        assertThat(post(config(8, true, 8)).body()).contains("\"unchanged\"");
        assertThat(metric("unchanged")).endsWith(" 1.0");
    }

    @Test
    void anInvalidConfigurationIsRefusedWithEveryErrorAndChangesNothing() throws Exception {
        String broken = config(300, false, 3).replace("farm: pair", "farm: missing");

        HttpResponse<String> r = post(broken);

        assertThat(r.statusCode()).isEqualTo(422);
        JsonNode errors = json.readTree(r.body()).get("errors");
        List<String> lines = new ArrayList<>();
        errors.forEach(e -> lines.add(e.get("path").asText() + ": " + e.get("message").asText()));
        assertThat(lines).contains("farms.pair.reals[0].weight: must be 1..255")
                .anyMatch(l -> l.startsWith("virtual-servers.echo.farm:"));
        assertThat(real(one).get("weight").asInt()).isEqualTo(8);
        assertThat(real(one).get("state").asText()).isEqualTo("OPERATIONAL");
        assertThat(real(two).get("weight").asInt()).isEqualTo(8);
        assertThat(json.readTree(call("GET", "/api/v1/config", null, null).body()).get("yaml").asText())
                .isEqualTo(masked(config(8, true, 8)));
        assertThat(newClients(100, 4).values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(4);
        assertThat(metric("invalid")).endsWith(" 1.0");

        HttpResponse<String> ios = call("POST", "/api/v1/config?format=ios", "ip slb serverfarm\n", null);
        assertThat(ios.statusCode()).isEqualTo(422);
    }

    @Test
    void aChangeThatNeedsARestartIsRefusedAndNothingChanges() throws Exception {
        HttpResponse<String> r = post(config(8, true, 2).replace("listen: 127.0.0.1:0, token", "listen: 127.0.0.2:0, token"));

        assertThat(r.statusCode()).isEqualTo(409);
        JsonNode body = json.readTree(r.body());
        assertThat(body.get("needs-restart")).extracting(JsonNode::asText)
                .containsExactly("admin.listen");
        assertThat(body.get("changed")).hasSize(2);
        assertThat(real(two).get("weight").asInt()).as("the weight change came with it: not applied").isEqualTo(8);
        assertThat(newClients(100, 4).values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(4);
        assertThat(metric("refused")).endsWith(" 1.0");
    }

    @Test
    void theReloadCommandPrintsTheDiffOrWhyNothingChanged() throws Exception {
        Path file = Files.writeString(dir.resolve("switchboard.yaml"), config(8, true, 5));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        int applied = cli.execute("reload", "-c", file.toString(), "--admin", base.toString(), "--token", TOKEN);

        assertThat(applied).as(err.toString()).isZero();
        assertThat(out.toString()).contains("changed farms.pair.reals[" + two + "].weight: 8 -> 5").contains("applied");
        assertThat(real(two).get("weight").asInt()).isEqualTo(5);

        Files.writeString(file, config(8, true, 5).replace("listen: 127.0.0.1:0, token", "listen: 127.0.0.2:0, token"));
        int refused = cli.execute("reload", "-c", file.toString(), "--admin", base.toString(), "--token", TOKEN);

        assertThat(refused).isEqualTo(3);
        assertThat(err.toString()).contains("need a restart").contains("admin.listen");
    }

    /** The document as the API shows it: the admin token masked (securing.md, secrets never shown). */
    private static String masked(String yaml) {
        return yaml.replace("token: " + TOKEN, "token: \"***\"");
    }
}
