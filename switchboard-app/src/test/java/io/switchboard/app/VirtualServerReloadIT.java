package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Virtual servers added, removed and changed by {@code POST /api/v1/config} on a running node:
 * an added one serves at once; a removed one answers what it has in flight, refuses new requests
 * (counted) and is unbound; a changed one — farm and response timeout, or address — answers every
 * request it had in flight, and its bound clients keep their real.
 */
class VirtualServerReloadIT {

    private static final String TOKEN = "s3cret";
    private static final Duration ASK = Duration.ofSeconds(2);

    private static final String CONFIG = """
            admin: { listen: 127.0.0.1:0, token: %s }
            farms:
              pair:
                reals:
                  - { address: 127.0.0.1, port: %d }
              spare:
                reals:
                  - { address: 127.0.0.1, port: %d }
            virtual-servers:
            """;
    private static final String ECHO = """
              echo:
                listen: %s
                service: udp
                farm: %s
                response-timeout: %s
                sticky: { key: client-address, idle: 10m }
            """;
    private static final String SECOND = """
              second:
                listen: 127.0.0.1:0
                service: udp
                farm: spare
            """;

    private final ObjectMapper json = new ObjectMapper();
    private SimulatedUdpBackend pair;
    private SimulatedUdpBackend spare;
    private Node node;
    private InetSocketAddress vip;

    @BeforeEach
    void start() throws Exception {
        pair = new SimulatedUdpBackend("pair", new InetSocketAddress("127.0.0.1", 0));
        spare = new SimulatedUdpBackend("spare", new InetSocketAddress("127.0.0.1", 0));
        String yaml = config(echo("127.0.0.1:0", "pair", "30s"));
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();
        vip = node.director().localAddress("echo");
    }

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
        pair.close();
        spare.close();
    }

    private String config(String... virtualServers) {
        return CONFIG.formatted(TOKEN, pair.address().getPort(), spare.address().getPort())
                + String.join("", virtualServers);
    }

    private static String echo(String listen, String farm, String responseTimeout) {
        return ECHO.formatted(listen, farm, responseTimeout);
    }

    private JsonNode post(String yaml) throws Exception {
        HttpResponse<String> r = send(yaml);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    private HttpResponse<String> send(String yaml) throws Exception {
        return new AdminClient(node.adminAddress(), TOKEN).reload(yaml);
    }

    private String metric(String prefix) throws Exception {
        return new AdminClient(node.adminAddress(), TOKEN).metric(prefix);
    }

    private static List<String> paths(JsonNode changes) {
        List<String> paths = new ArrayList<>();
        changes.forEach(c -> paths.add(c.get("path").asText()));
        return paths;
    }

    /** Whether nothing is bound to the address any more. */
    private static boolean bindable(InetSocketAddress address) {
        try (DatagramSocket probe = new DatagramSocket(address)) {
            return true;
        } catch (SocketException e) {
            return false;
        }
    }

    @Test
    void aVirtualServerWhoseAddressIsTakenIsAnErrorOfTheConfigurationAndNothingChanges() throws Exception {
        try (DatagramSocket squatter = new DatagramSocket(new InetSocketAddress("127.0.0.33", 0));
             SimulatedUdpClient alice = new SimulatedUdpClient(new InetSocketAddress("127.0.0.34", 0), vip)) {
            String taken = "127.0.0.33:" + squatter.getLocalPort();
            HttpResponse<String> r = send(config(echo("127.0.0.1:0", "spare", "30s"),
                    SECOND.replace("127.0.0.1:0", taken)));

            assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
            JsonNode errors = json.readTree(r.body()).get("errors");
            assertThat(errors).hasSize(1);
            assertThat(errors.get(0).get("path").asText()).isEqualTo("virtual-servers.second.listen");
            assertThat(errors.get(0).get("message").asText()).startsWith("cannot bind " + taken);
            assertThat(node.director().virtualServers()).containsOnlyKeys("echo");
            assertThat(alice.ask("still", ASK)).as("the farm change was not applied either").isEqualTo("pair|still");
        }
    }

    @Test
    void anAddedVirtualServerServesAndARemovedOneAnswersWhatItHadThenIsUnbound() throws Exception {
        JsonNode added = post(config(echo("127.0.0.1:0", "pair", "30s"), SECOND));

        assertThat(paths(added.get("added"))).containsExactly("virtual-servers.second");
        InetSocketAddress second = node.director().localAddress("second");
        try (SimulatedUdpClient carol = new SimulatedUdpClient(new InetSocketAddress("127.0.0.30", 0), second);
             SimulatedUdpClient alice = new SimulatedUdpClient(new InetSocketAddress("127.0.0.31", 0), vip);
             SimulatedUdpClient bob = new SimulatedUdpClient(new InetSocketAddress("127.0.0.32", 0), vip)) {
            assertThat(carol.ask("hello", ASK)).isEqualTo("spare|hello");

            pair.hold();
            alice.send("in flight");
            await().atMost(Duration.ofSeconds(5)).until(() -> pair.held() == 1);
            JsonNode removed = post(config(SECOND));
            assertThat(paths(removed.get("removed"))).containsExactly("virtual-servers.echo");
            assertThat(bob.ask("too late", Duration.ofMillis(500))).as("a new request is refused").isNull();
            assertThat(metric("switchboard_dropped_total{reason=\"removed\",service=\"udp\",vserver=\"echo\"}"))
                    .endsWith(" 1.0");

            pair.release();
            assertThat(alice.receive(ASK)).as("what was in flight is answered").isEqualTo("pair|in flight");
            await().atMost(Duration.ofSeconds(10)).until(() -> bindable(vip));
            assertThat(bob.ask("gone", Duration.ofMillis(500))).as("nothing listens any more").isNull();
            assertThat(metric("switchboard_requests_received_total{service=\"udp\",vserver=\"echo\"}"))
                    .as("its meters are gone").isEmpty();
            assertThat(carol.ask("still", ASK)).isEqualTo("spare|still");
        }
    }

    @Test
    void aChangedFarmAndTimeoutAnswerWhatWasInFlightAndBoundClientsKeepTheirReal() throws Exception {
        try (SimulatedUdpClient alice = new SimulatedUdpClient(new InetSocketAddress("127.0.0.41", 0), vip);
             SimulatedUdpClient bob = new SimulatedUdpClient(new InetSocketAddress("127.0.0.42", 0), vip)) {
            assertThat(alice.ask("bound", ASK)).isEqualTo("pair|bound");
            pair.hold();
            alice.send("in flight");
            await().atMost(Duration.ofSeconds(5)).until(() -> pair.held() == 1);

            JsonNode changed = post(config(echo("127.0.0.1:0", "spare", "5s")));

            assertThat(paths(changed.get("changed"))).containsExactly("virtual-servers.echo.farm",
                    "virtual-servers.echo.response-timeout");
            assertThat(node.director().localAddress("echo")).as("the same sockets").isEqualTo(vip);
            assertThat(bob.ask("new", ASK)).as("a new subscriber goes to the new farm").isEqualTo("spare|new");
            alice.send("again"); // her binding holds: the same real
            await().atMost(Duration.ofSeconds(5)).until(() -> pair.held() == 2);
            pair.release();
            List<String> answers = List.of(alice.receive(ASK), alice.receive(ASK));
            assertThat(answers).as("nothing in flight was lost").containsExactlyInAnyOrder("pair|in flight", "pair|again");
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> node.director().inFlight().toCompletionStage().toCompletableFuture().get() == 0);
            assertThat(metric("switchboard_requests_expired_total{service=\"udp\",vserver=\"echo\"}")).endsWith(" 0.0");
        }
    }

    @Test
    void aChangedAddressServesOnTheNewOneAndClosesTheOldOneWhenQuiet() throws Exception {
        // The old address closes once quiet for its response timeout: a short one keeps the test short.
        post(config(echo("127.0.0.1:0", "pair", "3s")));
        try (SimulatedUdpClient alice = new SimulatedUdpClient(new InetSocketAddress("127.0.0.51", 0), vip)) {
            pair.hold();
            alice.send("in flight");
            await().atMost(Duration.ofSeconds(5)).until(() -> pair.held() == 1);

            JsonNode changed = post(config(echo("127.0.0.2:0", "pair", "3s")));

            assertThat(paths(changed.get("changed"))).contains("virtual-servers.echo.listen");
            InetSocketAddress moved = node.director().localAddress("echo");
            assertThat(moved.getAddress().getHostAddress()).isEqualTo("127.0.0.2");
            pair.release();
            assertThat(alice.receive(ASK)).as("answered from the old address").isEqualTo("pair|in flight");
            try (SimulatedUdpClient bob = new SimulatedUdpClient(new InetSocketAddress("127.0.0.52", 0), moved)) {
                assertThat(bob.ask("moved", ASK)).isEqualTo("pair|moved");
            }
            await().atMost(Duration.ofSeconds(15)).until(() -> bindable(vip));
        }
    }
}
