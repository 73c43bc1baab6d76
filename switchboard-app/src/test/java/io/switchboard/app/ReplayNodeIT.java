package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.pcap.CaptureEvent;
import io.switchboard.pcap.CaptureFile;
import io.switchboard.pcap.PcapWriter;
import io.switchboard.pcap.UdpDatagram;
import io.switchboard.pcap.UdpExtractor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code switchboard replay} against a Switchboard node started in-process from YAML: RADIUS in
 * front of two small AAA responders (answers matched by identifier, re-signed by the director),
 * and generic UDP in front of {@link SimulatedUdpBackend}s (answers matched by arrival order).
 */
class ReplayNodeIT {

    private static final byte[] SECRET = "testing123".getBytes(StandardCharsets.US_ASCII);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<AutoCloseable> closing = new ArrayList<>();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private int execute(String... args) {
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private JsonNode report() throws Exception {
        String[] lines = out.toString().split("\n");
        return JSON.readTree(lines[lines.length - 1]).get("replay");
    }

    /** A node from {@code yaml}, without the admin listener (its default port is fixed, 8080). */
    private Node node(String yaml) throws Exception {
        Services services = Services.discover();
        Node node = new Node(new ConfigLoader(services.available()).parse("admin: { enabled: false }\n" + yaml),
                services);
        closing.add(node);
        node.startAndWait();
        return node;
    }

    @Test
    void everyRadiusRequestIsAnsweredThroughTheDirectorAndTheExchangeIsWritten() throws Exception {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        DatagramSocket aaa1 = responder(first);
        DatagramSocket aaa2 = responder(second);
        Node node = node("""
                farms:
                  aaa:
                    reals:
                      - { address: 127.0.0.1, port: %d, weight: 1, secret: testing123 }
                      - { address: 127.0.0.1, port: %d, weight: 1, secret: testing123 }
                virtual-servers:
                  radius-auth:
                    listen: 127.0.0.1:0
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id, username], idle: 1h }
                """.formatted(aaa1.getLocalPort(), aaa2.getLocalPort()));
        InetSocketAddress vip = node.director().localAddress("radius-auth");
        Path capture = dir.resolve("radius.pcap");
        try (PcapWriter writer = PcapWriter.create(capture)) {
            InetAddress nas = InetAddress.getByName("198.51.100.1");
            InetAddress aaa = InetAddress.getByName("192.0.2.1");
            for (int i = 0; i < 120; i++) {
                writer.udp(nas, 40000, aaa, 1812,
                        WhatIfCommandTest.accessRequest(i, "user" + i % 40, "4420000000" + (100 + i % 40)));
                writer.udp(aaa, 1812, nas, 40000, new byte[] {2, (byte) i, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0}); // the capture's own answers are not replayed
            }
        }
        Path written = dir.resolve("sent-and-received.pcap");
        int status = execute("replay", capture.toString(), "--to", "127.0.0.1:" + vip.getPort(), "--rate", "2000",
                "--timeout", "3s", "--write", written.toString());
        assertThat(status).as(err.toString()).isZero();
        JsonNode report = report();
        assertThat(report.get("sent").asInt()).isEqualTo(120);
        assertThat(report.get("answered").asInt()).isEqualTo(120);
        assertThat(report.get("lost").asInt()).isZero();
        assertThat(report.get("late").asInt()).isZero();
        assertThat(report.at("/latency_ms/p99").asDouble()).isPositive();
        assertThat(err.toString()).contains("120 request(s) to port 1812 (radius)");
        assertThat(first.get() + second.get()).isEqualTo(120);
        assertThat(first.get()).isEqualTo(60); // 40 subscribers by round robin, sticky for their 3 requests
        assertThat(CaptureFile.readAll(written)).allSatisfy(f -> assertThat(f.timestamp())
                .isBetween(java.time.Instant.now().minusSeconds(60), java.time.Instant.now()));
        List<UdpDatagram> exchanged = new ArrayList<>();
        UdpExtractor.extract(CaptureFile.readAll(written)).forEach(e -> {
            if (e instanceof UdpDatagram d) {
                exchanged.add(d);
            }
        });
        assertThat(exchanged).hasSize(240);
        assertThat(exchanged).filteredOn(d -> d.payload()[0] == 1).hasSize(120)
                .allSatisfy(d -> assertThat(d.destinationPort()).isEqualTo(vip.getPort()));
        assertThat(exchanged).filteredOn(d -> d.payload()[0] == 2).hasSize(120)
                .allSatisfy(d -> assertThat(d.sourcePort()).isEqualTo(vip.getPort()));
        // and tshark reads it: 120 Access-Requests and 120 Access-Accepts, nothing malformed
        Process tshark = new ProcessBuilder("/usr/bin/tshark", "-r", written.toString(),
                "-d", "udp.port==" + vip.getPort() + ",radius", "-T", "fields", "-e", "radius.code",
                "-e", "_ws.malformed").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> codes = new String(tshark.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(tshark.waitFor()).isZero();
        assertThat(codes).hasSize(240);
        assertThat(codes).filteredOn("1\t"::equals).hasSize(120);
        assertThat(codes).filteredOn("2\t"::equals).hasSize(120);
    }

    @Test
    void oneRequestBecomesALoadOfManySubscribers() throws Exception {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        DatagramSocket aaa1 = responder(first);
        DatagramSocket aaa2 = responder(second);
        Node node = node("""
                farms:
                  aaa:
                    reals:
                      - { address: 127.0.0.1, port: %d, weight: 1, secret: testing123 }
                      - { address: 127.0.0.1, port: %d, weight: 1, secret: testing123 }
                virtual-servers:
                  radius-auth:
                    listen: 127.0.0.1:0
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id, username], idle: 1h }
                """.formatted(aaa1.getLocalPort(), aaa2.getLocalPort()));
        InetSocketAddress vip = node.director().localAddress("radius-auth");
        Path template = dir.resolve("template.pcap");
        try (PcapWriter writer = PcapWriter.create(template)) {
            writer.udp(InetAddress.getByName("198.51.100.1"), 40000, InetAddress.getByName("192.0.2.1"), 1812,
                    WhatIfCommandTest.accessRequest(7, "subscriber", "4420000000100"));
        }
        // Every request must be answered, none lost or late. The timeout is only how long to wait: no
        // latency is asserted here, and on a 2-core machine loaded to 20 the node (paranoid leak
        // detection, a cold JIT) took up to 3 s to answer its backlog. A run that is answered ends
        // with its last answer, so the longer wait costs nothing when all goes well.
        int status = execute("replay", template.toString(), "--to", "127.0.0.1:" + vip.getPort(), "--rate", "400",
                "--duration", "1s", "--vary", "calling-station-id:50", "--secret", "testing123", "--timeout", "15s");
        var metrics = node.director().virtualServers().get("radius-auth").metrics();
        assertThat(status).as("%s%s director: received %s, forwarded %s, relayed %s, expired %s", err, out,
                metrics.receivedCount(), metrics.forwardedCount(), metrics.relayedCount(), metrics.expiredCount())
                .isZero();
        JsonNode report = report();
        assertThat(report.get("sent").asInt()).isEqualTo(400);
        assertThat(report.get("answered").asInt()).isEqualTo(400);
        // 50 subscribers, 8 requests each, 25 per real by round robin
        assertThat(node.director().virtualServers().get("radius-auth").selector().sticky().size()).isEqualTo(50);
        assertThat(first.get()).isEqualTo(200);
        assertThat(second.get()).isEqualTo(200);
    }

    @Test
    void genericUdpAnswersAreMatchedByArrivalOrderAndSilenceIsLoss() throws Exception {
        SimulatedUdpBackend a = new SimulatedUdpBackend("a", new InetSocketAddress("127.0.0.1", 0));
        SimulatedUdpBackend b = new SimulatedUdpBackend("b", new InetSocketAddress("127.0.0.1", 0));
        closing.add(a);
        closing.add(b);
        Node node = node("""
                farms:
                  echo:
                    reals:
                      - { address: 127.0.0.1, port: %d }
                      - { address: 127.0.0.1, port: %d }
                virtual-servers:
                  echo-vip:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: echo
                    sticky: { key: client-address, idle: 10m }
                    response-timeout: 5s
                """.formatted(a.address().getPort(), b.address().getPort()));
        InetSocketAddress vip = node.director().localAddress("echo-vip");
        Path capture = dir.resolve("udp.pcap");
        try (PcapWriter writer = PcapWriter.create(capture)) {
            for (int i = 0; i < 30; i++) {
                writer.udp(InetAddress.getByName("198.51.100.7"), 50000, InetAddress.getByName("192.0.2.9"), 5000,
                        ("ping " + i).getBytes(StandardCharsets.US_ASCII));
            }
        }
        // The capture's timing (1 ms apart) ten times slower.
        assertThat(execute("replay", capture.toString(), "--to", "127.0.0.1:" + vip.getPort(), "--speed", "0.1",
                "--timeout", "3s")).as(err.toString()).isZero();
        assertThat(report().get("answered").asInt()).isEqualTo(30);
        assertThat(a.received() + b.received()).isEqualTo(30);

        a.silent(true);
        b.silent(true);
        out.getBuffer().setLength(0);
        assertThat(execute("replay", capture.toString(), "--to", "127.0.0.1:" + vip.getPort(), "--rate", "1000",
                "--timeout", "300ms")).isEqualTo(1);
        assertThat(report().get("sent").asInt()).isEqualTo(30);
        assertThat(report().get("lost").asInt()).isEqualTo(30);
    }

    /**
     * The client of two directors, one of which stopped: {@code --to} twice (once as a comma list)
     * and {@code --retransmit 1}; the requests the stopped one got first are answered by the other.
     */
    @Test
    void severalTargetsAndARetransmissionToTheNext() throws Exception {
        AtomicInteger answering = new AtomicInteger();
        DatagramSocket aaa = responder(answering);
        DatagramSocket stopped = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0)); // never answers
        closing.add(stopped);
        Path capture = dir.resolve("radius.pcap");
        try (PcapWriter writer = PcapWriter.create(capture)) {
            for (int i = 0; i < 20; i++) {
                writer.udp(InetAddress.getByName("198.51.100.1"), 40000, InetAddress.getByName("192.0.2.1"), 1812,
                        WhatIfCommandTest.accessRequest(i, "user" + i, "4420000000" + (100 + i)));
            }
        }
        int status = execute("replay", capture.toString(), "--to", "127.0.0.1:" + stopped.getLocalPort()
                + ",127.0.0.1:" + aaa.getLocalPort(), "--retransmit", "1", "--rate", "1000", "--timeout", "300ms");
        assertThat(status).as(err.toString()).isZero();
        JsonNode report = report();
        assertThat(report.get("sent").asInt()).isEqualTo(20);
        assertThat(report.get("answered").asInt()).isEqualTo(20);
        assertThat(report.get("retransmitted").asInt()).isEqualTo(10);
        assertThat(report.get("answered_after_retransmit").asInt()).isEqualTo(10);
        assertThat(answering.get()).isEqualTo(20);

        out.getBuffer().setLength(0);
        assertThat(execute("replay", capture.toString(), "--to", "127.0.0.1:" + stopped.getLocalPort(), "--to",
                "127.0.0.1:" + aaa.getLocalPort(), "--rate", "1000", "--timeout", "300ms")).isEqualTo(1);
        assertThat(report().get("lost").asInt()).as("without --retransmit").isEqualTo(10);
    }

    @Test
    void badInputIsNamedWithoutAStackTrace() {
        assertThat(execute("replay", dir.resolve("none.pcap").toString(), "--to", "127.0.0.1:1812")).isEqualTo(2);
        assertThat(err.toString()).contains("none.pcap").doesNotContain("Exception");
        assertThat(execute("replay", "x.pcap", "--to", "127.0.0.1")).isEqualTo(2);
        assertThat(err.toString()).contains("expected HOST:PORT");
    }

    /** An AAA server answering every Access-Request with an Access-Accept signed with testing123. */
    private DatagramSocket responder(AtomicInteger count) throws IOException {
        DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        closing.add(socket);
        Thread thread = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                    socket.receive(in);
                    byte[] request = Arrays.copyOf(in.getData(), in.getLength());
                    count.incrementAndGet();
                    byte[] accept = {2, request[1], 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
                    MessageDigest md5 = MessageDigest.getInstance("MD5");
                    md5.update(accept, 0, 4);
                    md5.update(request, 4, 16);
                    md5.update(SECRET);
                    System.arraycopy(md5.digest(), 0, accept, 4, 16);
                    socket.send(new DatagramPacket(accept, accept.length, in.getSocketAddress()));
                } catch (Exception e) {
                    // closed
                }
            }
        }, "aaa-responder");
        thread.setDaemon(true);
        thread.start();
        return socket;
    }
}
