package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.v0.GtpV0Tid;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.Director;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code service: gtp} end to end over loopback with GGSN/PGW stand-ins ({@link GtpResponder}): GTPv1
 * and GTPv2 creates on one virtual server, GTPv0 on two more (one per TID byte order). IMSI
 * stickiness, the director's sequence numbers toward the reals and the requester's restored in the
 * answer, Echo and Version Not Supported answered by the director, and every unexpected or malformed
 * message counted under its reason while traffic continues.
 */
class GtpDirectorIT {

    private static final Duration ANSWER = Duration.ofSeconds(5);
    private static final int RECOVERY = 9;

    private static final Map<String, List<GtpResponder>> farms = new LinkedHashMap<>();
    private static GtpTestBed bed;
    private static Director director;
    private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() throws Exception {
        farms.put("ggsn", List.of(new GtpResponder(), new GtpResponder()));
        farms.put("ggsn-v0", List.of(new GtpResponder(GtpV0TidOrder.GSM_09_60), new GtpResponder(GtpV0TidOrder.GSM_09_60)));
        farms.put("ggsn-libgtp", List.of(new GtpResponder(GtpV0TidOrder.LIBGTP_REVERSED),
                new GtpResponder(GtpV0TidOrder.LIBGTP_REVERSED)));
        Map<String, FarmConfig> farmConfigs = new LinkedHashMap<>();
        farms.forEach((name, responders) -> farmConfigs.put(name, GtpTestBed.farm(name, PredictorKind.ROUNDROBIN,
                Duration.ofMinutes(1), responders)));
        Map<String, VirtualServerConfig> servers = new LinkedHashMap<>();
        servers.put("gtp-c", server("gtp-c", "ggsn", new GtpOptions(Set.of(1, 2), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1,
                GtpOptions.DEFAULT_RESOURCE_CAUSES_V2, List.of("26242", "26201"), GtpV0TidOrder.GSM_09_60, RECOVERY)));
        servers.put("gtp-v0", server("gtp-v0", "ggsn-v0", new GtpOptions(Set.of(0), 2, Set.of(), Set.of(), List.of(),
                GtpV0TidOrder.GSM_09_60, RECOVERY)));
        servers.put("gtp-v0-libgtp", server("gtp-v0-libgtp", "ggsn-libgtp", new GtpOptions(Set.of(0), 2, Set.of(),
                Set.of(), List.of(), GtpV0TidOrder.LIBGTP_REVERSED, RECOVERY)));
        bed = GtpTestBed.start(farms, farmConfigs, servers, new GtpService(), registry);
        director = bed.director;
    }

    private static VirtualServerConfig server(String name, String farm, GtpOptions options) {
        return GtpTestBed.server(name, new InetSocketAddress("127.0.0.1", 0), "gtp", farm, options);
    }

    @AfterAll
    static void stop() throws Exception {
        if (bed != null) {
            bed.close();
        }
    }

    private static InetSocketAddress vip(String server) {
        return director.localAddress(server);
    }

    private static VirtualServerMetrics metrics(String server) {
        return director.virtualServers().get(server).metrics();
    }

    private static DatagramSocket client() throws IOException {
        DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        socket.setSoTimeout((int) ANSWER.toMillis());
        return socket;
    }

    private static byte[] exchange(DatagramSocket client, byte[] request, String server) throws IOException {
        client.send(new DatagramPacket(request, request.length, vip(server)));
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            client.receive(in);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer from " + server + " to " + HexFormat.of().formatHex(request), e);
        }
        assertThat(in.getSocketAddress()).as("answered from the virtual address").isEqualTo(vip(server));
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    /** Which responder of the farm received a create for {@code imsi}; -1 if none, -2 if both. */
    private static int holder(String farm, String imsi) {
        List<GtpResponder> responders = farms.get(farm);
        int found = -1;
        for (int i = 0; i < responders.size(); i++) {
            if (responders.get(i).imsis().contains(imsi)) {
                found = found == -1 ? i : -2;
            }
        }
        return found;
    }

    private static StickyBinding binding(String server, String imsi) {
        return director.virtualServers().get(server).selector().sticky()
                .lookup(StickyKey.of(GtpModule.IMSI, imsi.getBytes(StandardCharsets.US_ASCII)), System.nanoTime());
    }

    private static int v1Sequence(byte[] message) {
        return ByteBuffer.wrap(message).getShort(8) & 0xFFFF;
    }

    private static int v2Sequence(byte[] message) {
        return ByteBuffer.wrap(message).getInt(8) >>> 8;
    }

    @Test
    void v1CreatesAreSpreadKeptStickyAndAnsweredWithTheRequestersSequence() throws Exception {
        List<String> imsis = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            imsis.add("26242000000010" + i);
        }
        try (DatagramSocket sgsn = client()) {
            for (int i = 0; i < imsis.size(); i++) {
                byte[] answer = exchange(sgsn, GtpMessages.v1CreateRequest(imsis.get(i), 0xBE00 + i, 5), "gtp-c");
                assertThat(answer[1]).as("Create PDP Context Response").isEqualTo((byte) 17);
                assertThat(v1Sequence(answer)).as("the SGSN's own sequence back").isEqualTo(0xBE00 + i);
                assertThat(answer[13]).as("cause accepted, relayed unchanged").isEqualTo((byte) 128);
            }
        }
        int[] perReal = new int[2];
        for (String imsi : imsis) {
            int holder = holder("ggsn", imsi);
            assertThat(holder).as("IMSI %s on exactly one real", imsi).isGreaterThanOrEqualTo(0);
            perReal[holder]++;
            assertThat(binding("gtp-c", imsi)).isNotNull();
        }
        assertThat(perReal).as("equal weights: round robin").containsExactly(3, 3);
        // The reals saw the director's sequence numbers, not the SGSN's.
        farms.get("ggsn").forEach(r -> r.received.forEach(rx -> assertThat(rx.sequence()).isLessThan(0xBE00)));

        // Another SGSN, other NSAPIs, the same subscribers: each IMSI goes where it is stuck.
        try (DatagramSocket sgsn2 = client()) {
            for (int i = 0; i < imsis.size(); i++) {
                exchange(sgsn2, GtpMessages.v1CreateRequest(imsis.get(i), 0xBE00 + i, 6), "gtp-c");
            }
        }
        for (String imsi : imsis) {
            int holder = holder("ggsn", imsi);
            assertThat(holder).as("IMSI %s still on one real", imsi).isGreaterThanOrEqualTo(0);
            assertThat(farms.get("ggsn").get(holder).imsis()).filteredOn(imsi::equals).hasSize(2);
        }
    }

    @Test
    void v2CreateSessionIsStickyByImsiAndGetsItsTwentyFourBitSequenceBack() throws Exception {
        String imsi = "262010000000777";
        try (DatagramSocket mme = client()) {
            byte[] first = exchange(mme, GtpMessages.v2CreateRequest(imsi, 0xABCDEF), "gtp-c");
            assertThat(first[0] & 0xE0).as("GTPv2").isEqualTo(0x40);
            assertThat(first[1]).as("Create Session Response").isEqualTo((byte) 33);
            assertThat(v2Sequence(first)).isEqualTo(0xABCDEF);
            int holder = holder("ggsn", imsi);
            assertThat(holder).isGreaterThanOrEqualTo(0);
            GtpResponder real = farms.get("ggsn").get(holder);
            assertThat(real.received).filteredOn(rx -> imsi.equals(rx.imsi()))
                    .allSatisfy(rx -> assertThat(rx.sequence()).isNotEqualTo(0xABCDEF));

            byte[] second = exchange(mme, GtpMessages.v2CreateRequest(imsi, 0x000102), "gtp-c");
            assertThat(v2Sequence(second)).isEqualTo(0x000102);
            assertThat(holder("ggsn", imsi)).as("the second create on the same real").isEqualTo(holder);
            assertThat(real.imsis()).filteredOn(imsi::equals).hasSize(2);
        }
    }

    @Test
    void echoAndVersionNotSupportedAreAnsweredByTheDirectorItself() throws Exception {
        double localBefore = metrics("gtp-c").answeredLocallyCount();
        int receivedBefore = farms.get("ggsn").stream().mapToInt(r -> r.received.size()).sum();
        try (DatagramSocket peer = client()) {
            // TS 29.060 §7.2.2: TEID 0, the request's sequence, Recovery (14) with the director's counter.
            assertThat(HexFormat.of().formatHex(exchange(peer, GtpMessages.v1EchoRequest(0x1234), "gtp-c")))
                    .isEqualTo("32020006000000001234000" + "00e09");
            // TS 29.274 §7.1.2: no TEID, the request's sequence, Recovery (type 3, length 1).
            assertThat(HexFormat.of().formatHex(exchange(peer, GtpMessages.v2EchoRequest(0x010203), "gtp-c")))
                    .isEqualTo("400200090102030003000100" + "09");
            // A GTPv0 message on the v1/v2 server: Version Not Supported in the highest version served (2).
            byte[] v0 = GtpMessages.v0CreateRequest("262420000000001", 5, 0x0777, GtpV0TidOrder.GSM_09_60);
            assertThat(HexFormat.of().formatHex(exchange(peer, v0, "gtp-c"))).isEqualTo("4003000400077700");
            // GSM 09.60 §7.4.2 on the v0 server: the request's header, type 2, Recovery.
            byte[] v0Echo = exchange(peer, GtpMessages.v0EchoRequest(0x0042), "gtp-v0");
            assertThat(HexFormat.of().formatHex(v0Echo))
                    .isEqualTo("1e0200020042" + "0000ff" + "ffffff" + "0000000000000000" + "0e09");
            // A GTPv1 message on the v0 server: a GTPv0 Version Not Supported.
            assertThat(HexFormat.of().formatHex(exchange(peer, GtpMessages.v1EchoRequest(0x0203), "gtp-v0")))
                    .isEqualTo("1e0300000203" + "0000ff" + "ffffff" + "0000000000000000");
        }
        assertThat(metrics("gtp-c").answeredLocallyCount() - localBefore).isEqualTo(3);
        assertThat(farms.get("ggsn").stream().mapToInt(r -> r.received.size()).sum()).isEqualTo(receivedBefore);
    }

    @Test
    void malformedAndUnexpectedMessagesAreCountedAndDroppedWhileTrafficContinues() throws Exception {
        VirtualServerMetrics m = metrics("gtp-c");
        byte[] create = GtpMessages.v1CreateRequest("262420000000201", 0x0101, 5);
        byte[] withoutImsi = GtpMessages.v1(16, 0x2005, 0x0102,
                Arrays.copyOfRange(create, 12 + 9, create.length)); // the same IEs after the IMSI
        byte[] withoutSequence = create.clone();
        withoutSequence[0] = 0x30; // S flag clear (the octets 9-12 are then read as IEs: also malformed)
        Map<String, byte[]> bad = new LinkedHashMap<>();
        bad.put("truncated", Arrays.copyOf(create, 6));
        bad.put("gtp-response-to-vip", GtpMessages.v1CreateResponse(0x0103, 128, 0x2000, 0x7000, new byte[] {1, 2, 3, 4}));
        bad.put("gtp-not-create", GtpMessages.v1UpdateRequest(0x7000, 0x0104));
        bad.put("gtp-no-imsi", withoutImsi);
        bad.put("gtp-carrier-code", GtpMessages.v1CreateRequest("310260000000001", 0x0105, 5));
        bad.put("malformed", new byte[] {0x32, 16, 0, 5, 0, 0, 0, 0, 0, 1, 0, 0, 99}); // IE 99: TV of unknown length
        try (DatagramSocket sgsn = client()) {
            for (var e : bad.entrySet()) {
                double before = m.droppedCount(DropReason.of(e.getKey()));
                sgsn.send(new DatagramPacket(e.getValue(), e.getValue().length, vip("gtp-c")));
                await(e.getKey()).atMost(ANSWER).until(() -> m.droppedCount(DropReason.of(e.getKey())) == before + 1);
            }
            double before = sumDropped(m);
            sgsn.send(new DatagramPacket(withoutSequence, withoutSequence.length, vip("gtp-c")));
            await().atMost(ANSWER).until(() -> sumDropped(m) == before + 1);

            byte[] answer = exchange(sgsn, create, "gtp-c");
            assertThat(v1Sequence(answer)).isEqualTo(0x0101);
        }
    }

    private static double sumDropped(VirtualServerMetrics m) {
        return registry.find("switchboard.dropped").tag("vserver", "gtp-c").counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    @Test
    void v0CreatesAreKeyedByTheTidImsiInEitherByteOrder() throws Exception {
        String imsi = "262420000000305";
        for (String server : List.of("gtp-v0", "gtp-v0-libgtp")) {
            GtpV0TidOrder order = server.equals("gtp-v0") ? GtpV0TidOrder.GSM_09_60 : GtpV0TidOrder.LIBGTP_REVERSED;
            String farm = server.equals("gtp-v0") ? "ggsn-v0" : "ggsn-libgtp";
            try (DatagramSocket sgsn = client()) {
                byte[] first = exchange(sgsn, GtpMessages.v0CreateRequest(imsi, 5, 0x3001, order), server);
                assertThat(first[1]).isEqualTo((byte) 17);
                assertThat(ByteBuffer.wrap(first).getShort(4) & 0xFFFF).isEqualTo(0x3001);
                assertThat(ByteBuffer.wrap(first).getLong(12)).as("the TID comes back as sent")
                        .isEqualTo(GtpV0Tid.of(imsi, 5, order));
                exchange(sgsn, GtpMessages.v0CreateRequest(imsi, 6, 0x3002, order), server);
            }
            assertThat(binding(server, imsi)).as("%s keyed by IMSI %s", server, imsi).isNotNull();
            int holder = holder(farm, imsi);
            assertThat(holder).as("both NSAPIs of %s on one real", imsi).isGreaterThanOrEqualTo(0);
            assertThat(farms.get(farm).get(holder).imsis()).filteredOn(imsi::equals).hasSize(2);
        }
    }

    private static double unmatched(String server, String reason) {
        var counter = registry.find("switchboard.responses.unmatched").tag("vserver", server).tag("reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void unexpectedDatagramsFromRealsAreCountedAndDroppedWhileTrafficContinues() throws Exception {
        List<GtpResponder> reals = farms.get("ggsn");
        double late = unmatched("gtp-c", "late");
        double malformed = unmatched("gtp-c", "malformed");
        double relayed = metrics("gtp-c").relayedCount();
        try (DatagramSocket sgsn = client()) {
            reals.forEach(r -> {
                r.answerTwice = true;
                r.junkBeforeAnswer = new byte[] {0x32, 0x11, 0, 40}; // a truncated GTPv1 header
            });
            try {
                for (int i = 0; i < 2; i++) {
                    byte[] answer = exchange(sgsn, GtpMessages.v1CreateRequest("26242000000070" + i, 0x0700 + i, 5), "gtp-c");
                    assertThat(v1Sequence(answer)).isEqualTo(0x0700 + i);
                }
                // The duplicate answers (no pending request any more) and the junk are counted, not relayed.
                await().atMost(ANSWER).until(() -> unmatched("gtp-c", "late") == late + 2
                        && unmatched("gtp-c", "malformed") == malformed + 2);
                assertThat(metrics("gtp-c").relayedCount()).isEqualTo(relayed + 2);
            } finally {
                reals.forEach(r -> {
                    r.answerTwice = false;
                    r.junkBeforeAnswer = null;
                });
            }
            byte[] answer = exchange(sgsn, GtpMessages.v1CreateRequest("262420000000799", 0x0799, 5), "gtp-c");
            assertThat(v1Sequence(answer)).isEqualTo(0x0799);
        }
    }
}
