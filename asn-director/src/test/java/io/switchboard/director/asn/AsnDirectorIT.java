package io.switchboard.director.asn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.codec.asn.r6.R6View;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.testing.PcapFile;
import io.switchboard.director.testing.RunningDirector;
import io.switchboard.director.testing.Tshark;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ASN director on loopback with three stand-in gateways (weights 3/1/2) and base stations
 * sending MS_PreAttachment Req and Ack vectors, in both NWG numberings. What the gateways receive and
 * what the base stations get back is written to a pcap file and decoded by tshark's wimaxasncp
 * dissector, set to the same release.
 */
class AsnDirectorIT {

    private static final long FIRST_MSID = 0x0a1b2c3d4e50L;
    private static final String[] MSID_TEXT = {"0a:1b:2c:3d:4e:50", "0a:1b:2c:3d:4e:51", "0a:1b:2c:3d:4e:52",
        "0a:1b:2c:3d:4e:53", "0a:1b:2c:3d:4e:54", "0a:1b:2c:3d:4e:55"};

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PcapFile capture = new PcapFile();
    private final List<GatewayResponder> gateways = new ArrayList<>();
    private final List<String> arrivals = new CopyOnWriteArrayList<>();
    private RunningDirector running;
    private InetSocketAddress vip;

    @TempDir
    Path dir;

    private void start(AsnOptions options) throws Exception {
        for (String name : List.of("A", "B", "C")) {
            gateways.add(new GatewayResponder(name, options.release(), capture, arrivals));
        }
        int[] ports = gateways.stream().mapToInt(GatewayResponder::port).toArray();
        FarmConfig farm = RunningDirector.loopbackFarm("gateways", ports, new int[] {3, 1, 2});
        VirtualServerConfig vs = new VirtualServerConfig("asn-gw",
                new Endpoint(InetAddress.getByName("127.0.0.1"), 0), "asn", "gateways",
                Optional.of(new StickyConfig(List.of(AsnModule.MSID), Duration.ofMinutes(30), OptionalInt.empty(),
                        1000)),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
        running = RunningDirector.start(vs, farm, new AsnService(), registry);
        vip = running.vip("asn-gw");
    }

    @AfterEach
    void stop() throws Exception {
        if (running != null) {
            running.close();
        }
        for (GatewayResponder gateway : gateways) {
            gateway.close();
        }
    }

    @Test
    void release121RelayingResponsesEachMsidStaysWithItsGatewayAndItsAckFollows() throws Exception {
        NwgRelease release = NwgRelease.R1_0_V1_2_1;
        start(new AsnOptions(release, true));
        try (DatagramSocket bs = socket(); DatagramSocket otherBs = socket()) {
            for (int i = 0; i < 6; i++) {
                send(bs, R6Messages.preAttachment(release, R6PreAttachment.REQUEST, FIRST_MSID + i, 0x0100 + i));
                DatagramPacket rsp = receive(bs, 5000);
                assertThat(rsp).as("Rsp for MSID %d", i).isNotNull();
                assertThat(rsp.getSocketAddress()).isEqualTo(vip);
                byte[] bytes = Arrays.copyOf(rsp.getData(), rsp.getLength());
                capture.add(vip, (InetSocketAddress) bs.getLocalSocketAddress(), bytes);
                R6View view = R6View.wrap(io.netty.buffer.Unpooled.wrappedBuffer(bytes));
                assertThat(release.preAttachment(view)).isEqualTo(R6PreAttachment.RESPONSE);
                assertThat(view.msid()).isEqualTo(FIRST_MSID + i);
                assertThat(view.transactionId()).isEqualTo(0x0100 + i);
                send(bs, R6Messages.preAttachment(release, R6PreAttachment.ACK, FIRST_MSID + i, 0x0100 + i));
                int expected = 2 * (i + 1);
                await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == expected);
            }
            // Another base station, a later request for MSID 0 (e.g. after a handover): same gateway.
            send(otherBs, R6Messages.preAttachment(release, R6PreAttachment.REQUEST, FIRST_MSID, 0x0200));
            DatagramPacket again = receive(otherBs, 5000);
            assertThat(again).isNotNull();
            capture.add(vip, (InetSocketAddress) otherBs.getLocalSocketAddress(),
                    Arrays.copyOf(again.getData(), again.getLength()));
        }
        // Req and Ack of each MSID at one gateway; MSIDs spread A,A,A,B,C,C by weights 3/1/2.
        assertThat(String.join("", arrivals)).isEqualTo("AAAAAABBCCCCA");
        assertMsidsAt("AAABCC", release);
        assertBindings("AAABCC");

        // The Acks waited for nothing: nothing expires, no gateway is charged an unanswered request.
        await().pollDelay(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5))
                .until(() -> metrics().expiredCount() == 0);
        assertThat(running.director().farms().farm("gateways").reals()).allSatisfy(r -> assertThat(r.unanswered()).isZero());
        assertThat(metrics().relayedCount()).isEqualTo(7);
        assertThat(messages("to-gateway", "MS_PreAttachment_Req", 0)).isEqualTo(4);
        assertThat(messages("to-gateway", "MS_PreAttachment_Ack", 0)).isEqualTo(3);
        assertThat(messages("from-gateway", "MS_PreAttachment_Rsp", 2)).isEqualTo(2);

        List<List<String>> rows = decode("r6-v121.pcap", "R1.0 v1.2.1");
        assertThat(rows).hasSize(13 + 7);
        assertThat(rows.stream().map(r -> r.get(4).substring(0, r.get(4).indexOf(' ')))).containsOnly(
                "MS_PreAttachment_Req", "MS_PreAttachment_Rsp", "MS_PreAttachment_Ack");
    }

    @Test
    void release100GatewaysAnsweringDirectlyEachMsidStaysWithItsGatewayAndItsAckFollows() throws Exception {
        NwgRelease release = NwgRelease.R1_0_V1_0_0;
        start(new AsnOptions(release, false));
        try (DatagramSocket bs = socket()) {
            for (int i = 0; i < 6; i++) {
                send(bs, R6Messages.preAttachment(release, R6PreAttachment.REQUEST, FIRST_MSID + i, 0x0100 + i));
                send(bs, R6Messages.preAttachment(release, R6PreAttachment.ACK, FIRST_MSID + i, 0x0100 + i));
                int expected = 2 * (i + 1);
                await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == expected);
            }
            // The gateways answered the director's socket (the source they saw); in this mode the
            // director waits for nothing and drops those answers: the base station hears nothing.
            assertThat(receive(bs, 300)).isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> unmatched("late") == 6);

            // Message type 7 is the Rsp in v1.0.0: a base station must not send it to the gateways' VIP.
            send(bs, R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, FIRST_MSID, 0x0300));
            // Message type 2 is no MS_PreAttachment message in v1.0.0: a later message, it follows the binding.
            send(bs, R6Messages.message(1, 9, 2, 2, FIRST_MSID + 3, 0x0301, R6Messages.BS_INFO));
            await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 13);
            assertThat(metrics().droppedCount(DropReason.UNEXPECTED_MESSAGE)).isEqualTo(1);
        }
        assertThat(String.join("", arrivals)).isEqualTo("AAAAAABBCCCCB");
        assertMsidsAt("AAABCC", release);
        assertBindings("AAABCC");
        assertThat(messages("to-gateway", "MS_PreAttachment_Req", 1)).isEqualTo(1);
        assertThat(messages("to-gateway", "MS State Response", 1)).isEqualTo(1);

        List<List<String>> rows = decode("r6-v100.pcap", "R1.0 v1.0.0");
        assertThat(rows).hasSize(13);
        assertThat(rows.subList(0, 12).stream().map(r -> r.get(4).substring(0, r.get(4).indexOf(' '))))
                .containsOnly("MS_PreAttachment_Req", "MS_PreAttachment_Ack");
    }

    @Test
    void malformedMessagesAreDroppedWithTheirReasonAndTrafficContinues() throws Exception {
        NwgRelease release = NwgRelease.R1_0_V1_2_1;
        start(new AsnOptions(release, true));
        byte[] request = R6Messages.preAttachment(release, R6PreAttachment.REQUEST, FIRST_MSID, 1);
        byte[] lengthTooLong = request.clone();
        lengthTooLong[5] = (byte) (request.length + 4);
        byte[] badTlv = request.clone();
        badTlv[20 + 3] = 100; // MS Info claims 100 octets
        try (DatagramSocket bs = socket()) {
            send(bs, Arrays.copyOf(request, 19));
            send(bs, lengthTooLong);
            send(bs, badTlv);
            send(bs, R6Messages.message(2, 9, 1, 1, FIRST_MSID, 1, R6Messages.MS_INFO));
            send(bs, R6Messages.message(1, 9, 0, 1, FIRST_MSID, 1, R6Messages.MS_INFO));
            send(bs, R6Messages.message(1, 9, 6, 1, FIRST_MSID, 1, R6Messages.MS_INFO));
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().receivedCount() == 6);
            assertThat(metrics().droppedCount(DropReason.TRUNCATED)).as(dropped()).isEqualTo(2);
            assertThat(metrics().droppedCount(R6View.BAD_TLV)).as(dropped()).isEqualTo(1);
            assertThat(metrics().droppedCount(DropReason.UNSUPPORTED_VERSION)).as(dropped()).isEqualTo(1);
            assertThat(metrics().droppedCount(DropReason.MALFORMED)).as(dropped()).isEqualTo(2);
            send(bs, request);
            assertThat(receive(bs, 5000)).isNotNull();
            assertThat(arrivals).containsExactly("A");
        }
    }

    // ---- helpers ----

    /** Every message of MSID i reached gateway {@code at.charAt(i)}, numbered per the release. */
    private void assertMsidsAt(String at, NwgRelease release) {
        for (int i = 0; i < 6; i++) {
            GatewayResponder expected = gateways.get(at.charAt(i) - 'A');
            long msid = FIRST_MSID + i;
            for (GatewayResponder g : gateways) {
                List<GatewayResponder.Received> mine = g.received.stream().filter(r -> r.msid() == msid).toList();
                if (g == expected) {
                    assertThat(mine).as("messages of MSID %d at %s", i, g.name).hasSizeGreaterThanOrEqualTo(2);
                    assertThat(mine.get(0).messageType()).isEqualTo(release.messageType(R6PreAttachment.REQUEST));
                    assertThat(mine.get(1).messageType()).isEqualTo(release.messageType(R6PreAttachment.ACK));
                    assertThat(mine.get(1).transactionId()).isEqualTo(mine.get(0).transactionId());
                } else {
                    assertThat(mine).as("messages of MSID %d at %s", i, g.name).isEmpty();
                }
            }
        }
    }

    /** The sticky table holds MSID i → gateway {@code at.charAt(i)}. */
    private void assertBindings(String at) {
        var table = running.director().virtualServers().get("asn-gw").selector().sticky();
        for (int i = 0; i < 6; i++) {
            StickyBinding binding = table.lookup(StickyKey.parse(AsnModule.MSID, MSID_TEXT[i]), System.nanoTime());
            assertThat(binding).as("binding of %s", MSID_TEXT[i]).isNotNull();
            assertThat(binding.real()).isEqualTo(realId(at.charAt(i) - 'A'));
        }
    }

    private List<List<String>> decode(String file, String tsharkRelease) throws Exception {
        Path pcap = dir.resolve(file);
        capture.write(pcap);
        List<String> options = new ArrayList<>(List.of("-o", "wimaxasncp.nwg_version:" + tsharkRelease,
                "-d", "udp.port==" + vip.getPort() + ",wimaxasncp"));
        gateways.forEach(g -> options.addAll(List.of("-d", "udp.port==" + g.port() + ",wimaxasncp")));
        List<List<String>> rows = Tshark.fields(pcap, options, "wimaxasncp.version", "wimaxasncp.function_type",
                "wimaxasncp.msid", "wimaxasncp.transaction_id", "_ws.col.Info");
        for (List<String> row : rows) {
            assertThat(row.get(0)).isEqualTo("1");
            assertThat(row.get(1)).isEqualTo("9");
            assertThat(row.get(2)).startsWith("0a:1b:2c:3d:4e:5");
            assertThat(row.get(4)).contains("MSID:" + row.get(2)).contains("TID:" + row.get(3));
        }
        return rows;
    }

    private String realId(int i) {
        return "127.0.0.1:" + gateways.get(i).port();
    }

    private VirtualServerMetrics metrics() {
        return running.director().virtualServers().get("asn-gw").metrics();
    }

    private double messages(String direction, String type, int gateway) {
        Counter c = registry.find("switchboard.asn.messages").tag("direction", direction).tag("type", type)
                .tag("real", realId(gateway)).counter();
        return c == null ? 0 : c.count();
    }

    private double unmatched(String reason) {
        Counter c = registry.find("switchboard.responses.unmatched").tag("reason", reason).counter();
        return c == null ? 0 : c.count();
    }

    private String dropped() {
        StringBuilder text = new StringBuilder("dropped:");
        registry.find("switchboard.dropped").counters().forEach(c -> text.append(' ').append(c.getId().getTag("reason"))
                .append('=').append(c.count()));
        return text.toString();
    }

    private static DatagramSocket socket() throws IOException {
        return new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
    }

    private void send(DatagramSocket socket, byte[] bytes) throws IOException {
        socket.send(new DatagramPacket(bytes, bytes.length, vip));
    }

    private static DatagramPacket receive(DatagramSocket socket, int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            socket.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return in;
    }
}
