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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reals and farms added, removed and changed by reloads of a running node, with simulated backends
 * behind a sticky virtual server: a real added takes new subscribers, a real removed by {@code drain}
 * keeps its bound subscribers until their bindings go, by {@code reassign} loses them at once, a new
 * predictor and a new farm apply in place; every request asked is answered throughout.
 */
class LiveFarmsIT {

    private static final String TOKEN = "s3cret";
    private static final Duration ASK = Duration.ofSeconds(2);

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private final ObjectMapper json = new ObjectMapper();
    private final List<SimulatedUdpClient> clients = new ArrayList<>();
    private Node node;
    private InetSocketAddress vip;
    /** Requests asked through the virtual server, each answered (ask throws otherwise). */
    private int asked;

    @BeforeEach
    void start() throws Exception {
        for (String name : List.of("one", "two", "three")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        String yaml = config("roundrobin", List.of(real(0, ""), real(1, "")), "");
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();
        vip = node.director().localAddress("echo");
    }

    @AfterEach
    void stop() {
        clients.forEach(SimulatedUdpClient::close);
        if (node != null) {
            node.close();
        }
        backends.forEach(SimulatedUdpBackend::close);
    }

    private String id(int backend) {
        return "127.0.0.1:" + backends.get(backend).address().getPort();
    }

    private String real(int backend, String extra) {
        return "      - { address: 127.0.0.1, port: " + backends.get(backend).address().getPort() + ", weight: 1" + extra
                + " }\n";
    }

    private String config(String predictor, List<String> reals, String moreFarms) {
        return "admin: { listen: 127.0.0.1:0, token: " + TOKEN + " }\n"
                + "farms:\n  pair:\n    predictor: " + predictor + "\n    reals:\n" + String.join("", reals) + moreFarms
                + """
                virtual-servers:
                  echo:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: pair
                    sticky: { key: client-address, idle: 10m }
                """;
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return new AdminClient(node.adminAddress(), TOKEN).call(method, path, body, "application/yaml");
    }

    private JsonNode reload(String yaml) throws Exception {
        HttpResponse<String> r = call("POST", "/api/v1/config", yaml);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = json.readTree(r.body());
        assertThat(body.get("result").asText()).isEqualTo("applied");
        return body;
    }

    private List<String> realsOf(String farm) throws Exception {
        List<String> ids = new ArrayList<>();
        json.readTree(call("GET", "/api/v1/farms/" + farm, null).body()).get("reals")
                .forEach(r -> ids.add(r.get("real").asText()));
        return ids;
    }

    /** Subscribers 127.0.0.{first..}, kept open; each asks once. */
    private List<SimulatedUdpClient> subscribers(int first, int count) throws Exception {
        List<SimulatedUdpClient> made = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + i, 0), vip);
            clients.add(client);
            made.add(client);
        }
        return made;
    }

    /** Which backend answered each subscriber. */
    private Map<SimulatedUdpClient, String> ask(List<SimulatedUdpClient> subscribers) {
        Map<SimulatedUdpClient, String> served = new HashMap<>();
        for (SimulatedUdpClient client : subscribers) {
            String answer = client.ask("hello", ASK);
            asked++;
            served.put(client, answer.substring(0, answer.indexOf('|')));
        }
        return served;
    }

    private static Map<String, Long> count(Map<SimulatedUdpClient, String> served) {
        return served.values().stream().collect(Collectors.groupingBy(s -> s, Collectors.counting()));
    }

    private long receivedByBackends() {
        return backends.stream().mapToLong(SimulatedUdpBackend::received).sum();
    }

    @Test
    void anAddedRealTakesNewSubscribersWhileTheBoundOnesStay() throws Exception {
        List<SimulatedUdpClient> before = subscribers(10, 4);
        Map<SimulatedUdpClient, String> first = ask(before);

        JsonNode body = reload(config("roundrobin", List.of(real(0, ""), real(1, ""), real(2, "")), ""));

        assertThat(body.get("added").get(0).get("path").asText()).isEqualTo("farms.pair.reals[" + id(2) + "]");
        assertThat(realsOf("pair")).containsExactly(id(0), id(1), id(2));
        assertThat(count(ask(subscribers(20, 9)))).containsEntry("three", 3L);
        assertThat(ask(before)).as("bindings made before the reload hold").isEqualTo(first);
        assertThat(receivedByBackends()).as("nothing lost").isEqualTo(asked);
    }

    @Test
    void aRealRemovedByDrainKeepsItsSubscribersUntilItsDeadlineThenLeaves() throws Exception {
        String yaml = config("roundrobin", List.of(real(0, ", drain-deadline: 2s"), real(1, "")), "");
        reload(yaml);
        List<SimulatedUdpClient> bound = subscribers(10, 6);
        Map<SimulatedUdpClient, String> first = ask(bound);
        List<SimulatedUdpClient> onOne = bound.stream().filter(c -> first.get(c).equals("one")).toList();
        assertThat(onOne).hasSize(3);

        JsonNode body = reload(config("roundrobin", List.of(real(1, "")), ""));

        assertThat(body.get("removed").get(0).get("path").asText()).isEqualTo("farms.pair.reals[" + id(0) + "]");
        JsonNode drain = json.readTree(call("GET", "/api/v1/farms/pair/reals/" + id(0) + "/drain", null).body());
        assertThat(drain.get("state").asText()).isEqualTo("DRAINING");
        assertThat(count(ask(onOne))).as("its subscribers stay").containsOnly(Map.entry("one", 3L));
        assertThat(count(ask(subscribers(30, 4)))).as("new ones go elsewhere").containsOnly(Map.entry("two", 4L));
        await().atMost(Duration.ofSeconds(10)).until(() -> json.readTree(call("GET",
                "/api/v1/farms/pair/reals/" + id(0) + "/drain", null).body()).get("bindings").asInt(-1) == 3);

        await().atMost(Duration.ofSeconds(10)).until(() -> !realsOf("pair").contains(id(0)));
        assertThat(count(ask(onOne))).as("at the deadline, reassigned").containsOnly(Map.entry("two", 3L));
        assertThat(call("GET", "/metrics", null).body())
                .contains("switchboard_real_removals_total{how=\"deadline\"} 1.0")
                .doesNotContain("switchboard_real_requests_total{farm=\"pair\",real=\"" + id(0) + "\"}");
        assertThat(receivedByBackends()).as("nothing lost").isEqualTo(asked);
    }

    @Test
    void aRealRemovedByReassignLosesItsSubscribersAtOnce() throws Exception {
        reload(config("roundrobin", List.of(real(0, ", on-remove: reassign"), real(1, "")), ""));
        List<SimulatedUdpClient> bound = subscribers(10, 6);
        Map<SimulatedUdpClient, String> first = ask(bound);
        List<SimulatedUdpClient> onOne = bound.stream().filter(c -> first.get(c).equals("one")).toList();
        assertThat(onOne).hasSize(3);

        reload(config("roundrobin", List.of(real(1, "")), ""));

        assertThat(realsOf("pair")).containsExactly(id(1));
        assertThat(count(ask(onOne))).containsOnly(Map.entry("two", 3L));
        assertThat(ask(bound).values()).containsOnly("two");
        assertThat(receivedByBackends()).as("nothing lost").isEqualTo(asked);
    }

    @Test
    void aNewPredictorAndANewFarmApplyInPlace() throws Exception {
        List<SimulatedUdpClient> bound = subscribers(10, 4);
        Map<SimulatedUdpClient, String> first = ask(bound);

        reload(config("leastconns", List.of(real(0, ""), real(1, "")),
                "  spare:\n    reals:\n" + real(2, "")));

        assertThat(json.readTree(call("GET", "/api/v1/farms/pair", null).body()).get("predictor").asText())
                .isEqualTo("leastconns");
        assertThat(realsOf("spare")).containsExactly(id(2));
        assertThat(ask(bound)).isEqualTo(first);
        assertThat(count(ask(subscribers(20, 6))).keySet()).containsAnyOf("one", "two").doesNotContain("three");
        assertThat(receivedByBackends()).as("nothing lost").isEqualTo(asked);
    }
}
