package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyBinding;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code service: gtp-inspect} with GGSN/PGW stand-ins: a real answering a resource cause (v1 199,
 * v2 73) is failed and the create is resent to the other real, the requester seeing exactly one,
 * accepted, answer; accepted Create responses carry the virtual address and a director TEID, and
 * the Delete sent there reaches the real holding the session with the real's own TEID.
 */
class GtpInspectIT {

    private static final Duration ANSWER = Duration.ofSeconds(5);
    private static final Map<String, List<GtpResponder>> farms = new LinkedHashMap<>();
    private static GtpTestBed bed;
    private static Director director;
    private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() throws Exception {
        for (String farm : List.of("refusing-v1", "refusing-v2", "refusing-v0", "sessions")) {
            farms.put(farm, List.of(new GtpResponder(), new GtpResponder()));
        }
        farms.get("refusing-v1").get(0).cause = 199;   // TS 29.060: no resources available
        farms.get("refusing-v2").get(0).v2Cause = 73;  // TS 29.274: no resources available
        farms.get("refusing-v0").get(0).cause = 211;   // GSM 09.60: all dynamic PDP addresses occupied
        Map<String, FarmConfig> farmConfigs = new LinkedHashMap<>();
        Map<String, VirtualServerConfig> servers = new LinkedHashMap<>();
        InetSocketAddress loopback = new InetSocketAddress("127.0.0.1", 0);
        for (var e : farms.entrySet()) {
            farmConfigs.put(e.getKey(), GtpTestBed.farm(e.getKey(), PredictorKind.ROUNDROBIN, Duration.ofMinutes(10),
                    e.getValue()));
            servers.put(e.getKey(), GtpTestBed.server(e.getKey(), loopback, "gtp-inspect", e.getKey(),
                    e.getKey().endsWith("v0")
                            ? new GtpOptions(Set.of(0), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1, Set.of(), List.of(),
                                    io.switchboard.codec.gtp.v0.GtpV0TidOrder.GSM_09_60, 0)
                            : GtpOptions.DEFAULT));
        }
        bed = GtpTestBed.start(farms, farmConfigs, servers, new GtpInspectService(), registry);
        director = bed.director;
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

    private static DatagramSocket client() throws IOException {
        DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        socket.setSoTimeout((int) ANSWER.toMillis());
        return socket;
    }

    private static byte[] receive(DatagramSocket client, Duration within) throws IOException {
        client.setSoTimeout((int) within.toMillis());
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            client.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    private static byte[] exchange(DatagramSocket client, byte[] request, String server) throws IOException {
        client.send(new DatagramPacket(request, request.length, vip(server)));
        byte[] answer = receive(client, ANSWER);
        assertThat(answer).as("answer from %s", server).isNotNull();
        return answer;
    }

    private static RealServer real(String farm, int index) {
        return director.farms().farm(farm).reals().get(index);
    }

    private static StickyBinding binding(String server, String imsi) {
        return director.virtualServers().get(server).selector().sticky().lookup(
                io.switchboard.director.sticky.StickyKey.of(GtpModule.IMSI, imsi.getBytes(StandardCharsets.US_ASCII)),
                System.nanoTime());
    }

    /** Creates IMSIs until the refusing real (the first) has been tried; each requester sees one accepted answer. */
    private void refusedCreateIsResentElsewhere(String farm, int version) throws Exception {
        GtpResponder refusing = farms.get(farm).get(0);
        GtpResponder accepting = farms.get(farm).get(1);
        VirtualServerMetrics metrics = director.virtualServers().get(farm).metrics();
        String refusedImsi = null;
        try (DatagramSocket requester = client()) {
            for (int i = 0; i < 4 && refusedImsi == null; i++) {
                String imsi = "26242000000" + version + "00" + i;
                byte[] request = version == 1 ? GtpMessages.v1CreateRequest(imsi, 0x4000 + i, 5)
                        : version == 2 ? GtpMessages.v2CreateRequest(imsi, 0x40000 + i)
                        : GtpMessages.v0CreateRequest(imsi, 5, 0x4000 + i, io.switchboard.codec.gtp.v0.GtpV0TidOrder.GSM_09_60);
                byte[] answer = exchange(requester, request, farm);
                if (version == 0) {
                    assertThat(answer[21] & 0xff).as("v0 cause").isEqualTo(128);
                    assertThat(ByteBuffer.wrap(answer).getShort(4) & 0xffff).isEqualTo(0x4000 + i);
                } else if (version == 1) {
                    assertThat(answer[13] & 0xff).as("v1 cause").isEqualTo(128);
                    assertThat(ByteBuffer.wrap(answer).getShort(8) & 0xffff).isEqualTo(0x4000 + i);
                } else {
                    assertThat(answer[16] & 0xff).as("v2 cause").isEqualTo(16);
                    assertThat(ByteBuffer.wrap(answer).getInt(8) >>> 8).isEqualTo(0x40000 + i);
                }
                if (refusing.imsis().contains(imsi)) {
                    refusedImsi = imsi;
                }
            }
            // Exactly one answer: the refusal was dropped, not relayed as well.
            assertThat(receive(requester, Duration.ofMillis(500))).isNull();
        }
        assertThat(refusedImsi).as("the refusing real was tried").isNotNull();
        assertThat(accepting.imsis()).contains(refusedImsi);
        assertThat(real(farm, 0).state()).isEqualTo(RealState.FAILED);
        assertThat(real(farm, 1).state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(metrics.reassignedCount()).isEqualTo(1);
        assertThat(binding(farm, refusedImsi).real()).as("the IMSI is now stuck to the real that accepted it")
                .isEqualTo(real(farm, 1).id());
        if (version != 0) {
            // The resent create carried the director endpoint already: the same TEID-C went to both reals,
            // and the session still knows the requester's own TEID and address, not the director's.
            String imsi = refusedImsi;
            byte[] refused = refusing.received.stream().filter(rx -> imsi.equals(rx.imsi())).findFirst().orElseThrow()
                    .bytes();
            byte[] accepted = accepting.received.stream().filter(rx -> imsi.equals(rx.imsi())).findFirst()
                    .orElseThrow().bytes();
            assertThat(senderControlPlane(accepted)).isEqualTo(senderControlPlane(refused));
            assertThat(senderControlPlane(accepted).address()).isEqualTo(vip(farm).getAddress());
            GtpSession session = ((GtpInspectPlugin) director.virtualServers().get(farm).plugin()).sessionTable()
                    .values().stream().filter(s -> imsi.equals(s.imsi())).findFirst().orElseThrow();
            assertThat(session.requesterTeid()).isEqualTo(version == 1 ? 0x2005 : 0x3000);
            assertThat(session.requester()).isEqualTo(new InetSocketAddress("127.0.0.20", 2123));
            assertThat(session.real()).isSameAs(real(farm, 1));
        }
    }

    private static io.switchboard.codec.gtp.GtpControlEndpoint senderControlPlane(byte[] message) throws Exception {
        var buf = io.netty.buffer.Unpooled.wrappedBuffer(message);
        try {
            return new io.switchboard.codec.gtp.GtpMessageView().wrap(buf).senderControlPlane();
        } finally {
            buf.release();
        }
    }

    @Test
    void aV1CreateRefusedWithCause199IsResentToTheOtherReal() throws Exception {
        refusedCreateIsResentElsewhere("refusing-v1", 1);
    }

    @Test
    void aV2CreateRefusedWithCause73IsResentToTheOtherReal() throws Exception {
        refusedCreateIsResentElsewhere("refusing-v2", 2);
    }

    @Test
    void aV0CreateRefusedWithCause211IsResentToTheOtherReal() throws Exception {
        refusedCreateIsResentElsewhere("refusing-v0", 0);
    }

    @Test
    void createAnswersPointAtTheVirtualAddressAndDeletesFollowTheirSession() throws Exception {
        VirtualServerMetrics metrics = director.virtualServers().get("sessions").metrics();
        byte[] vipAddress = vip("sessions").getAddress().getAddress();
        try (DatagramSocket sgsn = client()) {
            // GTPv1: TEID Control Plane (IE 17) right after the cause, then the GSN Address (IE 133).
            byte[] created = exchange(sgsn, GtpMessages.v1CreateRequest("262420000000900", 0x0900, 5), "sessions");
            long teid = ByteBuffer.wrap(created).getInt(15) & 0xFFFFFFFFL;
            assertThat(Arrays.copyOfRange(created, 22, 26)).as("GSN Address for signalling: the VIP").isEqualTo(vipAddress);
            GtpResponder holder = farms.get("sessions").stream().filter(r -> r.imsis().contains("262420000000900"))
                    .findFirst().orElseThrow();
            assertThat(binding("sessions", "262420000000900")).isNotNull();
            assertThat(teid).as("a director TEID, not the real's").isNotEqualTo(holder.teid());

            // An Update: routed to the holder with the real's TEID; its answer names a new TEID-C, which the
            // director learns while the SGSN keeps seeing the director's TEID and the VIP.
            byte[] updated = exchange(sgsn, GtpMessages.v1UpdateRequest(teid, 0x08FF), "sessions");
            assertThat(updated[1]).isEqualTo((byte) 19);
            assertThat(ByteBuffer.wrap(updated).getInt(15) & 0xFFFFFFFFL).isEqualTo(teid);
            assertThat(Arrays.copyOfRange(updated, 22, 26)).isEqualTo(vipAddress);
            assertThat(holder.received.stream().filter(rx -> rx.type() == 18).toList()).last()
                    .satisfies(rx -> assertThat(rx.teid()).isEqualTo(holder.teid()));

            long deletesBefore = holder.received.stream().filter(rx -> rx.type() == 20).count();
            byte[] deleted = exchange(sgsn, GtpMessages.v1(20, teid, 0x0901, new byte[] {20, 5}), "sessions");
            assertThat(deleted[1]).isEqualTo((byte) 21);
            assertThat(ByteBuffer.wrap(deleted).getShort(8) & 0xffff).isEqualTo(0x0901);
            assertThat(binding("sessions", "262420000000900")).as("the IMSI's last session ended its binding").isNull();
            assertThat(holder.received.stream().filter(rx -> rx.type() == 20).toList()).hasSize((int) deletesBefore + 1)
                    .last().satisfies(rx -> assertThat(rx.teid()).as("the real's new TEID from its Update answer")
                            .isEqualTo(holder.teid() + 1));

            // The session is gone: a second Delete names no session.
            double before = metrics.droppedCount(GtpInspectPlugin.UNKNOWN_SESSION);
            byte[] again = GtpMessages.v1(20, teid, 0x0902, new byte[] {20, 5});
            sgsn.send(new DatagramPacket(again, again.length, vip("sessions")));
            await().atMost(ANSWER).until(() -> metrics.droppedCount(GtpInspectPlugin.UNKNOWN_SESSION) == before + 1);

            // GTPv2: the sender F-TEID of the Create Session Response (after the cause IE).
            byte[] session = exchange(sgsn, GtpMessages.v2CreateRequest("262420000000901", 0x0903), "sessions");
            long teid2 = ByteBuffer.wrap(session).getInt(23) & 0xFFFFFFFFL;
            assertThat(Arrays.copyOfRange(session, 27, 31)).as("sender F-TEID IPv4: the VIP").isEqualTo(vipAddress);
            GtpResponder holder2 = farms.get("sessions").stream().filter(r -> r.imsis().contains("262420000000901"))
                    .findFirst().orElseThrow();
            long deletes2Before = holder2.received.stream().filter(rx -> rx.type() == 36).count();
            byte[] deleted2 = exchange(sgsn, GtpMessages.v2(36, teid2, 0x0904, new byte[0]), "sessions");
            assertThat(deleted2[1]).isEqualTo((byte) 37);
            assertThat(holder2.received.stream().filter(rx -> rx.type() == 36).toList()).hasSize((int) deletes2Before + 1)
                    .last().satisfies(rx -> assertThat(rx.teid()).isEqualTo(holder2.teid()));
        }
        GtpInspectPlugin plugin = (GtpInspectPlugin) director.virtualServers().get("sessions").plugin();
        assertThat(plugin.sessionTable()).isEmpty();
    }

    /** Every rewritten packet decodes in tshark with the values the director meant to write. */
    @Test
    void rewrittenPacketsDecodeInTsharkWithTheExpectedFields(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Tshark.available(), "tshark is not installed");
        String vipText = vip("sessions").getAddress().getHostAddress();
        List<byte[]> packets = new ArrayList<>();
        long teid;
        long teid2;
        GtpResponder holder;
        GtpResponder holder2;
        try (DatagramSocket sgsn = client()) {
            byte[] created = exchange(sgsn, GtpMessages.v1CreateRequest("262420000000950", 0x0950, 5), "sessions");
            teid = ByteBuffer.wrap(created).getInt(15) & 0xFFFFFFFFL;
            holder = farms.get("sessions").stream().filter(r -> r.imsis().contains("262420000000950")).findFirst()
                    .orElseThrow();
            exchange(sgsn, GtpMessages.v1(20, teid, 0x0951, new byte[] {20, 5}), "sessions");
            byte[] session = exchange(sgsn, GtpMessages.v2CreateRequest("262420000000951", 0x0952), "sessions");
            teid2 = ByteBuffer.wrap(session).getInt(23) & 0xFFFFFFFFL;
            holder2 = farms.get("sessions").stream().filter(r -> r.imsis().contains("262420000000951")).findFirst()
                    .orElseThrow();
            exchange(sgsn, GtpMessages.v2(36, teid2, 0x0953, new byte[0]), "sessions");
            packets.add(holder.received.stream().filter(rx -> "262420000000950".equals(rx.imsi())).findFirst()
                    .orElseThrow().bytes());                                   // 1: v1 create as the real got it
            packets.add(created);                                              // 2: v1 create response as relayed
            packets.add(holder.received.stream().filter(rx -> rx.type() == 20 && rx.teid() == holder.teid())
                    .reduce((a, b) -> b).orElseThrow().bytes());                // 3: v1 delete as the real got it
            packets.add(holder2.received.stream().filter(rx -> "262420000000951".equals(rx.imsi())).findFirst()
                    .orElseThrow().bytes());                                   // 4: v2 create as the real got it
            packets.add(session);                                              // 5: v2 create response as relayed
            packets.add(holder2.received.stream().filter(rx -> rx.type() == 36 && rx.teid() == holder2.teid())
                    .reduce((a, b) -> b).orElseThrow().bytes());                // 6: v2 delete as the real got it
        }
        java.nio.file.Path pcap = dir.resolve("rewritten.pcap");
        Tshark.writePcap(pcap, packets);
        List<String> lines = Tshark.fields(pcap, "gtp.message", "gtp.seq_number", "gtp.teid", "gtp.teid_cp",
                "gtp.gsn_ipv4", "gtp.cause", "gtpv2.message_type", "gtpv2.seq", "gtpv2.teid", "gtpv2.f_teid_gre_key",
                "gtpv2.f_teid_ipv4", "gtpv2.cause");
        assertThat(lines).hasSize(6);
        String[] v1Create = lines.get(0).split("\\|", -1);
        assertThat(v1Create[0]).isEqualTo("0x10");
        assertThat(Integer.decode(v1Create[1])).as("the director's sequence toward the real").isNotEqualTo(0x0950);
        String[] v1Answer = lines.get(1).split("\\|", -1);
        assertThat(v1Answer[0]).isEqualTo("0x11");
        assertThat(Integer.decode(v1Answer[1])).as("the SGSN's sequence restored").isEqualTo(0x0950);
        assertThat(Long.decode(v1Answer[3])).as("TEID-C: the director's").isEqualTo(teid);
        assertThat(v1Answer[4]).as("GSN Address for signalling: the VIP").isEqualTo(vipText);
        assertThat(v1Answer[5]).isEqualTo("128");
        String[] v1Delete = lines.get(2).split("\\|", -1);
        assertThat(v1Delete[0]).isEqualTo("0x14");
        assertThat(Long.decode(v1Delete[2])).as("header TEID: the real's own").isEqualTo(holder.teid());
        String[] v2Create = lines.get(3).split("\\|", -1);
        assertThat(v2Create[6]).isEqualTo("32");
        assertThat(Integer.decode(v2Create[7])).isNotEqualTo(0x0952);
        String[] v2Answer = lines.get(4).split("\\|", -1);
        assertThat(v2Answer[6]).isEqualTo("33");
        assertThat(Integer.decode(v2Answer[7])).isEqualTo(0x0952);
        assertThat(Long.decode(v2Answer[9])).as("sender F-TEID: the director's TEID").isEqualTo(teid2);
        assertThat(v2Answer[10]).as("sender F-TEID IPv4: the VIP").isEqualTo(vipText);
        assertThat(v2Answer[11]).isEqualTo("16");
        String[] v2Delete = lines.get(5).split("\\|", -1);
        assertThat(v2Delete[6]).isEqualTo("36");
        assertThat(Long.decode(v2Delete[8])).as("header TEID: the real's own").isEqualTo(holder2.teid());
    }

    @Test
    void aDeleteTheRealNoLongerKnowsEndsTheSessionToo() throws Exception {
        GtpInspectPlugin plugin = (GtpInspectPlugin) director.virtualServers().get("sessions").plugin();
        try (DatagramSocket sgsn = client()) {
            byte[] created = exchange(sgsn, GtpMessages.v1CreateRequest("262420000000970", 0x0970, 5), "sessions");
            long teid = ByteBuffer.wrap(created).getInt(15) & 0xFFFFFFFFL;
            assertThat(plugin.sessionTable()).containsKey(teid);
            GtpResponder holder = farms.get("sessions").stream().filter(r -> r.imsis().contains("262420000000970"))
                    .findFirst().orElseThrow();
            holder.deleteCause = 192; // TS 29.060: non-existent
            try {
                byte[] deleted = exchange(sgsn, GtpMessages.v1(20, teid, 0x0971, new byte[] {20, 5}), "sessions");
                assertThat(deleted[13] & 0xff).as("the real's cause, relayed unchanged").isEqualTo(192);
            } finally {
                holder.deleteCause = 128;
            }
            assertThat(plugin.sessionTable()).doesNotContainKey(teid);
        }
    }
}
