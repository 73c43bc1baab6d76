package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.real.RealState;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two director nodes started from YAML with the cluster enabled, in one JVM on 127.0.0.1: a client
 * bound by node A is sent to the same real when its next request reaches node B, whose own predictor
 * would have chosen otherwise.
 */
class ClusterNodesIT {

    private static final Duration ASK = Duration.ofSeconds(3);

    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private final List<Node> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        nodes.forEach(Node::close);
        backends.forEach(SimulatedUdpBackend::close);
    }


    /** Nodes A and B of a cluster of their own, started and joined; A with its admin API when {@code adminA}. */
    private record Pair(String cluster, int portA, int portB, Node a, Node b) {
    }

    private Pair joinedPair(boolean adminA) throws Exception {
        String cluster = "it-" + System.nanoTime();
        int portA = LoopbackPorts.freeTcpPort();
        int portB = LoopbackPorts.freeTcpPort();
        Node a = adminA ? node(cluster, portA, portB, "admin: { listen: 127.0.0.1:0 }", "") : node(cluster, portA, portB);
        Node b = node(cluster, portB, portA);
        a.startAndWait();
        b.startAndWait();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> a.member().hazelcast().getCluster().getMembers().size() == 2);
        return new Pair(cluster, portA, portB, a, b);
    }

    private Node node(String cluster, int port, int otherPort) {
        return node(cluster, port, otherPort, "admin: { enabled: false }", "");
    }

    private Node node(String cluster, int port, int otherPort, String admin, String extraFarm) {
        String yaml = yaml(cluster, port, otherPort, admin, extraFarm);
        Services services = Services.discover();
        Node node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        nodes.add(node);
        return node;
    }

    private String yaml(String cluster, int port, int otherPort, String admin, String extraFarm) {
        StringBuilder reals = new StringBuilder();
        for (SimulatedUdpBackend b : backends) {
            reals.append("      - { address: 127.0.0.1, port: ").append(b.address().getPort()).append(", weight: 1 }\n");
        }
        return """
                cluster: { enabled: true, name: %s, bind: 127.0.0.1, port: %d, members: [127.0.0.1:%d, 127.0.0.1:%d] }
                %s
                farms:%s
                  sims:
                    reals:
                %s
                virtual-servers:
                  vip:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: sims
                    sticky: { key: client-address, idle: 10m }
                """.formatted(cluster, port, port, otherPort, admin, extraFarm, reals.toString().stripTrailing());
    }

    @Test
    void theClusterEndpointListsTheMembersAndFlagsADifferentConfiguration() throws Exception {
        backends.add(new SimulatedUdpBackend("one", new InetSocketAddress("127.0.0.1", 0)));
        String cluster = "it-" + System.nanoTime();
        int portA = LoopbackPorts.freeTcpPort();
        int portB = LoopbackPorts.freeTcpPort();
        Node a = node(cluster, portA, portB, "admin: { listen: 127.0.0.1:0 }", "");
        Node b = node(cluster, portB, portA, "admin: { enabled: false }",
                "\n  spare:\n    reals: [{ address: 127.0.0.9, port: 9 }]");
        a.startAndWait();
        b.startAndWait();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> a.member().hazelcast().getCluster().getMembers().size() == 2);

        var http = java.net.http.HttpClient.newHttpClient();
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                "http://127.0.0.1:" + a.adminAddress().getPort() + "/api/v1/cluster")).build();
        var body = new io.vertx.core.json.JsonObject(http.send(request,
                java.net.http.HttpResponse.BodyHandlers.ofString()).body());

        assertThat(body.getBoolean("enabled")).isTrue();
        assertThat(body.getJsonArray("members")).hasSize(2);
        assertThat(body.getBoolean("configDigestsAgree")).as(body.encodePrettily()).isFalse();
        var digests = body.getJsonArray("members").stream()
                .map(m -> ((io.vertx.core.json.JsonObject) m).getString("configDigest")).distinct().toList();
        assertThat(digests).hasSize(2).contains(body.getString("configDigest"));
        assertThat(body.getJsonObject("stickyEntries").getLong("vip/client-address")).isZero();
    }

    /**
     * A's /metrics, as Prometheus scrapes it: the cluster safe, B's heartbeats arriving with a lag of
     * one JVM's clock (≥ 0, under 2 s idle), the JVM meters; once B has left, no series of B.
     */
    @Test
    void metricsShowTheClusterSafeAndThePeersReplicationLag() throws Exception {
        backends.add(new SimulatedUdpBackend("one", new InetSocketAddress("127.0.0.1", 0)));
        Pair pair = joinedPair(true);
        var http = java.net.http.HttpClient.newHttpClient();
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                "http://127.0.0.1:" + pair.a().adminAddress().getPort() + "/metrics")).build();
        String peer = "peer=\"127.0.0.1:" + pair.portB() + "\"";
        java.util.function.Function<String, Double> sample = prefix -> {
            try {
                return http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).body().lines()
                        .filter(l -> l.startsWith(prefix)).findFirst()
                        .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).orElse(Double.NaN);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(sample.apply("switchboard_cluster_safe ")).isEqualTo(1.0);
            assertThat(sample.apply("switchboard_cluster_heartbeat_lag_seconds_count{" + peer)).isGreaterThanOrEqualTo(3);
        });
        assertThat(sample.apply("switchboard_cluster_replication_lag_seconds{" + peer)).isBetween(0.0, 2.0);
        assertThat(sample.apply("switchboard_cluster_heartbeat_age_seconds{" + peer)).isBetween(0.0, 3.0);
        assertThat(sample.apply("jvm_memory_used_bytes{")).isPositive();
        assertThat(sample.apply("switchboard_event_loop_pending_tasks{")).isGreaterThanOrEqualTo(0);

        pair.b().close(); // closed again by stop(): a second close of a clustered node does nothing
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(sample.apply("switchboard_cluster_heartbeat_age_seconds{" + peer)).isNaN());
    }

    @Test
    void aBindingMadeThroughOneNodeIsHonouredByTheOther() throws Exception {
        for (String name : List.of("one", "two", "three")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        Pair pair = joinedPair(false);
        Node a = pair.a();
        Node b = pair.b();
        InetSocketAddress vipA = a.director().localAddress("vip");
        InetSocketAddress vipB = b.director().localAddress("vip");
        // Same farms and virtual servers: one configuration digest, although ports and members differ.
        assertThat(a.member().members().stream().map(m -> m.attributes().get(ClusterStatus.DIGEST_ATTRIBUTE))
                .distinct()).hasSize(1);

        // Node B's round robin first sends a new client to "one"; so clients bound to "two" and
        // "three" by node A show that B followed the cluster's binding, not its own predictor.
        List<String> throughA = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + (60 + i), 0), vipA)) {
                String answer = client.ask("via-a", ASK);
                throughA.add(answer.substring(0, answer.indexOf('|')));
            }
        }
        assertThat(throughA).containsExactly("one", "two", "three", "one", "two", "three");

        for (int i = 0; i < 6; i++) {
            int client = i;
            String expected = throughA.get(i);
            // Replication is asynchronous: bounded, and measured by the cluster module's tests.
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    b.director().virtualServers().get("vip").selector().sticky()
                            .lookup(io.switchboard.director.sticky.StickyKey.clientAddress(
                                    InetAddress.getByName("127.0.0." + (60 + client)), 32), System.nanoTime()) != null);
            try (SimulatedUdpClient c = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + (60 + i), 0), vipB)) {
                String answer = c.ask("via-b", ASK);
                assertThat(answer).as("client 127.0.0.%d through node B", 60 + i).isEqualTo(expected + "|via-b");
            }
        }
    }

    @Test
    void aRealTakenOutOfServiceThroughOneNodesApiIsOutOfServiceOnTheOther() throws Exception {
        backends.add(new SimulatedUdpBackend("one", new InetSocketAddress("127.0.0.1", 0)));
        Pair pair = joinedPair(true);
        Node a = pair.a();
        Node b = pair.b();
        String real = "127.0.0.1:" + backends.get(0).address().getPort();
        var onB = b.director().farms().real("sims", real);

        var http = java.net.http.HttpClient.newHttpClient();
        var out = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                        + a.adminAddress().getPort() + "/api/v1/reals/sims/" + real + "/outofservice"))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(out.statusCode()).as(out.body()).isLessThan(300);
        await().atMost(Duration.ofSeconds(10)).until(() -> onB.state() == RealState.OUTOFSERVICE);

        var weight = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                        + a.adminAddress().getPort() + "/api/v1/reals/sims/" + real + "/weight"))
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"weight\": 3}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(weight.statusCode()).as(weight.body()).isLessThan(300);
        await().atMost(Duration.ofSeconds(10)).until(() -> onB.weight() == 3);
        assertThat(onB.state()).isEqualTo(RealState.OUTOFSERVICE);
    }

    @Test
    void aDrainThroughOneNodesApiDrainsTheRealOnTheOtherWithTheSameDeadlineUntilInservice() throws Exception {
        backends.add(new SimulatedUdpBackend("one", new InetSocketAddress("127.0.0.1", 0)));
        String cluster = "it-" + System.nanoTime();
        int portA = LoopbackPorts.freeTcpPort();
        int portB = LoopbackPorts.freeTcpPort();
        Node a = node(cluster, portA, portB, "admin: { listen: 127.0.0.1:0 }", "");
        Node b = node(cluster, portB, portA);
        a.startAndWait();
        String real = "127.0.0.1:" + backends.get(0).address().getPort();
        var onA = a.director().farms().real("sims", real);
        var http = java.net.http.HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + a.adminAddress().getPort();
        java.util.function.Function<String, java.net.http.HttpResponse<String>> drain = deadline -> {
            try {
                return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base
                                + "/api/v1/farms/sims/reals/" + real + "/drain"))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"deadline\": \"" + deadline + "\"}"))
                        .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };

        // Before B joins: B takes the drain from the cluster's state as it starts.
        assertThat(drain.apply("1h").statusCode()).isEqualTo(200);
        b.startAndWait();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> a.member().hazelcast().getCluster().getMembers().size() == 2);
        var onB = b.director().farms().real("sims", real);
        await().atMost(Duration.ofSeconds(10)).until(() -> onB.state() == RealState.DRAINING);
        assertThat(onB.currentDrain().deadlineMillis()).isEqualTo(onA.currentDrain().deadlineMillis());

        // With B up: a new deadline reaches it as a change.
        long firstDeadline = onA.currentDrain().deadlineMillis();
        assertThat(drain.apply("2h").statusCode()).isEqualTo(200);
        assertThat(onA.currentDrain().deadlineMillis()).isGreaterThan(firstDeadline);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> onB.currentDrain().deadlineMillis() == onA.currentDrain().deadlineMillis());
        assertThat(onB.state()).isEqualTo(RealState.DRAINING);
        assertThat(onB.tryTakeNewWork()).isFalse();
        assertThat(onB.servesBoundClients()).isTrue();

        var back = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base
                        + "/api/v1/reals/sims/" + real + "/inservice"))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(back.statusCode()).as(back.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> onB.state() == RealState.OPERATIONAL);
        assertThat(onB.currentDrain()).isNull();
    }
    @Test
    void aReloadOnOneNodeTakesARealOutOfServiceOnTheOtherAndShowsItsNewDigest() throws Exception {
        backends.add(new SimulatedUdpBackend("one", new InetSocketAddress("127.0.0.1", 0)));
        Pair pair = joinedPair(false);
        Node a = pair.a();
        Node b = pair.b();
        String real = "127.0.0.1:" + backends.get(0).address().getPort();
        var onB = b.director().farms().real("sims", real);
        String before = a.reloader().running().digest();
        String outOfService = yaml(pair.cluster(), pair.portA(), pair.portB(), "admin: { enabled: false }", "")
                .replace("weight: 1 }", "weight: 1, inservice: false }");

        var outcome = a.reloader().reload(outOfService, false, "test");

        assertThat(outcome.result()).isEqualTo(io.switchboard.app.reload.Reloader.Result.APPLIED);
        String after = a.reloader().running().digest();
        assertThat(after).isNotEqualTo(before);
        // The administrative change travels as the admin API's does; the configuration itself reaches
        // B over the event bus, and B reloads it with its own cluster section: both run the same.
        await().atMost(Duration.ofSeconds(10)).until(() -> onB.state() == RealState.OUTOFSERVICE);
        await().atMost(Duration.ofSeconds(10)).until(() -> b.reloader().running().digest().equals(after));
        assertThat(b.reloader().running().config().cluster().port()).as("B keeps its own cluster port")
                .isEqualTo(pair.portB());
        await().atMost(Duration.ofSeconds(10)).until(() -> a.member().members().stream()
                .map(m -> m.attributes().get(ClusterStatus.DIGEST_ATTRIBUTE)).distinct().toList().equals(List.of(after)));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                b.registry().get("switchboard.cluster.config.digests").gauge().value() == 1.0);
        assertThat(b.registry().get("switchboard.config.reloads").tag("result", "applied").counter().count())
                .as("applied on B as a reload of its own").isEqualTo(1.0);

        // B's operator gives the same again: no change on B, and none on A when it arrives there.
        var again = b.reloader().reload(yaml(pair.cluster(), pair.portB(), pair.portA(), "admin: { enabled: false }", "")
                .replace("weight: 1 }", "weight: 1, inservice: false }"), false, "test");
        assertThat(again.result()).isEqualTo(io.switchboard.app.reload.Reloader.Result.UNCHANGED);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                a.registry().get("switchboard.config.reloads").tag("result", "unchanged").counter().count() == 1.0);
        assertThat(a.reloader().running().digest()).isEqualTo(after);
    }

    @Test
    void aRealAddedByAReloadOnOneNodeIsAddedOnTheOtherAndTakesItsSubscribers() throws Exception {
        backends.add(new SimulatedUdpBackend("one", new InetSocketAddress("127.0.0.1", 0)));
        Pair pair = joinedPair(false);
        Node a = pair.a();
        Node b = pair.b();
        backends.add(new SimulatedUdpBackend("two", new InetSocketAddress("127.0.0.1", 0)));
        String two = "127.0.0.1:" + backends.get(1).address().getPort();

        var outcome = a.reloader().reload(yaml(pair.cluster(), pair.portA(), pair.portB(), "admin: { enabled: false }", ""), false, "test");

        assertThat(outcome.result()).isEqualTo(io.switchboard.app.reload.Reloader.Result.APPLIED);
        assertThat(a.director().farms().real("sims", two)).isNotNull();
        await().atMost(Duration.ofSeconds(10)).until(() -> b.director().farms().real("sims", two) != null);
        // A state change of the new real made on A reaches B, which has it now.
        a.director().farms().real("sims", two).takeOutOfService();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> b.director().farms().real("sims", two).state() == RealState.OUTOFSERVICE);
        a.director().farms().real("sims", two).putInService();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> b.director().farms().real("sims", two).state() == RealState.OPERATIONAL);
        java.util.Set<String> served = new java.util.HashSet<>();
        for (int i = 10; i < 14; i++) {
            try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + i, 0),
                    b.director().localAddress("vip"))) {
                String answer = client.ask("hello", ASK);
                served.add(answer.substring(0, answer.indexOf('|')));
            }
        }
        assertThat(served).as("B balances over both").containsExactlyInAnyOrder("one", "two");
    }
}
