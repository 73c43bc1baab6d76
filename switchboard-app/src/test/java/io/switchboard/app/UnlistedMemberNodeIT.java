package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.config.Config;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.director.config.ClusterConfig;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rogue member on a running node: a node whose {@code members} lists only its own 127.0.0.1, and a
 * third process with the right cluster name from 127.0.0.3. Hazelcast admits it; the node says so at
 * once on {@code /api/v1/cluster} and in {@code switchboard_cluster_unlisted_members_total}.
 */
class UnlistedMemberNodeIT {

    private final HttpClient http = HttpClient.newHttpClient();
    private Node node;
    private ClusterMember rogue;

    @AfterEach
    void stop() {
        if (rogue != null && rogue.hazelcast().getLifecycleService().isRunning()) {
            rogue.hazelcast().getLifecycleService().terminate();
        }
        if (node != null) {
            node.close();
        }
    }

    private String get(String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + node.adminAddress().getPort() + path);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    @Test
    void aThirdMemberFromAnUnlistedAddressIsReportedAtOnce() throws Exception {
        String name = "it-" + System.nanoTime();
        int port = LoopbackPorts.freeTcpPort();
        String yaml = """
                cluster: { enabled: true, name: %s, bind: 127.0.0.1, port: %d, members: [127.0.0.1:%d] }
                admin: { listen: 127.0.0.1:0 }
                farms:
                  one:
                    reals: [ { address: 127.0.0.1, port: 9 } ]
                virtual-servers:
                  echo: { listen: 127.0.0.1:0, service: udp, farm: one }
                """.formatted(name, port, port);
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();
        assertThat(new JsonObject(get("/api/v1/cluster")).getJsonArray("unlistedMembers")).isEmpty();

        Config config = ClusterMember.hazelcastConfig(new ClusterConfig(true, name, List.of("127.0.0.1:" + port), 0),
                "127.0.0.3");
        // 127.0.0.3 is no interface's address (lo holds 127.0.0.0/8 as a route): Hazelcast's own property names it.
        config.getNetworkConfig().getInterfaces().setEnabled(false);
        config.setProperty("hazelcast.local.localAddress", "127.0.0.3");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        rogue = ClusterMember.start(config);
        assertThat(rogue.hazelcast().getCluster().getMembers()).as("Hazelcast admits it").hasSize(2);

        String expected = "127.0.0.3:" + rogue.address().getPort();
        await().atMost(Duration.ofSeconds(20)).until(() -> new JsonObject(get("/api/v1/cluster"))
                .getJsonArray("unlistedMembers").contains(expected));
        assertThat(new JsonObject(get("/api/v1/cluster")).getLong("unlistedMembersSeen")).isEqualTo(1);
        assertThat(get("/metrics")).contains("switchboard_cluster_unlisted_members_total 1.0");
    }
}
