package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The director's debug capture, started and stopped through the admin API on a node built from
 * YAML: a generic UDP virtual server on 127.0.4.30 in front of a simulated backend on 127.0.4.31,
 * driven by a client on 127.0.4.32. tshark (required, see {@code .ci/run}) reads the pcapng file
 * and finds each exchange's four datagrams: client to virtual address, director to real, real to
 * director, virtual address to client.
 */
class DebugCaptureIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<AutoCloseable> closing = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void whatTheDirectorReceivesAndSendsIsWrittenToAPcapngThatTsharkReads() throws Exception {
        SimulatedUdpBackend real = new SimulatedUdpBackend("real", new InetSocketAddress("127.0.4.31", 0));
        closing.add(real);
        Path captures = dir.resolve("captures");
        Services services = Services.discover();
        Node node = new Node(new ConfigLoader(services.available()).parse("""
                admin: { listen: 127.0.4.30:0 }
                debug-capture: { directory: %s, files: 2 }
                farms:
                  echo:
                    reals:
                      - { address: 127.0.4.31, port: %d }
                virtual-servers:
                  echo-vip:
                    listen: 127.0.4.30:0
                    service: udp
                    farm: echo
                """.formatted(captures, real.address().getPort())), services);
        closing.add(node);
        node.startAndWait();
        InetSocketAddress vip = node.director().localAddress("echo-vip");
        URI api = URI.create("http://127.0.4.30:" + node.adminAddress().getPort() + "/api/v1/capture");
        DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.4.32", 0));
        closing.add(client);
        client.setSoTimeout(2000);

        exchange(client, vip, "before"); // off by default: nothing is written
        assertThat(captures).doesNotExist();

        JsonNode started = post(api + "/echo-vip/start", 200);
        assertThat(started.get("capturing").asBoolean()).isTrue();
        for (int i = 0; i < 5; i++) {
            exchange(client, vip, "ping " + i);
        }
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> assertThat(get(api).get(0).get("captured").asInt())
                .isEqualTo(20));
        JsonNode stopped = post(api + "/echo-vip/stop", 200);
        assertThat(stopped.get("capturing").asBoolean()).isFalse();
        assertThat(stopped.get("dropped").asInt()).isZero();
        exchange(client, vip, "after"); // stopped: not written
        assertThat(get(api)).isEmpty();
        assertThat(post(api + "/nowhere/start", 404).get("error").asText()).contains("nowhere");

        Path file = Path.of(stopped.get("files").get(0).asText());
        assertThat(file.getParent()).isEqualTo(captures);
        assertThat(file.getFileName().toString()).startsWith("echo-vip-").endsWith("-1.pcapng");
        Process tshark = new ProcessBuilder("/usr/bin/tshark", "-r", file.toString(), "-T", "fields",
                "-e", "ip.src", "-e", "udp.srcport", "-e", "ip.dst", "-e", "udp.dstport", "-e", "data.data")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> rows = new String(tshark.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(tshark.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(tshark.exitValue()).isZero();
        assertThat(rows).hasSize(20);
        String ping0 = hex("ping 0");
        int clientPort = client.getLocalPort();
        int realPort = real.address().getPort();
        // The first exchange, in order: to the VIP, to the real (from a director port), back, to the client.
        assertThat(rows.get(0)).startsWith("127.0.4.32\t" + clientPort + "\t127.0.4.30\t" + vip.getPort()).endsWith(ping0);
        assertThat(rows.get(1)).contains("\t127.0.4.31\t" + realPort + "\t").endsWith(ping0);
        String answer0 = hex("real|ping 0");
        assertThat(rows.get(2)).startsWith("127.0.4.31\t" + realPort + "\t").endsWith(answer0);
        assertThat(rows.get(3)).startsWith("127.0.4.30\t" + vip.getPort() + "\t127.0.4.32\t" + clientPort)
                .endsWith(answer0);
        assertThat(rows).noneMatch(r -> r.contains(hex("before")) || r.contains(hex("after")));
    }

    @Test
    void aTransactionServiceIsCapturedWithTheDirectorsRewritingAsOnTheWire() throws Exception {
        // A GGSN/PGW stand-in on 127.0.4.34: answers each GTPv2 request with its bytes as a response
        // (type + 1), the sequence number it received kept, as a real does.
        DatagramSocket gateway = new DatagramSocket(new InetSocketAddress("127.0.4.34", 0));
        closing.add(gateway);
        Thread t = new Thread(() -> {
            while (!gateway.isClosed()) {
                try {
                    DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                    gateway.receive(p);
                    byte[] answer = java.util.Arrays.copyOf(p.getData(), p.getLength());
                    answer[1]++;
                    gateway.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
                } catch (java.io.IOException e) {
                    return;
                }
            }
        }, "gtp-stand-in");
        t.setDaemon(true);
        t.start();
        Services services = Services.discover();
        Node node = new Node(new ConfigLoader(services.available()).parse("""
                admin: { enabled: false }
                debug-capture: { directory: %s, start: [gtp-c] }
                farms:
                  pgw:
                    reals:
                      - { address: 127.0.4.34, port: %d }
                virtual-servers:
                  gtp-c:
                    listen: 127.0.4.33:0
                    service: gtp
                    farm: pgw
                    sticky: { key: imsi, idle: 1h }
                """.formatted(dir.resolve("gtp"), gateway.getLocalPort())), services);
        closing.add(node);
        node.startAndWait();
        InetSocketAddress vip = node.director().localAddress("gtp-c");
        // Frame 1 of the crafted capture: a Create Session Request, sequence 1, IMSI 001010000000001.
        byte[] create = io.switchboard.pcap.Replay.read(
                Path.of("src/test/resources/pcaps/crafted/gtpv2-resource-cause.pcap"), 2123).requests().get(0).payload();
        DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.4.35", 0));
        closing.add(client);
        client.setSoTimeout(2000);
        for (int i = 0; i < 3; i++) {
            client.send(new DatagramPacket(create, create.length, vip));
            DatagramPacket answer = new DatagramPacket(new byte[2048], 2048);
            client.receive(answer);
            assertThat(answer.getData()[1]).isEqualTo((byte) 33);
        }
        io.switchboard.pcap.DebugCaptures captures = node.captures();
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() ->
                assertThat(captures.status().get(0).get("captured")).isEqualTo(12L));
        Path file = Path.of(((List<?>) captures.stop("gtp-c").get("files")).get(0).toString());
        Process tshark = new ProcessBuilder("/usr/bin/tshark", "-r", file.toString(), "-d",
                "udp.port==" + vip.getPort() + ",gtp", "-d", "udp.port==" + gateway.getLocalPort() + ",gtp",
                "-T", "fields", "-e", "ip.src", "-e", "ip.dst", "-e", "gtpv2.message_type", "-e", "gtpv2.seq",
                "-e", "e212.imsi").redirectError(dir.resolve("tshark.err").toFile()).start();
        List<String> rows = new String(tshark.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(tshark.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(rows).as(Files.readString(dir.resolve("tshark.err"))).hasSize(12);
        // Each exchange: the client's request (its sequence 1), the request as forwarded (the
        // director's sequence), the gateway's answer (that sequence), the answer relayed (1 again).
        for (int i = 0; i < 3; i++) {
            List<String[]> x = rows.subList(4 * i, 4 * i + 4).stream().map(r -> r.split("\t", -1)).toList();
            assertThat(x.get(0)).containsExactly("127.0.4.35", "127.0.4.33", "32", "0x000001", "001010000000001");
            assertThat(x.get(1)[1]).isEqualTo("127.0.4.34");
            assertThat(x.get(1)[2]).isEqualTo("32");
            assertThat(x.get(2)[0]).isEqualTo("127.0.4.34");
            assertThat(x.get(2)[2]).isEqualTo("33");
            assertThat(x.get(2)[3]).isEqualTo(x.get(1)[3]);
            assertThat(x.get(3)).startsWith("127.0.4.33", "127.0.4.35", "33", "0x000001");
        }
        assertThat(rows.get(1).split("\t")[3]).isNotEqualTo(rows.get(5).split("\t")[3]); // fresh director ids
    }

    private static void exchange(DatagramSocket client, InetSocketAddress vip, String text) throws Exception {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        client.send(new DatagramPacket(bytes, bytes.length, vip));
        DatagramPacket answer = new DatagramPacket(new byte[100], 100);
        client.receive(answer);
        // SimulatedUdpBackend answers with its name before the request's bytes
        assertThat(new String(answer.getData(), 0, answer.getLength(), StandardCharsets.US_ASCII))
                .isEqualTo("real|" + text);
    }

    private static String hex(String text) {
        return java.util.HexFormat.of().formatHex(text.getBytes(StandardCharsets.US_ASCII));
    }

    private JsonNode post(String uri, int status) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        return JSON.readTree(r.body());
    }

    private JsonNode get(URI uri) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }
}
