package io.switchboard.director.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.mip.MipAuthenticators;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.testing.PcapFile;
import io.switchboard.director.testing.RunningDirector;
import io.switchboard.director.testing.Tshark;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Home Agent Director on loopback, with Registration Requests crafted by scapy (Debian's
 * python3-scapy, MN-NAI and MN-HA authentication extensions appended by hand) and three stand-in
 * home agents with weights 3/1/2. What the agents receive and what the requester gets back is
 * written to a pcap file and decoded by tshark.
 */
class HaDirectorIT {

    private static final byte[] KEY = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
    private static final int SPI = 256;
    /** The virtual home agent address the mobile nodes know (written in the RRQs' Home Agent field). */
    private static final String VIRTUAL_HOME_AGENT = "127.0.0.10";
    /** Request i has Identification FIRST_ID + i * 2^24. */
    private static final long FIRST_ID = 0x11223344_00000001L;
    private static List<byte[]> requests;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PcapFile capture = new PcapFile();
    private final List<HomeAgentResponder> agents = new ArrayList<>();
    private final List<String> arrivals = new CopyOnWriteArrayList<>();
    private RunningDirector running;
    private InetSocketAddress vip;

    @TempDir
    Path dir;

    @BeforeAll
    static void craftRequests() throws Exception {
        Path script = Path.of("src", "test", "resources", "mip_rrq.py");
        Process python = new ProcessBuilder("/usr/bin/python3", script.toString(), VIRTUAL_HOME_AGENT,
                HexFormat.of().formatHex(KEY), Integer.toString(SPI), "24", Long.toString(FIRST_ID))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertThat(python.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(python.exitValue()).as("scapy (python3-scapy) crafting RRQs").isZero();
        requests = out.lines().map(HexFormat.of()::parseHex).toList();
        assertThat(requests).hasSize(24);
    }

    private void start(HaOptions options) throws Exception {
        for (String name : List.of("A", "B", "C")) {
            agents.add(new HomeAgentResponder(name, KEY, SPI, capture, arrivals));
        }
        int[] ports = agents.stream().mapToInt(HomeAgentResponder::port).toArray();
        FarmConfig farm = RunningDirector.loopbackFarm("ha", ports, new int[] {3, 1, 2});
        VirtualServerConfig vs = new VirtualServerConfig("home-agents",
                new Endpoint(InetAddress.getByName("127.0.0.1"), 0), "ipmobile", "ha", Optional.empty(),
                // Generous: the one-way test retransmits after three more requests, on a possibly loaded machine.
                Duration.ofSeconds(10), Duration.ofMinutes(1), 4096, true, options);
        running = RunningDirector.start(vs, farm, new HaService(), registry);
        vip = running.vip("home-agents");
    }

    @AfterEach
    void stop() throws Exception {
        if (running != null) {
            running.close();
        }
        for (HomeAgentResponder agent : agents) {
            agent.close();
        }
    }

    @Test
    void requestsGoInWeightedRoundRobinOrderUnchangedAndRepliesAreRelayedFromTheVirtualAddress() throws Exception {
        start(new HaOptions(true, false));
        try (DatagramSocket mobile = socket()) {
            for (int i = 0; i < 12; i++) {
                send(mobile, requests.get(i));
                DatagramPacket reply = receive(mobile, 5000);
                assertThat(reply).as("reply to RRQ %d", i).isNotNull();
                assertThat(reply.getSocketAddress()).isEqualTo(vip);
                capture.add(vip, (InetSocketAddress) mobile.getLocalSocketAddress(),
                        Arrays.copyOf(reply.getData(), reply.getLength()));
                MipHeaderView rrp = MipHeaderView.wrap(Unpooled.wrappedBuffer(reply.getData(), 0, reply.getLength()));
                MipHeaderView rrq = MipHeaderView.wrap(Unpooled.wrappedBuffer(requests.get(i)));
                assertThat(rrp.isRequest()).isFalse();
                assertThat(rrp.identification()).isEqualTo(rrq.identification());
                assertThat(rrp.homeAddress()).isEqualTo(rrq.homeAddress());
                assertThat(rrp.homeAgent()).isEqualTo(rrq.homeAgent());
                // The mobile node accepts the reply: the home agent's authenticator survived the relay.
                assertThat(MipAuthenticators.verify(rrp,
                        rrp.findExtension(MipExtensionType.MN_HA_AUTHENTICATION.value()), KEY)).isTrue();
            }
        }
        assertThat(order()).isEqualTo("AAABCCAAABCC");
        for (HomeAgentResponder agent : agents) {
            for (HomeAgentResponder.Received r : agent.received) {
                assertThat(r.authenticatorValid()).as("MN-HA authenticator at %s", agent.name).isTrue();
                assertThat(requests).anySatisfy(sent -> assertThat(r.bytes()).isEqualTo(sent));
            }
        }
        VirtualServerMetrics metrics = metrics();
        assertThat(metrics.forwardedCount()).isEqualTo(12);
        assertThat(metrics.relayedCount()).isEqualTo(12);
        assertThat(counter("switchboard.ipmobile.requests", "real", realId(0))).isEqualTo(6);
        assertThat(counter("switchboard.ipmobile.requests", "real", realId(1))).isEqualTo(2);
        assertThat(counter("switchboard.ipmobile.requests", "real", realId(2))).isEqualTo(4);
        assertThat(registry.get("switchboard.ipmobile.replies").tag("real", realId(2)).tag("code", "0").counter()
                .count()).isEqualTo(4);

        // tshark reads every RRQ the agents got and every RRP the mobile node got as Mobile IP.
        Path pcap = dir.resolve("ha-relay.pcap");
        capture.write(pcap);
        List<List<String>> rows = Tshark.fields(pcap, decodeAsMobileIp(),
                "mip.type", "mip.ident", "mip.homeaddr", "mip.haaddr", "mip.nai", "mip.auth.spi", "udp.dstport");
        assertThat(rows).hasSize(24);
        int requestsSeen = 0;
        // tshark shows the Identification as an NTP time stamp: the reply's must be the request's.
        Map<String, String> identByHomeAddress = new java.util.HashMap<>();
        for (List<String> row : rows) {
            assertThat(row.get(0)).isIn("1", "3");
            assertThat(row.get(3)).isEqualTo(VIRTUAL_HOME_AGENT);
            assertThat(row.get(2)).startsWith("10.99.0.");
            int n = Integer.parseInt(row.get(2).substring("10.99.0.".length())) - 1;
            assertThat(row.get(4)).isEqualTo("mn" + n + "@ha.switchboard.example");
            assertThat(row.get(1)).isNotEmpty();
            String before = identByHomeAddress.putIfAbsent(row.get(2), row.get(1));
            assertThat(before == null || before.equals(row.get(1))).as("identification of %s", row.get(2)).isTrue();
            assertThat(Long.decode(row.get(5))).isEqualTo(SPI);
            requestsSeen += row.get(0).equals("1") ? 1 : 0;
        }
        assertThat(requestsSeen).isEqualTo(12);
        assertThat(new java.util.HashSet<>(identByHomeAddress.values())).hasSize(12);
    }

    @Test
    void aRetransmittedRequestGoesToTheSameHomeAgentAndItsReplyIsRelayedOnce() throws Exception {
        start(new HaOptions(true, false));
        agents.forEach(a -> a.hold = true);
        try (DatagramSocket mobile = socket()) {
            send(mobile, requests.get(0));
            send(mobile, requests.get(1));
            await().atMost(Duration.ofSeconds(10)).until(() -> totalReceived() == 2);
            send(mobile, requests.get(1)); // the mobile node heard nothing: same Identification again
            await().atMost(Duration.ofSeconds(10)).until(() -> totalReceived() == 3);
            send(mobile, requests.get(2));
            await().atMost(Duration.ofSeconds(10)).until(() -> totalReceived() == 4);

            // A, A (and the retransmission again at A), then A: the retransmission took no turn.
            assertThat(order()).isEqualTo("AAAA");
            assertThat(agents.get(0).received.get(2).bytes()).isEqualTo(requests.get(1));
            assertThat(registry.get("switchboard.requests.retransmitted").counter().count()).isEqualTo(1);
            assertThat(metrics().forwardedCount()).isEqualTo(3);

            agents.get(0).release(); // replies to RRQ 0, RRQ 1, RRQ 1 again, RRQ 2
            List<Long> ids = new ArrayList<>();
            for (DatagramPacket p; (p = receive(mobile, 2000)) != null; ) {
                ids.add(MipHeaderView.wrap(Unpooled.wrappedBuffer(p.getData(), 0, p.getLength())).identification());
            }
            assertThat(ids).containsExactlyInAnyOrder(FIRST_ID, FIRST_ID + (1L << 24), FIRST_ID + (2L << 24));
            await().atMost(Duration.ofSeconds(5)).until(() -> unmatched("late") == 1);
        }
    }

    @Test
    void withoutRelayingRequestsAreSpreadAndRetransmissionsStickButNothingComesBackThroughTheDirector()
            throws Exception {
        start(new HaOptions(false, false));
        try (DatagramSocket mobile = socket()) {
            for (int i = 0; i < 6; i++) {
                send(mobile, requests.get(i));
                int expected = i + 1;
                await().atMost(Duration.ofSeconds(10)).until(() -> totalReceived() == expected);
            }
            send(mobile, requests.get(3)); // went to B
            await().atMost(Duration.ofSeconds(10)).until(() -> totalReceived() == 7);
            assertThat(agents.get(1).received).hasSize(2);
            assertThat(order()).isEqualTo("AAABCCB");
            // The agents answered the source of the request, the director's socket, which waits for
            // nothing in this mode: the replies are counted and dropped, never relayed.
            assertThat(receive(mobile, 500)).isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> unmatched("late") == 7);
            assertThat(metrics().relayedCount()).isZero();
            assertThat(registry.get("switchboard.requests.retransmitted").counter().count()).isEqualTo(1);
        }
    }

    @Test
    void rewritingTheHomeAgentFieldReachesTheAgentAndIsUndoneInTheReplyButBreaksTheAuthenticator() throws Exception {
        start(new HaOptions(true, true));
        try (DatagramSocket mobile = socket()) {
            send(mobile, requests.get(0));
            DatagramPacket reply = receive(mobile, 5000);
            assertThat(reply).isNotNull();
            HomeAgentResponder.Received got = agents.get(0).received.get(0);
            MipHeaderView atAgent = MipHeaderView.wrap(Unpooled.wrappedBuffer(got.bytes()));
            assertThat(atAgent.homeAgent()).isEqualTo(ipv4("127.0.0.1"));
            assertThat(got.authenticatorValid()).as("MN-HA authenticator after the rewrite").isFalse();
            MipHeaderView rrp = MipHeaderView.wrap(Unpooled.wrappedBuffer(reply.getData(), 0, reply.getLength()));
            assertThat(rrp.homeAgent()).isEqualTo(ipv4(VIRTUAL_HOME_AGENT));
            assertThat(MipAuthenticators.verify(rrp, rrp.findExtension(MipExtensionType.MN_HA_AUTHENTICATION.value()),
                    KEY)).as("the agent signed its own address; the mobile node sees the virtual one").isFalse();
        }
    }

    @Test
    void malformedAndUnexpectedMessagesAreDroppedWithTheirReasonAndTrafficContinues() throws Exception {
        start(new HaOptions(true, false));
        MipHeaderView rrq = MipHeaderView.wrap(Unpooled.wrappedBuffer(requests.get(0)));
        byte[] reply = java.nio.ByteBuffer.allocate(20).put((byte) 3).put((byte) 0).putShort((short) 1800)
                .putInt(rrq.homeAddress()).putInt(rrq.homeAgent()).putLong(rrq.identification()).array();
        byte[] revocation = requests.get(0).clone();
        revocation[0] = 7;
        byte[] badExtension = requests.get(0).clone();
        badExtension[24 + 1] = (byte) 200; // the NAI's length runs past the message
        try (DatagramSocket mobile = socket()) {
            send(mobile, Arrays.copyOf(requests.get(0), 23));
            send(mobile, reply);
            send(mobile, revocation);
            send(mobile, badExtension);
            send(mobile, new byte[0]);
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().receivedCount() == 5);
            assertThat(metrics().droppedCount(DropReason.TRUNCATED)).as(dropped()).isEqualTo(2);
            assertThat(metrics().droppedCount(DropReason.UNEXPECTED_MESSAGE)).isEqualTo(2);
            assertThat(metrics().droppedCount(MipHeaderView.BAD_EXTENSION)).isEqualTo(1);
            send(mobile, requests.get(5));
            assertThat(receive(mobile, 5000)).isNotNull();
            assertThat(totalReceived()).isEqualTo(1);
        }
    }

    // ---- helpers ----

    private String realId(int i) {
        return "127.0.0.1:" + agents.get(i).port();
    }

    /** Which agent got each request, in order of arrival (the tests send one request at a time). */
    private String order() {
        return String.join("", arrivals);
    }

    /** The virtual address and the agents listen on ephemeral ports: tell tshark they carry Mobile IP. */
    private List<String> decodeAsMobileIp() {
        List<String> options = new ArrayList<>(List.of("-d", "udp.port==" + vip.getPort() + ",mip"));
        agents.forEach(a -> options.addAll(List.of("-d", "udp.port==" + a.port() + ",mip")));
        return options;
    }

    private int totalReceived() {
        return agents.stream().mapToInt(a -> a.received.size()).sum();
    }

    private VirtualServerMetrics metrics() {
        return running.director().virtualServers().get("home-agents").metrics();
    }

    private double counter(String name, String tag, String value) {
        Counter c = registry.find(name).tag(tag, value).counter();
        return c == null ? 0 : c.count();
    }

    private String dropped() {
        StringBuilder text = new StringBuilder("dropped:");
        registry.find("switchboard.dropped").counters().forEach(c -> text.append(' ').append(c.getId().getTag("reason"))
                .append('=').append(c.count()));
        return text.toString();
    }

    private double unmatched(String reason) {
        return counter("switchboard.responses.unmatched", "reason", reason);
    }

    private static int ipv4(String literal) throws IOException {
        byte[] a = InetAddress.getByName(literal).getAddress();
        return ((a[0] & 0xff) << 24) | ((a[1] & 0xff) << 16) | ((a[2] & 0xff) << 8) | (a[3] & 0xff);
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
