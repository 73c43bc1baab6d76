package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.GtpVectors;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import io.switchboard.codec.gtp.v2.GtpV2IeType;
import io.switchboard.codec.gtp.v2.GtpV2InterfaceType;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.ResponseVerdict;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gtp-inspect} in front of PGWs as they answer on S5/S8: the exchanges of two captures that
 * other people made (nDPI's {@code gtp_c.pcap} and magma's {@code inbound_roaming_01}, see the
 * protocol-codecs test resources' README), driven through the plug-in in the engine's order. Their
 * PGWs name their control plane only in the instance-1 "PGW S5/S8 ... F-TEID" of the Create Session
 * Response, never in a Sender F-TEID (TS 29.274 Table 7.2.2-1), so that is the endpoint the director
 * must rewrite and learn, or the SGW's Delete Session Request names no session. Field values come
 * from tshark's reading of the captures (in the comments), not from the codec under test.
 *
 * <p>Crafted from Table 7.2.2-1 besides: on S11 the SGW's response carries both, and instance 1 (the
 * PGW's endpoint, told to the MME) stays as it is; a PGW that sends both on S5/S8 has both rewritten.
 */
class GtpInspectCapturedPgwTest {

    private static final InetAddress VIP = address("127.0.1.10");
    private static final InetSocketAddress SGW = new InetSocketAddress("127.0.1.20", 2123);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final StickyTable sticky = new InMemoryStickyTable("gtp-c/imsi", Duration.ofHours(1), 1000);
    private GtpInspectPlugin plugin;
    private RealServer pgw;
    private int directorSequence;

    private static InetAddress address(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @BeforeEach
    void attach() throws Exception {
        Farms farms = new Farms(Map.of("pgw", new FarmConfig("pgw", PredictorKind.ROUNDROBIN,
                new FailureDetection(100, 1, Duration.ofMinutes(1)),
                List.of(new RealConfig(address("127.0.1.30"), 2123, 1, OptionalInt.empty(), true)), Optional.empty())));
        pgw = farms.farm("pgw").reals().get(0);
        GtpOptions options = new GtpOptions(Set.of(1, 2), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1,
                GtpOptions.DEFAULT_RESOURCE_CAUSES_V2, List.of(), GtpV0TidOrder.GSM_09_60, 0, Optional.empty(), true,
                Duration.ofHours(1), List.of());
        VirtualServerConfig config = new VirtualServerConfig("gtp-c", new Endpoint(VIP, 2123), "gtp-inspect",
                "pgw", Optional.empty(), Duration.ofSeconds(5), Duration.ofMinutes(1), 4096, true, options);
        plugin = new GtpInspectPlugin(options, VIP);
        plugin.attach(new PluginContext(config, sticky, farms, () -> 1_000_000_000L, registry));
    }

    /** What the SGW receives from the director for one of its requests. */
    private record Answer(byte[] bytes, GtpMessageView view) {
    }

    /**
     * One SGW request through the plug-in as the engine drives it, answered by the PGW with the
     * capture's own answer (sent, as the PGW would, under the TEID and sequence number the director
     * gave it); returns what reaches the SGW.
     */
    private Answer exchange(byte[] sgwRequest, byte[] capturedAnswer, List<byte[]> toPgw) throws Exception {
        ByteBuf request = Unpooled.wrappedBuffer(sgwRequest.clone());
        StickyKey key = plugin.classify(request, SGW);
        assertThat(key).isNotNull();
        if (new GtpMessageView().wrap(request).teid() > 0) {
            assertThat(plugin.route(request)).isEqualTo(pgw.binding());
        }
        long clientId = plugin.clientTransactionId(request);
        int sequence = ++directorSequence;
        var context = plugin.prepareRequest(request, sequence, pgw, SGW);
        toPgw.add(ByteBufUtil.getBytes(request));
        GtpMessageView sent = new GtpMessageView().wrap(request);
        GtpControlEndpoint requester = sent.senderControlPlane();

        ByteBuf answer = Unpooled.wrappedBuffer(capturedAnswer.clone());
        GtpMessageView view = new GtpMessageView().wrap(answer);
        view.setSequence(sequence);
        // The PGW answers under the TEID-C it knows its peer by: the director's, from the create.
        view.setTeid(requester != null ? requester.teid() : realFacingTeid);
        assertThat(plugin.responseTransactionId(answer)).isEqualTo(sequence);
        assertThat(plugin.inspectResponse(answer, pgw, context)).isEqualTo(ResponseVerdict.RELAY);
        plugin.prepareResponse(answer, clientId, context);
        if (requester != null) {
            realFacingTeid = requester.teid();
        }
        byte[] out = ByteBufUtil.getBytes(answer);
        return new Answer(out, new GtpMessageView().wrap(Unpooled.wrappedBuffer(out)));
    }

    /** The TEID-C the director named itself by toward the PGW in the create. */
    private long realFacingTeid;

    private void followsTheSessionThroughItsDelete(String capture, int create, int created, int delete, int deleted)
            throws Exception {
        byte[] createRequest = GtpVectors.frame(capture, create);
        byte[] createResponse = GtpVectors.frame(capture, created);
        List<byte[]> toPgw = new ArrayList<>();

        Answer accepted = exchange(createRequest, createResponse, toPgw);
        // The SGW gets its own TEID and sequence number back, and the director in the PGW's F-TEID.
        GtpMessageView capturedResponse = new GtpMessageView().wrap(Unpooled.wrappedBuffer(createResponse));
        assertThat(accepted.view().teid()).isEqualTo(capturedResponse.teid());
        assertThat(accepted.view().sequence()).isEqualTo(capturedResponse.sequence());
        GtpControlEndpoint named = accepted.view().senderControlPlane();
        assertThat(named.address()).isEqualTo(VIP);
        assertThat(named.teid()).isNotEqualTo(capturedResponse.senderControlPlane().teid());
        assertThat(instanceOf(accepted, named)).isEqualTo(1);
        assertThat(plugin.openSessions(pgw)).isEqualTo(1);
        // Nothing else of the answer changed: only that F-TEID's TEID and address differ.
        int value = fteidValue(accepted);
        assertThat(changedOctets(createResponse, accepted.bytes())).isNotEmpty()
                .allMatch(i -> i >= value + 1 && i < value + 9);

        // The SGW deletes the session the way a real SGW does: to the TEID the answer named.
        byte[] deleteRequest = GtpVectors.frame(capture, delete).clone();
        new GtpMessageView().wrap(Unpooled.wrappedBuffer(deleteRequest)).setTeid(named.teid());
        Answer gone = exchange(deleteRequest, GtpVectors.frame(capture, deleted), toPgw);
        // The PGW received the Delete under its own TEID-C, as in the capture.
        GtpMessageView atPgw = new GtpMessageView().wrap(Unpooled.wrappedBuffer(toPgw.get(1)));
        assertThat(atPgw.teid()).isEqualTo(new GtpMessageView().wrap(
                Unpooled.wrappedBuffer(GtpVectors.frame(capture, delete))).teid());
        assertThat(gone.view().cause()).isEqualTo(16);
        assertThat(plugin.openSessions(pgw)).isZero();
        assertThat(plugin.sessionTable()).isEmpty();
        assertThat(sticky.size()).isZero(); // unstick-on-delete: the IMSI's last session ended
    }

    @Test
    void ndpiS5S8CaptureKeepsItsSessionToTheDelete() throws Exception {
        // tshark: frame 1 CSReq, sender F-TEID S5/S8 SGW GTP-C (6) 0x35529204 10.101.0.2; frame 2 CSResp,
        // cause 16, F-TEID instance 1 S5/S8 PGW GTP-C (7) 0x35529206 10.102.0.2 and no instance 0;
        // frame 3 DSReq to TEID 0x35529206; frame 4 DSResp cause 16
        followsTheSessionThroughItsDelete("/pcaps/gtpv2/gtp_c.pcap", 1, 2, 3, 4);
    }

    @Test
    void magmaS5S8CaptureKeepsItsSessionToTheDelete() throws Exception {
        // tshark: frame 39 CSReq (SGW 172.16.1.12, F-TEID 6 0x1), frame 40 CSResp with F-TEID
        // instance 1, S5/S8 PGW GTP-C (7) 0x13 172.16.1.2; frame 207 DSReq to TEID 0x13; frame 208 DSResp
        followsTheSessionThroughItsDelete("/pcaps/gtpv2/inbound_roaming_01_210505_130828-1.pcapng", 39, 40, 207, 208);
    }

    @Test
    void onS11TheSgwsSenderFteidIsRewrittenAndThePgwsLeftAlone() throws Exception {
        byte[] sgwS11 = {10, 0, 0, 11};
        byte[] pgwS5 = {10, 0, 0, 7};
        byte[] response = createResponse(
                GtpMessages.fteid(0, GtpV2InterfaceType.S11S4_SGW_GTP_C.value(), 0x1111, sgwS11, null),
                GtpMessages.fteid(1, GtpV2InterfaceType.S5S8_PGW_GTP_C.value(), 0x7777, pgwS5, null));
        Answer answer = exchange(GtpMessages.v2CreateRequest("262420000006001", 0x10), response, new ArrayList<>());
        GtpControlEndpoint sender = answer.view().senderControlPlane();
        assertThat(sender.address()).isEqualTo(VIP);
        assertThat(instanceOf(answer, sender)).isZero();
        GtpControlEndpoint pgwEndpoint = fteid(answer, 1);
        assertThat(pgwEndpoint).isEqualTo(GtpControlEndpoint.of(0x7777, InetAddress.getByAddress(pgwS5)));
        assertThat(plugin.openSessions(pgw)).isEqualTo(1);
    }

    @Test
    void aPgwThatSendsItsEndpointTwiceOnS5S8HasBothRewritten() throws Exception {
        byte[] pgwS5 = {10, 0, 0, 7};
        byte[] response = createResponse(
                GtpMessages.fteid(0, GtpV2InterfaceType.S5S8_PGW_GTP_C.value(), 0x7777, pgwS5, null),
                GtpMessages.fteid(1, GtpV2InterfaceType.S5S8_PGW_GTP_C.value(), 0x7777, pgwS5, null));
        Answer answer = exchange(GtpMessages.v2CreateRequest("262420000006002", 0x11), response, new ArrayList<>());
        GtpControlEndpoint sender = answer.view().senderControlPlane();
        assertThat(sender.address()).isEqualTo(VIP);
        assertThat(fteid(answer, 1)).isEqualTo(sender);
    }

    @Test
    void aCombinedSgwPgwOnS11KeepsItsPgwFteidThoughAddressAndTeidAreTheSame() throws Exception {
        // One node for both: the same address and TEID, but S11/S4 SGW (11) in instance 0 and S5/S8
        // PGW (7) in instance 1, which is the MME's information (Table 7.2.2-1) and stays as it is.
        byte[] node = {10, 0, 0, 17};
        byte[] response = createResponse(
                GtpMessages.fteid(0, GtpV2InterfaceType.S11S4_SGW_GTP_C.value(), 0x4444, node, null),
                GtpMessages.fteid(1, GtpV2InterfaceType.S5S8_PGW_GTP_C.value(), 0x4444, node, null));
        Answer answer = exchange(GtpMessages.v2CreateRequest("262420000006005", 0x13), response, new ArrayList<>());
        assertThat(answer.view().senderControlPlane().address()).isEqualTo(VIP);
        assertThat(fteid(answer, 1)).isEqualTo(GtpControlEndpoint.of(0x4444, InetAddress.getByAddress(node)));
    }

    @Test
    void aPmipPgwFteidOfInstanceOneNamesNoGtpControlPlane() throws Exception {
        // Table 8.22-1: 9 is S5/S8 PGW PMIPv6; a PGW on PMIP has no GTP-C endpoint to learn.
        byte[] response = createResponse(
                GtpMessages.fteid(1, GtpV2InterfaceType.S5S8_PGW_PMIPV6.value(), 0x7777, new byte[] {10, 0, 0, 9}, null));
        exchange(GtpMessages.v2CreateRequest("262420000006003", 0x12), response, new ArrayList<>());
        assertThat(plugin.openSessions(pgw)).isZero();
    }

    @Test
    void anIndirectForwardingContextIsASessionOfItsOwnUntilItsDelete() throws Exception {
        // S11 handover (TS 29.274 §7.2.18, §7.2.19, §7.2.22): the SGW names a control-plane endpoint
        // for the forwarding context (Table 7.2.19-1), and the MME deletes it there.
        byte[] mme = SGW.getAddress().getAddress();
        byte[] sgwS11 = {10, 0, 0, 11};
        Answer created = exchange(GtpMessages.v2CreateRequest("262420000006004", 0x20),
                createResponse(GtpMessages.fteid(0, GtpV2InterfaceType.S11S4_SGW_GTP_C.value(), 0x1111, sgwS11, null)),
                new ArrayList<>());
        long session = created.view().senderControlPlane().teid();
        byte[] forwardingRequest = GtpMessages.v2(166, session, 0x21,
                GtpMessages.fteid(0, GtpV2InterfaceType.S11_MME_GTP_C.value(), 0x5555, mme, null));
        ByteArrayOutputStream ies = new ByteArrayOutputStream();
        ies.writeBytes(new byte[] {2, 0, 2, 0, 16, 0});
        ies.writeBytes(GtpMessages.fteid(0, GtpV2InterfaceType.S11S4_SGW_GTP_C.value(), 0x2222, sgwS11, null));
        List<byte[]> toSgw = new ArrayList<>();
        Answer forwarding = exchange(forwardingRequest, GtpMessages.v2(167, 0, 0x21, ies.toByteArray()), toSgw);
        assertThat(forwarding.view().cause()).isEqualTo(16); // Table 6.1-1 response: its Cause is read
        assertThat(forwarding.view().teid()).isEqualTo(0x5555); // the TEID the MME named in its request
        GtpControlEndpoint context = forwarding.view().senderControlPlane();
        assertThat(context.address()).isEqualTo(VIP);
        assertThat(context.teid()).isNotIn(session, 0x2222L);
        assertThat(plugin.openSessions(pgw)).isEqualTo(2);

        exchange(GtpMessages.v2(168, context.teid(), 0x22, new byte[0]), GtpMessages.v2(169, 0, 0x22,
                new byte[] {2, 0, 2, 0, 16, 0}), toSgw);
        assertThat(new GtpMessageView().wrap(Unpooled.wrappedBuffer(toSgw.get(1))).teid()).isEqualTo(0x2222);
        assertThat(plugin.openSessions(pgw)).isEqualTo(1); // the PDN connection stays

        exchange(GtpMessages.v2(36, session, 0x23, new byte[0]), GtpMessages.v2(37, 0, 0x23,
                new byte[] {2, 0, 2, 0, 16, 0}), toSgw);
        assertThat(new GtpMessageView().wrap(Unpooled.wrappedBuffer(toSgw.get(2))).teid()).isEqualTo(0x1111);
        assertThat(plugin.openSessions(pgw)).isZero();
    }

    private static byte[] createResponse(byte[]... fteids) {
        ByteArrayOutputStream ies = new ByteArrayOutputStream();
        ies.writeBytes(new byte[] {2, 0, 2, 0, 16, 0}); // Cause: request accepted
        for (byte[] f : fteids) {
            ies.writeBytes(f);
        }
        return GtpMessages.v2(33, 0, 1, ies.toByteArray());
    }

    private static GtpControlEndpoint fteid(Answer answer, int instance) throws Exception {
        ByteBuf buf = answer.view().v2().buffer();
        int ie = GtpV2Ies.indexOf(buf, answer.view().v2().bodyOffset(), answer.view().v2().endOffset(),
                GtpV2IeType.F_TEID.value(), instance);
        return GtpMessageView.fteidEndpoint(buf, ie);
    }

    private static int instanceOf(Answer answer, GtpControlEndpoint endpoint) throws Exception {
        int ie = answer.view().senderFteid();
        return answer.view().v2().buffer().getUnsignedByte(ie + 3) & 0x0F;
    }

    private static int fteidValue(Answer answer) throws Exception {
        return answer.view().senderFteid() + GtpV2Ies.IE_HEADER_LENGTH;
    }

    private static List<Integer> changedOctets(byte[] before, byte[] after) {
        assertThat(after).hasSameSizeAs(before);
        List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < before.length; i++) {
            if (before[i] != after[i]) {
                changed.add(i);
            }
        }
        return changed;
    }
}
