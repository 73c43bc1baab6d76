package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Director;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gtp-inspect} as a full signalling proxy, with GGSN/PGW stand-ins ({@link GtpResponder}) and
 * an SGSN/MME played by the test on its own address and the GTP-C port: Create requests carry the
 * director's address and TEID to the real, so the real's own requests (GGSN Update / Delete PDP
 * Context, PGW Update / Delete Bearer) come to the virtual address, reach the requester under its own
 * TEID and a director sequence number, and their answers go back to the real with the real's TEID and
 * sequence. Also: sessions counted per real ({@code leastconns} by open sessions), idle expiry, the
 * purge of a restarted real's sessions, GTPv0 sessions by TID, IPv6 and dual-stack rewriting.
 * Addresses: 127.0.1.2-5, 127.0.1.10-12, 127.0.1.20-21 and ::1.
 */
class GtpProxyIT {

    private static final Duration ANSWER = Duration.ofSeconds(5);
    private static final InetSocketAddress PROXY_VIP = new InetSocketAddress("127.0.1.10", 2123);
    private static final byte[] SGSN_ADDRESS = {127, 0, 1, 20};
    private static final byte[] NEW_MME_ADDRESS = {127, 0, 1, 21};
    /** An IPv6 requester address (documentation prefix): only written, never sent to. */
    private static final byte[] SGSN_IPV6 = InetAddresses.v6("2001:db8::20");

    private static final Map<String, List<GtpResponder>> farms = new LinkedHashMap<>();
    private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private static GtpTestBed bed;
    private static Director director;
    private static DatagramSocket sgsn;
    private static DatagramSocket newMme;

    /** Tiny helper: literal addresses to bytes. */
    private static final class InetAddresses {
        static byte[] v6(String literal) {
            try {
                return InetAddress.getByName(literal).getAddress();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @BeforeAll
    static void start() throws Exception {
        farms.put("proxy", List.of(new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.2"),
                new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.3")));
        farms.put("least", List.of(new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.4"),
                new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.5")));
        farms.put("ims", List.of(new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.6"),
                new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.7")));
        farms.get("ims").get(0).v2Cause = 73; // TS 29.274: no resources available
        farms.put("full", List.of(new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.8"),
                new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.9")));
        farms.put("v0", List.of(new GtpResponder(GtpV0TidOrder.GSM_09_60, "127.0.1.4")));
        farms.put("v6", List.of(new GtpResponder(GtpV0TidOrder.GSM_09_60, "::1")));
        Map<String, FarmConfig> farmConfigs = new LinkedHashMap<>();
        farms.forEach((name, responders) -> farmConfigs.put(name, GtpTestBed.farm(name,
                name.equals("least") ? PredictorKind.LEASTCONNS : PredictorKind.ROUNDROBIN, Duration.ofMinutes(10),
                responders)));
        Map<String, VirtualServerConfig> servers = new LinkedHashMap<>();
        // Carrier codes, and an APN map: IMS creates go to the farm "ims" (the map for the own farm is
        // tried after it, so "ims*" wins for ims.* names).
        GtpOptions carrier = new GtpOptions(Set.of(1, 2), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1,
                GtpOptions.DEFAULT_RESOURCE_CAUSES_V2, List.of("26242"), GtpV0TidOrder.GSM_09_60, 0, Optional.empty(),
                true, GtpOptions.DEFAULT_SESSION_IDLE, List.of(), List.of(new GtpOptions.ApnMap("*", "proxy", 20),
                        new GtpOptions.ApnMap("IMS*", "ims", 10)));
        servers.put("proxy", server("proxy", PROXY_VIP, carrier));
        servers.put("least", server("least", new InetSocketAddress("127.0.1.11", 0), GtpOptions.DEFAULT));
        servers.put("full", server("full", new InetSocketAddress("127.0.1.14", 0), GtpOptions.DEFAULT));
        servers.put("v0", server("v0", new InetSocketAddress("127.0.1.12", 3386), new GtpOptions(Set.of(0), 2,
                GtpOptions.DEFAULT_RESOURCE_CAUSES_V1, Set.of(), List.of(), GtpV0TidOrder.GSM_09_60, 0)));
        servers.put("v6", server("v6", new InetSocketAddress("::1", 0), new GtpOptions(Set.of(1, 2), 2,
                GtpOptions.DEFAULT_RESOURCE_CAUSES_V1, GtpOptions.DEFAULT_RESOURCE_CAUSES_V2, List.of(),
                GtpV0TidOrder.GSM_09_60, 0, Optional.empty(), true, GtpOptions.DEFAULT_SESSION_IDLE,
                List.of(InetAddress.getByName("::1"), InetAddress.getByName("127.0.1.12")))));
        bed = GtpTestBed.start(farms, farmConfigs, servers, new GtpInspectService(), registry);
        director = bed.director;
        sgsn = new DatagramSocket(new InetSocketAddress("127.0.1.20", 2123));
        newMme = new DatagramSocket(new InetSocketAddress("127.0.1.21", 2123));
    }

    private static VirtualServerConfig server(String name, InetSocketAddress listen, GtpOptions options) {
        return GtpTestBed.server(name, listen, "gtp-inspect", name, options);
    }

    @AfterAll
    static void stop() throws Exception {
        for (DatagramSocket s : new DatagramSocket[] {sgsn, newMme}) {
            if (s != null) {
                s.close();
            }
        }
        if (bed != null) {
            bed.close();
        }
    }

    private static InetSocketAddress vip(String server) {
        return director.localAddress(server);
    }

    private static GtpInspectPlugin plugin(String server) {
        return (GtpInspectPlugin) director.virtualServers().get(server).plugin();
    }

    private static RealServer real(String farm, GtpResponder responder) {
        return director.farms().farm(farm).reals().stream()
                .filter(r -> r.address().getPort() == responder.port()).findFirst().orElseThrow();
    }

    /** A datagram and where it came from. */
    private record Datagram(byte[] bytes, InetSocketAddress from) {
        int type() {
            return bytes[1] & 0xff;
        }

        long teid() {
            return ByteBuffer.wrap(bytes).getInt(4) & 0xFFFFFFFFL;
        }

        /** The sequence number: v1 16 bits at 8, v2 24 bits at 8 (with a TEID). */
        int sequence() {
            return (bytes[0] & 0xe0) == 0x40 ? ByteBuffer.wrap(bytes).getInt(8) >>> 8
                    : ByteBuffer.wrap(bytes).getShort(8) & 0xffff;
        }
    }

    private static Datagram receive(DatagramSocket socket) throws IOException {
        socket.setSoTimeout((int) ANSWER.toMillis());
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            socket.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return new Datagram(Arrays.copyOf(in.getData(), in.getLength()), (InetSocketAddress) in.getSocketAddress());
    }

    private static Datagram exchange(DatagramSocket from, byte[] request, InetSocketAddress to) throws IOException {
        from.send(new DatagramPacket(request, request.length, to));
        Datagram answer = receive(from);
        assertThat(answer).as("answer from %s", to).isNotNull();
        return answer;
    }

    private static void send(DatagramSocket from, byte[] datagram, InetSocketAddress to) throws IOException {
        from.send(new DatagramPacket(datagram, datagram.length, to));
    }

    /** The responder of {@code farm} that received a create for {@code imsi}, and that create. */
    private static GtpResponder holder(String farm, String imsi) {
        return farms.get(farm).stream().filter(r -> r.imsis().contains(imsi)).findFirst().orElseThrow();
    }

    private static GtpResponder.Received awaitReceived(GtpResponder real, Predicate<GtpResponder.Received> what) {
        return await().atMost(ANSWER).until(() -> real.received.stream().filter(what).reduce((a, b) -> b),
                Optional::isPresent).orElseThrow();
    }


    private static StickyBinding binding(String server, String imsi) {
        return director.virtualServers().get(server).selector().sticky().lookup(
                StickyKey.of(GtpModule.IMSI, imsi.getBytes(StandardCharsets.US_ASCII)), System.nanoTime());
    }

    private static double counter(String name, String... tags) {
        Counter c = registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    private static String[] fields(String line) {
        return line.split("\\|", -1);
    }

    @Test
    void v1GgsnInitiatedUpdateAndDeleteReachTheSgsnAndTheirAnswersTheGgsn(@TempDir Path dir) throws Exception {
        String imsi = "262420000001001";
        Datagram created = exchange(sgsn, GtpMessages.v1CreateRequest(imsi, 0x0100, 5, SGSN_ADDRESS), PROXY_VIP);
        assertThat(created.type()).isEqualTo(17);
        assertThat(created.teid()).as("the SGSN's own TEID-C in the answer's header").isEqualTo(0x2005);
        long directorTeid = ByteBuffer.wrap(created.bytes()).getInt(15) & 0xFFFFFFFFL;
        GtpResponder ggsn = holder("proxy", imsi);
        RealServer real = real("proxy", ggsn);
        byte[] createAtGgsn = ggsn.received.stream().filter(rx -> imsi.equals(rx.imsi())).findFirst().orElseThrow()
                .bytes();
        long realFacingTeid = GtpMessages.senderTeid(createAtGgsn);
        assertThat(realFacingTeid).isNotIn(0L, 0x2005L, directorTeid);
        assertThat(plugin("proxy").openSessions(real)).isEqualTo(1);
        assertThat(real.connections()).as("the open session counts as a connection").isEqualTo(1);

        // GGSN-initiated Update PDP Context (TS 29.060 §7.3.3), sent twice (a retransmission).
        byte[] update = GtpMessages.v1(18, realFacingTeid, 0x7001, new byte[] {20, 5});
        double retransmittedBefore = counter("switchboard.real.requests.retransmitted", "vserver", "proxy");
        ggsn.send(update, PROXY_VIP);
        Datagram updateAtSgsn = receive(sgsn);
        ggsn.send(update, PROXY_VIP);
        Datagram updateAgain = receive(sgsn);
        assertThat(updateAtSgsn).isNotNull();
        assertThat(updateAtSgsn.from()).as("from the virtual address").isEqualTo(PROXY_VIP);
        assertThat(updateAtSgsn.teid()).as("the SGSN's own TEID").isEqualTo(0x2005);
        assertThat(updateAgain).isNotNull();
        assertThat(updateAgain.sequence()).as("the retransmission keeps the director sequence")
                .isEqualTo(updateAtSgsn.sequence());
        assertThat(counter("switchboard.real.requests.retransmitted", "vserver", "proxy")).isEqualTo(retransmittedBefore + 1);
        send(sgsn, GtpMessages.v1(19, directorTeid, updateAtSgsn.sequence(), new byte[] {1, (byte) 128}), PROXY_VIP);
        GtpResponder.Received updateAnswer = awaitReceived(ggsn, rx -> rx.type() == 19);
        assertThat(updateAnswer.teid()).as("the GGSN's own TEID").isEqualTo(ggsn.teid());
        assertThat(updateAnswer.sequence()).as("the GGSN's own sequence").isEqualTo(0x7001);
        assertThat(updateAnswer.from()).isEqualTo(PROXY_VIP);

        // The SGSN's own Update names its address (mandatory, TS 29.060 §7.3.3) but no TEID-C: the GGSN gets
        // the director's address, so the director stays its SGSN; the answer's new TEID-C is learnt.
        byte[] sgsnUpdate = ByteBuffer.allocate(16).put(new byte[] {20, 5, (byte) 133, 0, 4}).put(SGSN_ADDRESS)
                .put(new byte[] {(byte) 133, 0, 4}).put(SGSN_ADDRESS).array();
        Datagram updated = exchange(sgsn, GtpMessages.v1(18, directorTeid, 0x0101, sgsnUpdate), PROXY_VIP);
        assertThat(updated.type()).isEqualTo(19);
        assertThat(updated.teid()).isEqualTo(0x2005);
        byte[] updateAtGgsn = awaitReceived(ggsn, rx -> rx.type() == 18).bytes();

        // GGSN-initiated Delete PDP Context: the accepted answer ends the session and the binding.
        ggsn.send(GtpMessages.v1(20, realFacingTeid, 0x7002, new byte[] {20, 5}), PROXY_VIP);
        Datagram deleteAtSgsn = receive(sgsn);
        assertThat(deleteAtSgsn).isNotNull();
        assertThat(deleteAtSgsn.type()).isEqualTo(20);
        send(sgsn, GtpMessages.v1(21, directorTeid, deleteAtSgsn.sequence(), new byte[] {1, (byte) 128}), PROXY_VIP);
        GtpResponder.Received deleteAnswer = awaitReceived(ggsn, rx -> rx.type() == 21 && rx.sequence() == 0x7002);
        await().atMost(ANSWER).until(() -> !plugin("proxy").sessionTable().containsKey(directorTeid));
        assertThat(plugin("proxy").openSessions(real)).isZero();
        assertThat(real.connections()).isZero();
        assertThat(binding("proxy", imsi)).isNull();
        Gauge open = registry.find("switchboard.gtp.sessions.open").tags("vserver", "proxy", "real", real.id()).gauge();
        assertThat(open).isNotNull();
        assertThat(open.value()).isZero();
        assertThat(counter("switchboard.gtp.messages", "vserver", "proxy", "real", real.id(), "type",
                "delete-pdp-context-response", "cause", "128", "initiator", "real")).isEqualTo(1);
        assertThat(counter("switchboard.gtp.messages", "vserver", "proxy", "real", real.id(), "type",
                "create-pdp-context-response", "cause", "128", "initiator", "requester")).isGreaterThanOrEqualTo(1);

        // Every rewritten packet, in tshark.
        Assumptions.assumeTrue(Tshark.available(), "tshark is not installed");
        Path pcap = dir.resolve("v1.pcap");
        Tshark.writePcap(pcap, List.of(createAtGgsn, created.bytes(), updateAtSgsn.bytes(), updateAnswer.bytes(),
                deleteAtSgsn.bytes(), deleteAnswer.bytes(), updateAtGgsn));
        List<String> lines = Tshark.fields(pcap, "gtp.message", "gtp.seq_number", "gtp.teid", "gtp.teid_cp",
                "gtp.gsn_ipv4", "gtp.teid_data", "gtp.cause");
        assertThat(lines).hasSize(7);
        String[] create = fields(lines.get(0));
        assertThat(create[0]).isEqualTo("0x10");
        assertThat(Long.decode(create[3])).as("TEID-C: the director's, for the GGSN").isEqualTo(realFacingTeid);
        assertThat(create[4]).as("GSN Addresses: signalling the VIP, user traffic the SGSN's")
                .isEqualTo("127.0.1.10;127.0.1.20");
        assertThat(Long.decode(create[5])).as("TEID Data I untouched").isEqualTo(0x1005);
        String[] answer = fields(lines.get(1));
        assertThat(Long.decode(answer[2])).as("header: the SGSN's TEID").isEqualTo(0x2005);
        assertThat(Long.decode(answer[3])).isEqualTo(directorTeid);
        assertThat(answer[4]).isEqualTo("127.0.1.10");
        assertThat(Integer.decode(answer[1])).isEqualTo(0x0100);
        String[] upd = fields(lines.get(2));
        assertThat(upd[0]).isEqualTo("0x12");
        assertThat(Long.decode(upd[2])).isEqualTo(0x2005);
        String[] updAnswer = fields(lines.get(3));
        assertThat(updAnswer[0]).isEqualTo("0x13");
        assertThat(Integer.decode(updAnswer[1])).isEqualTo(0x7001);
        assertThat(Long.decode(updAnswer[2])).isEqualTo(ggsn.teid());
        assertThat(updAnswer[6]).isEqualTo("128");
        String[] del = fields(lines.get(4));
        assertThat(del[0]).isEqualTo("0x14");
        assertThat(Long.decode(del[2])).isEqualTo(0x2005);
        String[] delAnswer = fields(lines.get(5));
        assertThat(delAnswer[0]).isEqualTo("0x15");
        assertThat(Integer.decode(delAnswer[1])).isEqualTo(0x7002);
        assertThat(Long.decode(delAnswer[2])).as("the GGSN's TEID-C from its Update answer").isEqualTo(ggsn.teid() + 1);
        String[] sgsnUpdateAtGgsn = fields(lines.get(6));
        assertThat(sgsnUpdateAtGgsn[0]).isEqualTo("0x12");
        assertThat(Long.decode(sgsnUpdateAtGgsn[2])).isEqualTo(ggsn.teid());
        assertThat(sgsnUpdateAtGgsn[3]).as("no TEID-C added").isEmpty();
        assertThat(sgsnUpdateAtGgsn[4]).isEqualTo("127.0.1.10;127.0.1.20");
    }

    @Test
    void v2PgwInitiatedRequestsFollowTheMmeThatTookTheSessionOver(@TempDir Path dir) throws Exception {
        String imsi = "262420000001002";
        Datagram created = exchange(sgsn, GtpMessages.v2CreateRequest(imsi, 0x0200, 0x3000, SGSN_ADDRESS, null),
                PROXY_VIP);
        assertThat(created.type()).isEqualTo(33);
        assertThat(created.teid()).isEqualTo(0x3000);
        long directorTeid = GtpMessages.senderTeid(created.bytes());
        GtpResponder pgw = holder("proxy", imsi);
        byte[] createAtPgw = pgw.received.stream().filter(rx -> imsi.equals(rx.imsi())).findFirst().orElseThrow()
                .bytes();
        long realFacingTeid = GtpMessages.senderTeid(createAtPgw);

        // PGW-initiated Update Bearer Request (TS 29.274 §7.2.15) to the MME and back.
        pgw.send(GtpMessages.v2(97, realFacingTeid, 0x070001, new byte[] {73, 0, 1, 0, 5}), PROXY_VIP);
        Datagram updateAtMme = receive(sgsn);
        assertThat(updateAtMme).isNotNull();
        assertThat(updateAtMme.type()).isEqualTo(97);
        assertThat(updateAtMme.teid()).isEqualTo(0x3000);
        send(sgsn, GtpMessages.v2(98, directorTeid, updateAtMme.sequence(), new byte[] {2, 0, 2, 0, 16, 0}), PROXY_VIP);
        GtpResponder.Received updateAnswer = awaitReceived(pgw, rx -> rx.type() == 98);
        assertThat(updateAnswer.teid()).isEqualTo(pgw.teid());
        assertThat(updateAnswer.sequence()).isEqualTo(0x070001);

        // A new MME takes the session over: Modify Bearer Request with its sender F-TEID (TS 29.274 §7.2.7);
        // the PGW's answer names a new F-TEID of its own, which the director learns.
        Datagram modified = exchange(newMme, GtpMessages.v2(34, directorTeid, 0x0201,
                GtpMessages.fteid(0, 10, 0x3111, NEW_MME_ADDRESS, null)), PROXY_VIP);
        assertThat(modified.type()).isEqualTo(35);
        assertThat(modified.teid()).as("the new MME's TEID").isEqualTo(0x3111);
        assertThat(GtpMessages.senderTeid(modified.bytes())).as("still the director's TEID").isEqualTo(directorTeid);
        byte[] modifyAtPgw = awaitReceived(pgw, rx -> rx.type() == 34).bytes();

        // The PGW's Delete Bearer Request with the Linked EBI ends the PDN connection: it goes to the new MME.
        pgw.send(GtpMessages.v2(99, realFacingTeid, 0x070002, new byte[] {73, 0, 1, 0, 5}), PROXY_VIP);
        Datagram deleteAtMme = receive(newMme);
        assertThat(deleteAtMme).isNotNull();
        assertThat(deleteAtMme.teid()).isEqualTo(0x3111);
        send(newMme, GtpMessages.v2(100, directorTeid, deleteAtMme.sequence(), new byte[] {2, 0, 2, 0, 16, 0}),
                PROXY_VIP);
        GtpResponder.Received deleteAnswer = awaitReceived(pgw, rx -> rx.type() == 100);
        assertThat(deleteAnswer.teid()).as("the PGW's new TEID").isEqualTo(pgw.teid() + 1);
        await().atMost(ANSWER).until(() -> !plugin("proxy").sessionTable().containsKey(directorTeid));
        assertThat(binding("proxy", imsi)).isNull();

        Assumptions.assumeTrue(Tshark.available(), "tshark is not installed");
        Path pcap = dir.resolve("v2.pcap");
        Tshark.writePcap(pcap, List.of(createAtPgw, created.bytes(), updateAtMme.bytes(), updateAnswer.bytes(),
                modifyAtPgw, modified.bytes(), deleteAtMme.bytes(), deleteAnswer.bytes()));
        List<String> lines = Tshark.fields(pcap, "gtpv2.message_type", "gtpv2.seq", "gtpv2.teid",
                "gtpv2.f_teid_gre_key", "gtpv2.f_teid_ipv4", "gtpv2.cause");
        assertThat(lines).hasSize(8);
        String[] create = fields(lines.get(0));
        assertThat(create[0]).isEqualTo("32");
        assertThat(Long.decode(create[3])).isEqualTo(realFacingTeid);
        assertThat(create[4]).as("sender F-TEID IPv4: the VIP").isEqualTo("127.0.1.10");
        String[] answer = fields(lines.get(1));
        assertThat(Long.decode(answer[2])).isEqualTo(0x3000);
        assertThat(Integer.decode(answer[1])).isEqualTo(0x0200);
        assertThat(Long.decode(answer[3])).isEqualTo(directorTeid);
        assertThat(answer[4]).isEqualTo("127.0.1.10");
        assertThat(fields(lines.get(2))[0]).isEqualTo("97");
        assertThat(Long.decode(fields(lines.get(2))[2])).isEqualTo(0x3000);
        assertThat(Long.decode(fields(lines.get(3))[2])).isEqualTo(pgw.teid());
        assertThat(Integer.decode(fields(lines.get(3))[1])).isEqualTo(0x070001);
        String[] modify = fields(lines.get(4));
        assertThat(modify[0]).isEqualTo("34");
        assertThat(Long.decode(modify[2])).isEqualTo(pgw.teid());
        assertThat(Long.decode(modify[3])).as("the new MME's F-TEID: the director's TEID").isEqualTo(realFacingTeid);
        assertThat(modify[4]).isEqualTo("127.0.1.10");
        String[] modifyAnswer = fields(lines.get(5));
        assertThat(Long.decode(modifyAnswer[2])).isEqualTo(0x3111);
        assertThat(Long.decode(modifyAnswer[3])).isEqualTo(directorTeid);
        assertThat(modifyAnswer[4]).isEqualTo("127.0.1.10");
        assertThat(modifyAnswer[5]).isEqualTo("16");
        assertThat(Long.decode(fields(lines.get(6))[2])).isEqualTo(0x3111);
        String[] deleteAnswerFields = fields(lines.get(7));
        assertThat(deleteAnswerFields[0]).isEqualTo("100");
        assertThat(Integer.decode(deleteAnswerFields[1])).isEqualTo(0x070002);
        assertThat(Long.decode(deleteAnswerFields[2])).isEqualTo(pgw.teid() + 1);
    }

    /**
     * TS 29.274 §7.6: a PGW's request triggered by an MME's Command carries the Command's sequence
     * number (the director's, toward the PGW, with its top bit set), and reaches the MME under the
     * MME's own Command sequence; the MME's answer reaches the PGW under the PGW's. A request under
     * another sequence is relayed under a director sequence, as any real-initiated request. Failure
     * Indications reach the MME under its Command's sequence, sent to the director socket the Command
     * came from and sent to the virtual address.
     */
    @Test
    void v2CommandTriggeredRequestsAndFailureIndicationsCarryTheMmesCommandSequence(@TempDir Path dir)
            throws Exception {
        String imsi = "262420000001003";
        byte[] ebi = {73, 0, 1, 0, 5};
        Datagram created = exchange(sgsn, GtpMessages.v2CreateRequest(imsi, 0x0300, 0x3300, SGSN_ADDRESS, null),
                PROXY_VIP);
        assertThat(created.type()).isEqualTo(33);
        long directorTeid = GtpMessages.senderTeid(created.bytes());
        GtpResponder pgw = holder("proxy", imsi);
        long realFacingTeid = GtpMessages.senderTeid(pgw.received.stream().filter(rx -> imsi.equals(rx.imsi()))
                .findFirst().orElseThrow().bytes());
        double triggered = counter("switchboard.real.requests.triggered", "vserver", "proxy");
        RealServer real = real("proxy", pgw);
        int connections = real.connections();
        long unanswered = real.unanswered();

        // Modify Bearer Command (TS 29.274 §7.2.17.1), its top sequence bit set as §7.6 asks.
        send(sgsn, GtpMessages.v2(64, directorTeid, 0x800301, ebi), PROXY_VIP);
        GtpResponder.Received command = awaitReceived(pgw, rx -> rx.type() == 64);
        assertThat(command.teid()).isEqualTo(pgw.teid());
        assertThat(command.sequence() & 0x800000).as("a Command's sequence toward the PGW").isNotZero();
        // The triggered Update Bearer Request (§7.2.15) under the Command's sequence, and its retransmission.
        byte[] triggeredRequest = GtpMessages.v2(97, realFacingTeid, command.sequence(), ebi);
        pgw.send(triggeredRequest, PROXY_VIP);
        Datagram updateAtMme = receive(sgsn);
        assertThat(updateAtMme).isNotNull();
        assertThat(updateAtMme.type()).isEqualTo(97);
        assertThat(updateAtMme.sequence()).as("the MME's Command sequence").isEqualTo(0x800301);
        assertThat(updateAtMme.teid()).isEqualTo(0x3300);
        pgw.send(triggeredRequest, PROXY_VIP);
        Datagram again = receive(sgsn);
        assertThat(again).isNotNull();
        assertThat(again.sequence()).isEqualTo(0x800301);
        send(sgsn, GtpMessages.v2(98, directorTeid, 0x800301, new byte[] {2, 0, 2, 0, 16, 0}), PROXY_VIP);
        GtpResponder.Received updateAnswer = awaitReceived(pgw, rx -> rx.type() == 98);
        assertThat(updateAnswer.sequence()).as("the PGW's (the Command's) sequence").isEqualTo(command.sequence());
        assertThat(updateAnswer.teid()).isEqualTo(pgw.teid());
        assertThat(counter("switchboard.real.requests.triggered", "vserver", "proxy")).isEqualTo(triggered + 1);

        // The same sequence again, the Command answered: an ordinary PGW request, under a director sequence.
        pgw.send(GtpMessages.v2(97, realFacingTeid, 0x070005, ebi), PROXY_VIP);
        Datagram ownUpdate = receive(sgsn);
        assertThat(ownUpdate).isNotNull();
        assertThat(ownUpdate.sequence()).isNotEqualTo(0x070005).isNotEqualTo(0x800301);
        assertThat(ownUpdate.sequence() & 0x800000).as("not Command-triggered").isZero();
        send(sgsn, GtpMessages.v2(98, directorTeid, ownUpdate.sequence(), new byte[] {2, 0, 2, 0, 16, 0}), PROXY_VIP);
        assertThat(awaitReceived(pgw, rx -> rx.type() == 98).sequence()).isEqualTo(0x070005);
        assertThat(counter("switchboard.real.requests.triggered", "vserver", "proxy")).isEqualTo(triggered + 1);

        // Delete Bearer Command (§7.2.17.2) refused: the Failure Indication (§7.2.18) to the Command's source.
        send(sgsn, GtpMessages.v2(66, directorTeid, 0x800302, ebi), PROXY_VIP);
        GtpResponder.Received deleteCommand = awaitReceived(pgw, rx -> rx.type() == 66);
        pgw.send(GtpMessages.v2(67, realFacingTeid, deleteCommand.sequence(), new byte[] {2, 0, 2, 0, 94, 0}),
                deleteCommand.from());
        Datagram deleteFailure = receive(sgsn);
        assertThat(deleteFailure).isNotNull();
        assertThat(deleteFailure.type()).isEqualTo(67);
        assertThat(deleteFailure.sequence()).isEqualTo(0x800302);
        assertThat(deleteFailure.teid()).isEqualTo(0x3300);
        // Bearer Resource Command (§7.2.5): its Failure Indication (§7.2.6) sent to the virtual address.
        send(sgsn, GtpMessages.v2(68, directorTeid, 0x800303, ebi), PROXY_VIP);
        GtpResponder.Received resourceCommand = awaitReceived(pgw, rx -> rx.type() == 68);
        pgw.send(GtpMessages.v2(69, realFacingTeid, resourceCommand.sequence(), new byte[] {2, 0, 2, 0, 94, 0}),
                PROXY_VIP);
        Datagram resourceFailure = receive(sgsn);
        assertThat(resourceFailure).isNotNull();
        assertThat(resourceFailure.type()).isEqualTo(69);
        assertThat(resourceFailure.sequence()).isEqualTo(0x800303);
        assertThat(resourceFailure.teid()).isEqualTo(0x3300);
        // Another Modify Bearer Command, its Update Bearer Request sent where TS 29.274 §4.2.2 sends a
        // triggered message: to the Command's source, a director socket.
        send(sgsn, GtpMessages.v2(64, directorTeid, 0x800304, ebi), PROXY_VIP);
        GtpResponder.Received secondCommand = awaitReceived(pgw, rx -> rx.type() == 64 && rx != command);
        pgw.send(GtpMessages.v2(97, realFacingTeid, secondCommand.sequence(), ebi), secondCommand.from());
        Datagram secondUpdate = receive(sgsn);
        assertThat(secondUpdate).isNotNull();
        assertThat(secondUpdate.type()).isEqualTo(97);
        assertThat(secondUpdate.sequence()).isEqualTo(0x800304);
        assertThat(secondUpdate.from()).as("from the virtual address").isEqualTo(PROXY_VIP);
        send(sgsn, GtpMessages.v2(98, directorTeid, 0x800304, new byte[] {2, 0, 2, 0, 16, 0}), PROXY_VIP);
        await().atMost(ANSWER).until(() -> pgw.received.stream()
                .anyMatch(rx -> rx.type() == 98 && rx.sequence() == secondCommand.sequence()));
        assertThat(counter("switchboard.real.requests.triggered", "vserver", "proxy")).isEqualTo(triggered + 2);
        assertThat(director.virtualServers().get("proxy").relayedRequests().triggering().size()).as("every Command answered")
                .isZero();
        assertThat(real.connections()).as("no Command left pending at the engine").isEqualTo(connections);
        assertThat(real.unanswered()).isEqualTo(unanswered);
        assertThat(plugin("proxy").sessionTable()).containsKey(directorTeid);
        // The MME ends the session (the other tests count this real's sessions and connections).
        assertThat(exchange(sgsn, GtpMessages.v2(36, directorTeid, 0x0305, ebi), PROXY_VIP).type()).isEqualTo(37);
        await().atMost(ANSWER).until(() -> !plugin("proxy").sessionTable().containsKey(directorTeid));

        Assumptions.assumeTrue(Tshark.available(), "tshark is not installed");
        Path pcap = dir.resolve("commands.pcap");
        Tshark.writePcap(pcap, List.of(command.bytes(), updateAtMme.bytes(), updateAnswer.bytes(), ownUpdate.bytes(),
                deleteFailure.bytes(), resourceFailure.bytes()));
        List<String> lines = Tshark.fields(pcap, "gtpv2.message_type", "gtpv2.seq", "gtpv2.teid", "gtpv2.cause");
        assertThat(lines).hasSize(6);
        assertThat(fields(lines.get(0))[0]).isEqualTo("64");
        assertThat(Integer.decode(fields(lines.get(0))[1])).isEqualTo(command.sequence());
        assertThat(fields(lines.get(1))[0]).isEqualTo("97");
        assertThat(Integer.decode(fields(lines.get(1))[1])).isEqualTo(0x800301);
        assertThat(Long.decode(fields(lines.get(1))[2])).isEqualTo(0x3300);
        assertThat(fields(lines.get(2))[0]).isEqualTo("98");
        assertThat(Integer.decode(fields(lines.get(2))[1])).isEqualTo(command.sequence());
        assertThat(Long.decode(fields(lines.get(2))[2])).isEqualTo(pgw.teid());
        assertThat(Integer.decode(fields(lines.get(3))[1])).isEqualTo(ownUpdate.sequence());
        assertThat(fields(lines.get(4))[0]).isEqualTo("67");
        assertThat(Integer.decode(fields(lines.get(4))[1])).isEqualTo(0x800302);
        assertThat(fields(lines.get(4))[3]).isEqualTo("94");
        assertThat(fields(lines.get(5))[0]).isEqualTo("69");
        assertThat(Integer.decode(fields(lines.get(5))[1])).isEqualTo(0x800303);
        assertThat(Long.decode(fields(lines.get(5))[2])).isEqualTo(0x3300);
    }

    @Test
    void anApnMapSendsCreatesToItsFarmAndARefusalIsResentWithinIt() throws Exception {
        String imsi = "262420000005001";
        GtpResponder refusing = farms.get("ims").get(0);
        GtpResponder accepting = farms.get("ims").get(1);
        // Two IMS creates: round robin tries the refusing real first or second; either way both land
        // on the accepting real of the same farm, and the requester sees one accepted answer each.
        for (int i = 0; i < 2; i++) {
            Datagram created = exchange(sgsn, GtpMessages.v2CreateRequest("26242000000510" + i, 0x0700 + i, 0x3000,
                    SGSN_ADDRESS, null, "ims.mnc042.mcc262.gprs"), PROXY_VIP);
            assertThat(created.bytes()[16] & 0xff).as("cause").isEqualTo(16);
        }
        assertThat(accepting.imsis()).contains("262420000005100", "262420000005101");
        assertThat(refusing.imsis()).hasSize(1);
        assertThat(real("ims", refusing).state()).isEqualTo(io.switchboard.director.real.RealState.FAILED);
        assertThat(farms.get("proxy").stream().flatMap(r -> r.imsis().stream()))
                .doesNotContain("262420000005100", "262420000005101");
        // One IMSI on two APNs: the IMS one in the ims farm, the other in the virtual server's farm;
        // stickiness is per farm.
        exchange(sgsn, GtpMessages.v2CreateRequest(imsi, 0x0710, 0x3000, SGSN_ADDRESS, null, "ims"), PROXY_VIP);
        Datagram internet = exchange(sgsn, GtpMessages.v2CreateRequest(imsi, 0x0711, 0x3000, SGSN_ADDRESS, null,
                "internet"), PROXY_VIP);
        assertThat(internet.bytes()[16] & 0xff).isEqualTo(16);
        assertThat(accepting.imsis()).contains(imsi);
        assertThat(farms.get("proxy").stream().filter(r -> r.imsis().contains(imsi))).hasSize(1);
        assertThat(binding("proxy", imsi).farm()).isEqualTo("proxy");
        assertThat(binding("proxy", imsi + "@ims").real()).isEqualTo(real("ims", accepting).id());
    }

    /**
     * A real that refuses creates for lack of resources is failed for new work, but it still holds its
     * sessions: their requests reach it (they were dropped as "no real available" before, so a Delete
     * never ended the context there).
     */
    @Test
    void aRealFailedForRefusingCreatesStillGetsTheRequestsOfItsSessions() throws Exception {
        String imsi = "262420000006001";
        Datagram created = exchange(sgsn, GtpMessages.v2CreateRequest(imsi, 0x0800, 0x3000, SGSN_ADDRESS, null),
                vip("full"));
        assertThat(created.bytes()[16] & 0xff).as("cause").isEqualTo(16);
        long directorTeid = GtpMessages.senderTeid(created.bytes());
        GtpResponder holding = holder("full", imsi);
        holding.v2Cause = 73; // TS 29.274: no resources available
        try {
            for (int i = 0; i < 4 && real("full", holding).state() != io.switchboard.director.real.RealState.FAILED; i++) {
                Datagram other = exchange(sgsn, GtpMessages.v2CreateRequest("26242000000610" + i, 0x0801 + i, 0x3000,
                        SGSN_ADDRESS, null), vip("full"));
                assertThat(other.bytes()[16] & 0xff).as("cause of the create resent elsewhere").isEqualTo(16);
            }
            assertThat(real("full", holding).state()).isEqualTo(io.switchboard.director.real.RealState.FAILED);

            // Delete Session Request (TS 29.274 §7.2.9.1) under the director's TEID, Linked EBI 5.
            Datagram deleted = exchange(sgsn, GtpMessages.v2(36, directorTeid, 0x0810, new byte[] {73, 0, 1, 0, 5}),
                    vip("full"));
            assertThat(deleted.type()).isEqualTo(37);
            assertThat(deleted.bytes()[16] & 0xff).as("cause from the failed real").isEqualTo(16);
            assertThat(deleted.teid()).as("the requester's own TEID").isEqualTo(0x3000);
            assertThat(holding.received.stream().filter(rx -> rx.type() == 36)).hasSize(1);
            assertThat(plugin("full").sessionTable()).doesNotContainKey(directorTeid);
        } finally {
            holding.v2Cause = 16;
        }
    }

    @Test
    void unexpectedMessagesAtTheVirtualAddressAreCountedAndDroppedWhileTrafficContinues() throws Exception {
        VirtualServerMetrics metrics = director.virtualServers().get("proxy").metrics();
        GtpResponder someReal = farms.get("proxy").get(0);
        double responses = metrics.droppedCount(EngineDrops.NO_RELAYED_REQUEST);
        double unknown = metrics.droppedCount(GtpInspectPlugin.UNKNOWN_SESSION);
        double carrier = metrics.droppedCount(GtpPlugin.CARRIER_CODE);
        double truncated = metrics.droppedCount(DropReason.TRUNCATED);
        // An answer to no relayed request, a real's request for no session, a foreign carrier, a truncated header,
        // and a request under a session's real-facing TEID from another address than its real's.
        send(sgsn, GtpMessages.v1(21, 0x1234, 0x5555, new byte[] {1, (byte) 128}), PROXY_VIP);
        someReal.send(GtpMessages.v1(20, 0x0BADBEEFL, 0x7100, new byte[] {20, 5}), PROXY_VIP);
        Datagram session = exchange(sgsn, GtpMessages.v1CreateRequest("262420000001004", 0x0302, 5, SGSN_ADDRESS),
                PROXY_VIP);
        GtpResponder holder = holder("proxy", "262420000001004");
        long realFacing = GtpMessages.senderTeid(holder.received.stream().filter(rx -> "262420000001004".equals(rx.imsi()))
                .findFirst().orElseThrow().bytes());
        GtpResponder other = farms.get("proxy").stream().filter(r -> r != holder).findFirst().orElseThrow();
        other.send(GtpMessages.v1(20, realFacing, 0x7101, new byte[] {20, 5}), PROXY_VIP);
        send(sgsn, GtpMessages.v1CreateRequest("310260000001003", 0x0300, 5, SGSN_ADDRESS), PROXY_VIP);
        send(sgsn, new byte[] {0x32, 18, 0, 4}, PROXY_VIP);
        await().atMost(ANSWER).until(() -> metrics.droppedCount(EngineDrops.NO_RELAYED_REQUEST) == responses + 1
                && metrics.droppedCount(GtpInspectPlugin.UNKNOWN_SESSION) == unknown + 2
                && metrics.droppedCount(GtpPlugin.CARRIER_CODE) == carrier + 1
                && metrics.droppedCount(DropReason.TRUNCATED) == truncated + 1);
        Datagram created = exchange(sgsn, GtpMessages.v1CreateRequest("262420000001003", 0x0301, 5, SGSN_ADDRESS),
                PROXY_VIP);
        assertThat(created.bytes()[13] & 0xff).as("traffic continues").isEqualTo(128);
        assertThat(session.bytes()[13] & 0xff).isEqualTo(128);
        assertThat(plugin("proxy").sessionTable()).as("the foreign Delete ended nothing")
                .containsKey(ByteBuffer.wrap(session.bytes()).getInt(15) & 0xFFFFFFFFL);
    }

    /** The IMSIs of the creates a responder received. */
    private static List<String> created(GtpResponder real) {
        return real.received.stream().filter(rx -> rx.type() == 16).map(GtpResponder.Received::imsi).toList();
    }

    @Test
    void leastconnsBalancesByOpenSessions() throws Exception {
        GtpResponder a = farms.get("least").get(0);
        GtpResponder b = farms.get("least").get(1);
        InetSocketAddress vip = vip("least");
        List<Long> teids = new ArrayList<>();
        try (DatagramSocket requester = new DatagramSocket(new InetSocketAddress("127.0.1.20", 0))) {
            for (int i = 0; i < 4; i++) {
                Datagram created = exchange(requester, GtpMessages.v1CreateRequest("26242000000200" + i, 0x0400 + i, 5,
                        SGSN_ADDRESS), vip);
                teids.add(ByteBuffer.wrap(created.bytes()).getInt(15) & 0xFFFFFFFFL);
            }
            // One at a time, nothing is in flight: only open sessions can spread them 2:2.
            assertThat(created(a)).hasSize(2);
            assertThat(created(b)).hasSize(2);
            // End both of a's sessions: the next two creates go to a.
            for (int i = 0; i < 4; i++) {
                if (a.imsis().contains("26242000000200" + i)) {
                    exchange(requester, GtpMessages.v1(20, teids.get(i), 0x0410 + i, new byte[] {20, 5}), vip);
                }
            }
            assertThat(plugin("least").openSessions(real("least", a))).isZero();
            for (int i = 4; i < 6; i++) {
                exchange(requester, GtpMessages.v1CreateRequest("26242000000200" + i, 0x0400 + i, 5, SGSN_ADDRESS), vip);
            }
            assertThat(created(a)).hasSize(4);
            assertThat(created(b)).hasSize(2);
            assertThat(plugin("least").openSessions(real("least", a))).isEqualTo(2);
            assertThat(plugin("least").openSessions(real("least", b))).isEqualTo(2);

            // The real restarts (the Echo probe's hook): its sessions and their bindings go.
            RealServer restarted = real("least", a);
            double purged = counter("switchboard.gtp.sessions.purged", "vserver", "least");
            plugin("least").realRestarted(restarted);
            assertThat(plugin("least").openSessions(restarted)).isZero();
            assertThat(restarted.connections()).isZero();
            assertThat(counter("switchboard.gtp.sessions.purged", "vserver", "least")).isEqualTo(purged + 2);
            assertThat(binding("least", "262420000002004")).isNull();
            assertThat(plugin("least").sessionTable().values()).allMatch(s -> s.real() != restarted).hasSize(2);

            // Idle sessions end after session-idle (the housekeeping clock driven by hand).
            double expired = counter("switchboard.gtp.sessions.expired", "vserver", "least");
            // At most session-idle / 8 later than session-idle: the slack of the refresh, which is not written per message.
            plugin("least").housekeep(System.nanoTime() + GtpOptions.DEFAULT_SESSION_IDLE.multipliedBy(9).dividedBy(8)
                    .plusSeconds(1).toNanos());
            assertThat(plugin("least").sessionTable()).isEmpty();
            assertThat(counter("switchboard.gtp.sessions.expired", "vserver", "least")).isEqualTo(expired + 2);
            assertThat(real("least", b).connections()).isZero();
        }
    }

    @Test
    void v0SessionsAreTrackedByTid() throws Exception {
        GtpResponder ggsn = farms.get("v0").get(0);
        InetSocketAddress vip = vip("v0");
        try (DatagramSocket requester = new DatagramSocket(new InetSocketAddress("127.0.1.20", 0))) {
            byte[] create = GtpMessages.v0CreateRequest("262420000003001", 5, 0x0500, GtpV0TidOrder.GSM_09_60);
            Datagram created = exchange(requester, create, vip);
            assertThat(created.bytes()[21] & 0xff).isEqualTo(128);
            long tid = ByteBuffer.wrap(create).getLong(12);
            assertThat(plugin("v0").sessionTable()).containsKey(tid);
            byte[] createAtGgsn = ggsn.received.stream().filter(rx -> rx.type() == 16).findFirst().orElseThrow().bytes();
            // GSN Address (IE 133) after Recovery and Selection mode: the director's, for the GGSN's own requests.
            assertThat(Arrays.copyOfRange(createAtGgsn, 27, 31)).isEqualTo(new byte[] {127, 0, 1, 12});
            Datagram deleted = exchange(requester, GtpMessages.v0(20, 0x0501, tid, new byte[] {}), vip);
            assertThat(deleted.type()).isEqualTo(21);
            assertThat(ggsn.received.stream().filter(rx -> rx.type() == 20)).hasSize(1);
            assertThat(plugin("v0").sessionTable()).doesNotContainKey(tid);
            double unknown = director.virtualServers().get("v0").metrics().droppedCount(GtpInspectPlugin.UNKNOWN_SESSION);
            send(requester, GtpMessages.v0(20, 0x0502, tid, new byte[] {}), vip);
            await().atMost(ANSWER).until(() -> director.virtualServers().get("v0").metrics()
                    .droppedCount(GtpInspectPlugin.UNKNOWN_SESSION) == unknown + 1);
        }
        // A GGSN-initiated Delete (found by TID, from the session's real) reaches the SGSN on port 3386
        // from the virtual address, and the SGSN's answer reaches the GGSN with the GGSN's sequence.
        try (DatagramSocket requester = new DatagramSocket(new InetSocketAddress("127.0.1.20", 3386))) {
            byte[] create = GtpMessages.v0CreateRequest("262420000003002", 5, 0x0510, GtpV0TidOrder.GSM_09_60,
                    SGSN_ADDRESS);
            exchange(requester, create, vip);
            long tid = ByteBuffer.wrap(create).getLong(12);
            ggsn.send(GtpMessages.v0(20, 0x7301, tid, new byte[] {}), vip);
            Datagram deleteAtSgsn = receive(requester);
            assertThat(deleteAtSgsn).isNotNull();
            assertThat(deleteAtSgsn.type()).isEqualTo(20);
            assertThat(deleteAtSgsn.from()).isEqualTo(vip);
            assertThat(ByteBuffer.wrap(deleteAtSgsn.bytes()).getLong(12)).isEqualTo(tid);
            int sequence = ByteBuffer.wrap(deleteAtSgsn.bytes()).getShort(4) & 0xffff;
            send(requester, GtpMessages.v0(21, sequence, tid, new byte[] {1, (byte) 128}), vip);
            GtpResponder.Received answer = awaitReceived(ggsn, rx -> rx.type() == 21);
            assertThat(answer.sequence()).isEqualTo(0x7301);
            await().atMost(ANSWER).until(() -> !plugin("v0").sessionTable().containsKey(tid));
        }
    }

    @Test
    void ipv6AndDualStackAddressesAreRewritten(@TempDir Path dir) throws Exception {
        GtpResponder ggsn = farms.get("v6").get(0);
        InetSocketAddress vip = vip("v6");
        try (DatagramSocket requester = new DatagramSocket(new InetSocketAddress("::1", 0))) {
            // GTPv1 with 16-octet GSN Addresses.
            Datagram created = exchange(requester, GtpMessages.v1CreateRequest("262420000004001", 0x0600, 5, SGSN_IPV6),
                    vip);
            byte[] createAtGgsn = ggsn.received.stream().filter(rx -> "262420000004001".equals(rx.imsi())).findFirst()
                    .orElseThrow().bytes();
            long directorTeid = ByteBuffer.wrap(created.bytes()).getInt(15) & 0xFFFFFFFFL;
            Datagram deleted = exchange(requester, GtpMessages.v1(20, directorTeid, 0x0601, new byte[] {20, 5}), vip);
            assertThat(deleted.bytes()[13] & 0xff).isEqualTo(128);
            // GTPv2 with a dual-stack sender F-TEID: both addresses become the director's.
            Datagram session = exchange(requester, GtpMessages.v2CreateRequest("262420000004002", 0x0602, 0x3000,
                    SGSN_ADDRESS, SGSN_IPV6), vip);
            byte[] sessionAtPgw = ggsn.received.stream().filter(rx -> "262420000004002".equals(rx.imsi())).findFirst()
                    .orElseThrow().bytes();
            assertThat(session.teid()).isEqualTo(0x3000);

            Assumptions.assumeTrue(Tshark.available(), "tshark is not installed");
            Path pcap = dir.resolve("v6.pcap");
            Tshark.writePcap(pcap, List.of(createAtGgsn, sessionAtPgw));
            List<String> lines = Tshark.fields(pcap, "gtp.gsn_ipv6", "gtp.teid_cp", "gtpv2.f_teid_ipv4",
                    "gtpv2.f_teid_ipv6", "gtpv2.f_teid_gre_key");
            assertThat(lines).hasSize(2);
            String[] v1 = fields(lines.get(0));
            assertThat(v1[0]).as("signalling: the director's IPv6, user traffic: the SGSN's").isEqualTo("::1;2001:db8::20");
            assertThat(Long.decode(v1[1])).isNotEqualTo(0x2005);
            String[] v2 = fields(lines.get(1));
            assertThat(v2[2]).isEqualTo("127.0.1.12");
            assertThat(v2[3]).isEqualTo("::1");
            assertThat(Long.decode(v2[4])).isNotEqualTo(0x3000);
        }
    }
}
