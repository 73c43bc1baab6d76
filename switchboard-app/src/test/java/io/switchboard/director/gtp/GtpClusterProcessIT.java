package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.app.LoopbackPorts;
import io.switchboard.app.SwitchboardCommand;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Shared {@code gtp-inspect} sessions across director processes: two nodes, each a JVM of its own
 * started with {@code switchboard run} from YAML (cluster enabled, as an operator runs them), before
 * two GGSN responders in the test (127.0.7.33/34); the test is the SGSN (127.0.7.22). Sessions created
 * through node A (127.0.7.12) are deleted through node B (127.0.7.13) after node A was killed with
 * SIGKILL: each Delete reaches the GGSN that holds the session, under that GGSN's TEID, and the SGSN
 * gets the accepted answer.
 */
class GtpClusterProcessIT {

    private static final Duration STARTUP = Duration.ofSeconds(120);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Process> processes = new ArrayList<>();
    private final List<GtpResponder> ggsns = new ArrayList<>();
    private Path dir;

    private record NodeProcess(Process process, int adminPort, Path log) {
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        for (GtpResponder g : ggsns) {
            g.close();
        }
    }


    private NodeProcess start(String name, String vip, String cluster, int port, List<Integer> ports) throws Exception {
        int admin = LoopbackPorts.freeTcpPort();
        String members = String.join(", ", ports.stream().map(p -> "127.0.0.1:" + p).toList());
        StringBuilder reals = new StringBuilder();
        for (GtpResponder g : ggsns) {
            reals.append("      - { address: ").append(g.socket.getLocalAddress().getHostAddress()).append(", port: ")
                    .append(g.port()).append(" }\n");
        }
        String yaml = """
                cluster: { enabled: true, name: %s, bind: 127.0.0.1, port: %d, members: [%s] }
                admin: { listen: 127.0.0.1:%d }
                farms:
                  ggsn:
                    predictor: roundrobin
                    reals:
                %s
                virtual-servers:
                  gtp-c:
                    listen: %s:0
                    service: gtp-inspect
                    farm: ggsn
                    sticky: { key: imsi, idle: 1h }
                    gtp: { versions: [1, 2] }
                """.formatted(cluster, port, members, admin, reals.toString().stripTrailing(), vip);
        Path config = dir.resolve(name + ".yaml");
        Files.writeString(config, yaml);
        Path log = dir.resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                // Test-only: a killed member is noticed within seconds, not Hazelcast's default minute.
                "-Dhazelcast.heartbeat.interval.seconds=1", "-Dhazelcast.max.no.heartbeat.seconds=5"));
        command.addAll(ClusterMember.JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SwitchboardCommand.class.getName(), "run",
                "-c", config.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(process);
        return new NodeProcess(process, admin, log);
    }

    private String get(NodeProcess n, String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + n.adminPort() + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private int members(NodeProcess n) {
        String body = get(n, "/api/v1/cluster");
        return body == null ? -1 : new JsonObject(body).getJsonArray("members").size();
    }

    private int sessions(NodeProcess n) {
        String body = get(n, "/api/v1/sessions");
        return body == null ? -1 : new JsonArray(body).size();
    }

    /** The virtual server's address, with the port it bound (listen port 0), from the admin API. */
    private InetSocketAddress vip(NodeProcess n, String address) {
        String listen = new JsonArray(get(n, "/api/v1/vservers")).getJsonObject(0).getString("listen");
        return new InetSocketAddress(address, Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1)));
    }

    private static byte[] exchange(DatagramSocket from, byte[] request, InetSocketAddress to) throws IOException {
        from.send(new DatagramPacket(request, request.length, to));
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        from.receive(in);
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    @Test
    void sessionsCreatedThroughNodeAAreDeletedThroughNodeBAfterASigkill() throws Exception {
        dir = Files.createTempDirectory("gtp-cluster-it-");
        ggsns.add(new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.7.33"));
        ggsns.add(new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.7.34"));
        String cluster = "gtp-" + UUID.randomUUID();
        List<Integer> ports = List.of(LoopbackPorts.freeTcpPort(), LoopbackPorts.freeTcpPort());
        NodeProcess a = start("node-a", "127.0.7.12", cluster, ports.get(0), ports);
        NodeProcess b = start("node-b", "127.0.7.13", cluster, ports.get(1), ports);
        await().atMost(STARTUP).until(() -> {
            assertThat(a.process().isAlive()).as("node A alive; see %s", a.log()).isTrue();
            assertThat(b.process().isAlive()).as("node B alive; see %s", b.log()).isTrue();
            return members(a) == 2 && members(b) == 2;
        });
        InetSocketAddress vipA = vip(a, "127.0.7.12");
        InetSocketAddress vipB = vip(b, "127.0.7.13");

        try (DatagramSocket sgsn = new DatagramSocket(new InetSocketAddress("127.0.7.22", 0))) {
            sgsn.setSoTimeout(3000);
            String[] imsis = {"262420000009201", "262420000009202"};
            long[] director = new long[2];
            for (int i = 0; i < 2; i++) {
                byte[] created = exchange(sgsn, GtpMessages.v1CreateRequest(imsis[i], 0x0100 + i, 5,
                        new byte[] {127, 0, 7, 22}), vipA);
                assertThat(created[13] & 0xff).as("cause").isEqualTo(128);
                director[i] = GtpMessages.senderTeid(created);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> sessions(b) == 2);

            a.process().destroyForcibly(); // SIGKILL
            assertThat(a.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(60)).until(() -> members(b) == 1);
            assertThat(sessions(b)).isEqualTo(2);

            for (int i = 0; i < 2; i++) {
                String imsi = imsis[i];
                GtpResponder holder = ggsns.stream().filter(g -> g.imsis().contains(imsi)).findFirst().orElseThrow();
                long before = holder.received.stream().filter(r -> r.type() == 20).count();
                byte[] deleted = exchange(sgsn, GtpMessages.v1(20, director[i], 0x0300 + i, new byte[] {20, 5}), vipB);
                assertThat(deleted[1] & 0xff).isEqualTo(21);
                assertThat(deleted[13] & 0xff).as("cause").isEqualTo(128);
                List<Long> deletes = holder.received.stream().filter(r -> r.type() == 20).map(GtpResponder.Received::teid)
                        .toList();
                assertThat(deletes).as("the Delete at the GGSN holding %s, under its TEID", imsi).hasSize((int) before + 1)
                        .containsOnly(holder.teid());
            }
            assertThat(sessions(b)).isZero();
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }
}
