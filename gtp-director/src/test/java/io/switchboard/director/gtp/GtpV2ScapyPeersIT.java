package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.ServiceKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gtp-inspect} (IMSI sticky, round robin) between GTPv2-C peers that are not the project's
 * code: scapy's GTPv2 layers, driven by the programs in {@code src/test/resources/scapy}, written
 * from TS 29.274's tables. On S5/S8 two PGWs answer Create Session Requests as Table 7.2.2-1 says,
 * naming their control plane only in the F-TEID of instance 1 (interface type 7), and an SGW creates,
 * modifies and deletes sessions, answers the PGWs' Create / Update / Delete Bearer Requests, and
 * retransmits per §7.6. On S11 an MME does the same in front of two SGWs, whose answers name their
 * own S11 F-TEID in instance 0 and the PGW's S5/S8 F-TEID in instance 1, which must be left alone.
 * Each peer checks the TEIDs and sequence numbers it gets itself and reports what it received; a
 * live capture on lo, decoded by tshark, shows the F-TEIDs the director wrote.
 */
class GtpV2ScapyPeersIT {

    private static final int GTP_C = 2123;
    /** TS 29.274 §8.22 Table 8.22-1. */
    private static final int S5S8_SGW_GTPC = 6;
    private static final int S5S8_PGW_GTPC = 7;
    private static final int S11_MME_GTPC = 10;
    private static final int S11S4_SGW_GTPC = 11;
    /** TS 29.274 Table 6.1-1. */
    private static final int CREATE_SESSION_REQUEST = 32;
    private static final int CREATE_SESSION_RESPONSE = 33;
    private static final int MODIFY_BEARER_REQUEST = 34;
    private static final int DELETE_SESSION_REQUEST = 36;
    private static final int CREATE_BEARER_REQUEST = 95;
    private static final int CREATE_BEARER_RESPONSE = 96;
    private static final int UPDATE_BEARER_REQUEST = 97;
    private static final int DELETE_BEARER_REQUEST = 99;
    /** TS 29.274 Table 8.4-1. */
    private static final int REQUEST_ACCEPTED = 16;
    private static final int NO_RESOURCES_AVAILABLE = 73;

    private static final String S5S8_VIP = "127.0.11.10";
    private static final String[] PGWS = {"127.0.11.2", "127.0.11.3"};
    private static final String SGW = "127.0.11.20";
    private static final String S11_VIP = "127.0.11.11";
    private static final String[] S11_SGWS = {"127.0.11.4", "127.0.11.5"};
    private static final String MME = "127.0.11.30";
    /** The PGW the S11 SGW stand-ins name in instance 1 (gtpv2_responder.py); nothing listens there. */
    private static final String S11_PGW = "127.0.11.99";
    /** Every address of the test, and nothing else: what the capture on lo keeps. */
    private static final String CAPTURE_FILTER = "udp and net 127.0.11.0/24";
    /** Where the capture's end marker goes: in the filter, nothing listening (the discard port). */
    private static final InetSocketAddress CAPTURE_MARKER = new InetSocketAddress("127.0.11.250", 9);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private GtpTestBed bed;
    /** The responders (PGWs on S5/S8, SGWs on S11) in farm order, and the requester. */
    private final List<ScapyPeer> reals = new ArrayList<>();
    private ScapyPeer requester;
    private String farm;

    @TempDir
    Path dir;

    @BeforeAll
    static void peersCanRun() throws Exception {
        assertThat(ScapyPeer.available()).as("/usr/bin/python3 with scapy.contrib.gtp_v2 (python3-scapy, "
                + "installed by .ci/run)").isTrue();
    }

    @AfterEach
    void stop() throws Exception {
        Exception first = null;
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * The director with one {@code gtp-inspect} virtual server on {@code vip}:2123 in front of one
     * responder per address, and the requester, all on port 2123 of their own address (TS 29.274
     * §4.4.2.1: a peer's requests go to port 2123 of the address its F-TEID names).
     */
    private void start(String interfaceName, String vip, String[] realAddresses, String requesterAddress)
            throws Exception {
        farm = interfaceName;
        List<RealConfig> configs = new ArrayList<>();
        for (int i = 0; i < realAddresses.length; i++) {
            ScapyPeer real = peer(interfaceName + "-real-" + i, "gtpv2_responder.py", "--interface", interfaceName,
                    "--address", realAddresses[i], "--teid-base", "0x" + Integer.toHexString(0x10000000 * (i + 1)));
            reals.add(real);
            configs.add(new RealConfig(InetAddress.getByName(realAddresses[i]), GTP_C, 1, OptionalInt.empty(), true));
        }
        // A refusing real stays failed for the rest of the test.
        FarmConfig farmConfig = new FarmConfig(farm, PredictorKind.ROUNDROBIN,
                new FailureDetection(100, 1, Duration.ofMinutes(10)), configs, Optional.empty());
        VirtualServerConfig server = GtpTestBed.server(farm, new InetSocketAddress(vip, GTP_C),
                ServiceKind.GTP_INSPECT, farm, GtpOptions.DEFAULT);
        bed = GtpTestBed.start(Map.of(), Map.of(farm, farmConfig), Map.of(farm, server), new GtpInspectService(),
                registry);
        started.push(bed);
        requester = peer(interfaceName + "-requester", "gtpv2_requester.py", "--interface", interfaceName,
                "--address", requesterAddress, "--peer", vip);
    }

    private ScapyPeer peer(String name, String script, String... arguments) throws Exception {
        ScapyPeer peer = new ScapyPeer(name, script, dir, arguments);
        started.push(peer);
        return peer;
    }

    private LoopbackCapture capture(String name) throws Exception {
        assertThat(LoopbackCapture.available()).as("tshark and root, to capture on lo (.ci/run runs as root)")
                .isTrue();
        LoopbackCapture capture = LoopbackCapture.start(dir.resolve(name + ".pcapng"), CAPTURE_FILTER, CAPTURE_MARKER);
        started.push(capture);
        return capture;
    }

    // ---- S5/S8 -------------------------------------------------------------------------------------

    @Test
    void s5s8CreateModifyAndDeleteReachThePgwHoldingTheSessionUnderItsOwnTeid() throws Exception {
        start("s5s8", S5S8_VIP, PGWS, SGW);
        LoopbackCapture capture = capture("s5s8-sessions");
        List<String> imsis = List.of("262420000011001", "262420000011002");
        List<Created> sessions = new ArrayList<>();
        for (String imsi : imsis) {
            sessions.add(create(imsi));
        }
        assertThat(sessions.get(0).holder).as("round robin: one IMSI per PGW").isNotSameAs(sessions.get(1).holder);
        for (ScapyPeer pgw : reals) {
            assertThat(openSessions(pgw)).as("open sessions of %s", pgw).isEqualTo(1);
        }
        for (Created session : sessions) {
            JsonObject modified = requester.call("modify", "imsi", session.imsi);
            assertAccepted(modified, "Modify Bearer");
            assertThat(modified.getString("sent_to")).as("to the PGW F-TEID the director wrote")
                    .isEqualTo(S5S8_VIP + ":" + GTP_C);
            assertReachedOnlyTheHolder(session, MODIFY_BEARER_REQUEST, modified);
        }
        for (Created session : sessions) {
            JsonObject deleted = requester.call("delete", "imsi", session.imsi);
            assertAccepted(deleted, "Delete Session");
            assertReachedOnlyTheHolder(session, DELETE_SESSION_REQUEST, deleted);
            assertThat(session.holder.sessions()).as("%s ended the session", session.holder).isEmpty();
        }
        awaitNoOpenSessions();

        // tshark, reading the wire: the F-TEIDs the director wrote name it, with the TEIDs the peers used.
        List<GtpV2Frames.Frame> frames = capture.frames();
        for (Created session : sessions) {
            GtpV2Frames.Frame answer = only(frames, CREATE_SESSION_RESPONSE, S5S8_VIP, SGW, session.requesterSequence);
            // TS 29.274 Table 7.2.2-1 (S5/S8): instance 1 names the PGW's control plane, now the director's.
            assertThat(answer.fteid(1)).as("instance 1 of the answer the SGW got").hasValue(
                    new GtpV2Frames.Fteid(1, S5S8_PGW_GTPC, session.directorTeid, S5S8_VIP));
            assertThat(answer.fteid(0)).as("no instance 0: the PGW sent none, the director adds none").isEmpty();
            GtpV2Frames.Frame request = frames.stream().filter(f -> f.type() == CREATE_SESSION_REQUEST
                    && f.destination().equals(session.holderAddress)).filter(f -> f.fteid(0).isPresent()
                    && f.fteid(0).get().teid() == session.realFacingTeid).findFirst().orElseThrow();
            // Table 7.2.1-1: instance 0 names the SGW's control plane, now the director's.
            assertThat(request.fteid(0)).as("instance 0 of the request the PGW got").hasValue(
                    new GtpV2Frames.Fteid(0, S5S8_SGW_GTPC, session.realFacingTeid, S5S8_VIP));
            for (int type : new int[] {MODIFY_BEARER_REQUEST, DELETE_SESSION_REQUEST}) {
                assertThat(frames).filteredOn(f -> f.type() == type && f.destination().equals(session.holderAddress))
                        .as("type %d requests to %s", type, session.holderAddress)
                        .anySatisfy(f -> assertThat(f.teid()).isEqualTo(session.realTeid));
            }
        }
    }

    @Test
    void s5s8PgwInitiatedCreateUpdateAndDeleteBearerReachTheSgwUnderItsOwnTeid() throws Exception {
        start("s5s8", S5S8_VIP, PGWS, SGW);
        LoopbackCapture capture = capture("s5s8-bearers");
        Created session = create("262420000012001");
        int index = requester.received().size();
        JsonObject created = session.holder.call("create_bearer", "imsi", session.imsi);
        assertAccepted(created, "Create Bearer");
        assertThat(created.getString("sent_to")).as("to the SGW F-TEID the director wrote")
                .isEqualTo(S5S8_VIP + ":" + GTP_C);
        int bearer = created.getInteger("ebi");
        assertThat(bearer).as("the EBI the SGW assigned").isEqualTo(6);
        JsonObject updated = session.holder.call("update_bearer", "imsi", session.imsi, "ebi", bearer);
        assertAccepted(updated, "Update Bearer");
        JsonObject deleted = session.holder.call("delete_bearer", "imsi", session.imsi, "ebi", bearer);
        assertAccepted(deleted, "Delete Bearer");
        List<JsonObject> atSgw = requester.received().subList(index, requester.received().size());
        for (int type : new int[] {CREATE_BEARER_REQUEST, UPDATE_BEARER_REQUEST, DELETE_BEARER_REQUEST}) {
            List<JsonObject> requests = atSgw.stream().filter(m -> m.getInteger("type", -1) == type).toList();
            assertThat(requests).as("type %d requests at the SGW", type).hasSize(1);
            JsonObject request = requests.get(0);
            assertThat(request.getLong("teid")).as("under the SGW's own TEID").isEqualTo(session.requesterTeid);
            assertThat(request.getString("from")).as("relayed from the virtual address")
                    .isEqualTo(S5S8_VIP + ":" + GTP_C);
            assertThat(request.getJsonArray("errors")).as("the SGW's checks of type %d", type).isEmpty();
        }
        assertThat(requester.sessions().get(0).getJsonArray("bearers")).containsExactly(5);
        assertThat(openSessions(session.holder)).as("a dedicated bearer's deletion leaves the session").isEqualTo(1);
        assertAccepted(requester.call("delete", "imsi", session.imsi), "Delete Session");
        awaitNoOpenSessions();

        // The PGW deletes a whole PDN connection (Table 7.2.9.2-1: the Linked EBI): the session ends.
        Created second = create("262420000012002");
        assertAccepted(second.holder.call("delete_bearer", "imsi", second.imsi, "linked", true), "Delete Bearer");
        assertThat(requester.sessions()).as("the SGW released the PDN connection").isEmpty();
        awaitNoOpenSessions();

        // tshark: the director's relays carry the SGW's TEID toward the SGW, the PGW's toward the PGW.
        List<GtpV2Frames.Frame> frames = capture.frames();
        for (int type : new int[] {CREATE_BEARER_REQUEST, UPDATE_BEARER_REQUEST, DELETE_BEARER_REQUEST}) {
            assertThat(frames).filteredOn(f -> f.type() == type && f.source().equals(S5S8_VIP)
                    && f.destination().equals(SGW)).as("type %d relayed to the SGW", type).isNotEmpty()
                    .allSatisfy(f -> assertThat(f.teid()).isIn(session.requesterTeid, second.requesterTeid));
            assertThat(frames).filteredOn(f -> f.type() == type + 1 && f.source().equals(S5S8_VIP))
                    .as("type %d relayed to the PGW", type + 1).isNotEmpty().allSatisfy(f -> {
                        assertThat(f.destination()).isIn(session.holderAddress, second.holderAddress);
                        assertThat(f.cause()).isEqualTo(REQUEST_ACCEPTED);
                    });
        }
        assertThat(frames).filteredOn(f -> f.type() == CREATE_BEARER_RESPONSE && f.source().equals(S5S8_VIP))
                .singleElement().satisfies(f -> assertThat(f.teid()).isEqualTo(session.realTeid));
    }

    @Test
    void s5s8RetransmissionsReachTheSameBackendAndGetOneAnswer() throws Exception {
        start("s5s8", S5S8_VIP, PGWS, SGW);
        for (ScapyPeer pgw : reals) {
            pgw.call("drop_answers", "count", 1); // the first answer is lost (whichever PGW gets the create)
        }
        String imsi = "262420000013001";
        JsonObject first = requester.call("create", "imsi", imsi);
        assertAccepted(first, "Create Session");
        assertThat(first.getInteger("tries")).as("the SGW retransmitted once (§7.6)").isEqualTo(2);
        ScapyPeer holder = holderOf(imsi);
        ScapyPeer other = reals.get(1 - reals.indexOf(holder));
        other.call("drop_answers", "count", 0);
        List<JsonObject> creates = holder.received(CREATE_SESSION_REQUEST);
        assertThat(creates).as("the create and its retransmission, at the same PGW").hasSize(2);
        assertThat(creates.get(1).getInteger("seq")).as("the same sequence number")
                .isEqualTo(creates.get(0).getInteger("seq"));
        assertThat(creates.get(1).getString("from")).isEqualTo(creates.get(0).getString("from"));
        assertThat(creates.get(1).getBoolean("duplicate")).as("the PGW saw a retransmission").isTrue();
        assertThat(other.received(CREATE_SESSION_REQUEST)).isEmpty();
        assertThat(holder.sessions()).as("one session, not two").hasSize(1);
        requester.awaitOneAnswer(first.getInteger("seq"));
        assertThat(openSessions(holder)).isEqualTo(1);

        // The PGW's Create Bearer Request: the SGW's first answer is lost, the PGW retransmits.
        requester.call("drop_answers", "count", 1);
        JsonObject bearer = holder.call("create_bearer", "imsi", imsi);
        assertAccepted(bearer, "Create Bearer");
        assertThat(bearer.getInteger("tries")).isEqualTo(2);
        List<JsonObject> bearerRequests = requester.received(CREATE_BEARER_REQUEST);
        assertThat(bearerRequests).as("relayed twice, under one director sequence number").hasSize(2);
        assertThat(bearerRequests.get(1).getInteger("seq")).isEqualTo(bearerRequests.get(0).getInteger("seq"));
        assertThat(bearerRequests.get(1).getBoolean("duplicate")).isTrue();
        assertThat(requester.sessions().get(0).getJsonArray("bearers")).as("one bearer created").containsExactly(5, 6);
        holder.awaitOneAnswer(bearer.getInteger("seq"));
        assertThat(counter("switchboard.gtp.relayed.retransmitted")).isEqualTo(1);

        // A Modify Bearer Request whose answer is lost.
        holder.call("drop_answers", "count", 1);
        JsonObject modified = requester.call("modify", "imsi", imsi);
        assertAccepted(modified, "Modify Bearer");
        assertThat(modified.getInteger("tries")).isEqualTo(2);
        List<JsonObject> modifies = holder.received(MODIFY_BEARER_REQUEST);
        assertThat(modifies).hasSize(2);
        assertThat(modifies.get(1).getInteger("seq")).isEqualTo(modifies.get(0).getInteger("seq"));
        requester.awaitOneAnswer(modified.getInteger("seq"));

        assertAccepted(requester.call("delete", "imsi", imsi), "Delete Session");
        awaitNoOpenSessions();
    }

    @Test
    void s5s8CreateRefusedWithCause73IsResentToTheOtherPgwAndTheSgwSeesOneAnswer() throws Exception {
        start("s5s8", S5S8_VIP, PGWS, SGW);
        ScapyPeer refusing = reals.get(0);
        ScapyPeer accepting = reals.get(1);
        refusing.call("refuse", "count", 1, "cause", NO_RESOURCES_AVAILABLE);
        String refused = null;
        List<String> imsis = new ArrayList<>();
        for (int i = 0; i < 2 && refused == null; i++) {
            String imsi = "26242000001400" + i;
            imsis.add(imsi);
            JsonObject created = requester.call("create", "imsi", imsi);
            assertAccepted(created, "Create Session");
            assertThat(created.getInteger("tries")).as("the SGW did not need to retransmit").isEqualTo(1);
            requester.awaitOneAnswer(created.getInteger("seq"));
            if (!refusing.createsFor(imsi).isEmpty()) {
                refused = imsi;
            }
        }
        assertThat(refused).as("the refusing PGW was tried").isNotNull();
        JsonObject refusal = refusing.createsFor(refused).get(0);
        assertThat(refusal.getInteger("refused")).isEqualTo(NO_RESOURCES_AVAILABLE);
        List<JsonObject> resent = accepting.createsFor(refused);
        assertThat(resent).as("resent to the other PGW").hasSize(1);
        assertThat(ScapyPeer.fteid(resent.get(0), 0).getLong("teid"))
                .as("with the director TEID the refused one carried").isEqualTo(ScapyPeer.fteid(refusal, 0).getLong("teid"));
        assertThat(holderOf(refused)).isSameAs(accepting);
        assertThat(real(0).state()).isEqualTo(RealState.FAILED);
        for (String imsi : imsis) {
            assertAccepted(requester.call("delete", "imsi", imsi), "Delete Session");
        }
        assertThat(accepting.sessions()).isEmpty();
        awaitNoOpenSessions();
    }

    // ---- S11 ---------------------------------------------------------------------------------------

    @Test
    void s11TheSgwsInstance0IsRewrittenAndThePgwsInstance1LeftAlone() throws Exception {
        start("s11", S11_VIP, S11_SGWS, MME);
        LoopbackCapture capture = capture("s11-sessions");
        String imsi = "262420000015001";
        Created session = create(imsi);
        JsonObject pgw = ScapyPeer.fteid(session.answer, 1);
        assertThat(pgw).as("instance 1: the PGW's S5/S8 F-TEID, information for the MME").isNotNull();
        assertThat(pgw.getString("ipv4")).isEqualTo(S11_PGW);
        assertThat(pgw.getInteger("interface")).isEqualTo(S5S8_PGW_GTPC);
        JsonObject modified = requester.call("modify", "imsi", imsi);
        assertAccepted(modified, "Modify Bearer");
        assertReachedOnlyTheHolder(session, MODIFY_BEARER_REQUEST, modified);
        JsonObject bearer = session.holder.call("create_bearer", "imsi", imsi);
        assertAccepted(bearer, "Create Bearer");
        assertThat(requester.received(CREATE_BEARER_REQUEST)).singleElement()
                .satisfies(m -> assertThat(m.getLong("teid")).isEqualTo(session.requesterTeid));
        assertAccepted(requester.call("delete", "imsi", imsi), "Delete Session");
        awaitNoOpenSessions();

        List<GtpV2Frames.Frame> frames = capture.frames();
        GtpV2Frames.Frame answer = only(frames, CREATE_SESSION_RESPONSE, S11_VIP, MME, session.requesterSequence);
        GtpV2Frames.Frame original = frames.stream().filter(f -> f.type() == CREATE_SESSION_RESPONSE
                && f.source().equals(session.holderAddress)).findFirst().orElseThrow();
        // TS 29.274 Table 7.2.2-1 (S11): instance 0 is the SGW's S11 F-TEID, now the director's.
        assertThat(answer.fteid(0)).hasValue(new GtpV2Frames.Fteid(0, S11S4_SGW_GTPC, session.directorTeid, S11_VIP));
        assertThat(original.fteid(0).orElseThrow().teid()).isEqualTo(session.realTeid);
        // Instance 1, the PGW's, exactly as the SGW sent it.
        assertThat(answer.fteid(1)).isEqualTo(original.fteid(1)).isPresent();
        assertThat(answer.fteid(1).get().ipv4()).isEqualTo(S11_PGW);
        GtpV2Frames.Frame request = frames.stream().filter(f -> f.type() == CREATE_SESSION_REQUEST
                && f.destination().equals(session.holderAddress)).findFirst().orElseThrow();
        assertThat(request.fteid(0)).hasValue(new GtpV2Frames.Fteid(0, S11_MME_GTPC, session.realFacingTeid, S11_VIP));
        assertThat(request.fteid(1).orElseThrow().ipv4()).as("the PGW address the MME chose, untouched")
                .isEqualTo(S11_PGW);
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /**
     * A session as both sides know it.
     *
     * @param directorTeid    the TEID the requester got for the responder's side (the director's)
     * @param realFacingTeid  the TEID the responder got for the requester's side (the director's)
     * @param realTeid        the responder's own
     * @param requesterTeid   the requester's own
     */
    private record Created(String imsi, ScapyPeer holder, String holderAddress, JsonObject answer,
            int requesterSequence, long directorTeid, long realFacingTeid, long realTeid, long requesterTeid) {
    }

    /**
     * Creates a session; checks the answer names the director (TS 29.274 Table 7.2.2-1: instance 1 on
     * S5/S8, instance 0 on S11) and the create the responder got names it too (instance 0).
     */
    private Created create(String imsi) throws Exception {
        boolean s5s8 = farm.equals("s5s8");
        String vip = s5s8 ? S5S8_VIP : S11_VIP;
        JsonObject result = requester.call("create", "imsi", imsi);
        assertAccepted(result, "Create Session of " + imsi);
        JsonObject answer = result.getJsonObject("response");
        JsonObject control = ScapyPeer.fteid(answer, s5s8 ? 1 : 0);
        assertThat(control).as("the responder's control-plane F-TEID in the answer").isNotNull();
        assertThat(control.getInteger("interface")).isEqualTo(s5s8 ? S5S8_PGW_GTPC : S11S4_SGW_GTPC);
        assertThat(control.getString("ipv4")).as("the director's address, not the responder's").isEqualTo(vip);
        if (s5s8) {
            assertThat(ScapyPeer.fteid(answer, 0)).as("no instance 0 (Table 7.2.2-1: not sent on S5/S8)").isNull();
        }
        ScapyPeer holder = holderOf(imsi);
        JsonObject held = holder.sessions().stream().filter(s -> imsi.equals(s.getString("imsi"))).findFirst()
                .orElseThrow();
        assertThat(held.getString("peer_address")).as("the requester address the responder learnt: the director's")
                .isEqualTo(vip);
        long requesterTeid = result.getLong("own_teid");
        long realFacing = held.getLong("peer_teid");
        long realTeid = held.getLong("teid");
        assertThat(realFacing).as("a director TEID, not the requester's").isNotEqualTo(requesterTeid);
        assertThat(control.getLong("teid")).as("a director TEID, not the responder's").isNotEqualTo(realTeid);
        JsonObject request = holder.createsFor(imsi).get(0);
        assertThat(request.getJsonArray("errors")).as("the responder's checks of the create").isEmpty();
        return new Created(imsi, holder, holder.ready().getString("address"), answer, result.getInteger("seq"),
                control.getLong("teid"), realFacing, realTeid, requesterTeid);
    }

    private static void assertAccepted(JsonObject result, String what) {
        assertThat(result.getJsonArray("errors")).as("%s: the peer's own checks (TEIDs, sequence, cause), "
                + "result %s", what, result.encode()).isEmpty();
        assertThat(result.getJsonObject("response")).as(what).isNotNull();
        assertThat(ScapyPeer.cause(result.getJsonObject("response"))).as("%s cause", what).isEqualTo(REQUEST_ACCEPTED);
    }

    /** The requester's request of {@code type} reached the session's responder only, under its TEID. */
    private void assertReachedOnlyTheHolder(Created session, int type, JsonObject result) throws Exception {
        assertThat(result.getLong("sent_teid")).as("sent under the director's TEID").isEqualTo(session.directorTeid);
        List<JsonObject> got = session.holder.received(type);
        assertThat(got).as("type %d at %s", type, session.holder).isNotEmpty();
        JsonObject last = got.get(got.size() - 1);
        assertThat(last.getLong("teid")).as("under the responder's own TEID").isEqualTo(session.realTeid);
        assertThat(last.getString("from")).as("through the director").doesNotStartWith(requesterAddress() + ":");
        assertThat(last.getJsonArray("errors")).as("the responder's checks").isEmpty();
        for (ScapyPeer other : reals) {
            if (other != session.holder) {
                assertThat(other.received(type)).filteredOn(m -> m.getLong("teid") == session.realTeid)
                        .as("type %d at %s", type, other).isEmpty();
            }
        }
    }

    private String requesterAddress() {
        return requester.ready().getString("address");
    }

    /** The responder holding the IMSI's session. */
    private ScapyPeer holderOf(String imsi) throws Exception {
        List<ScapyPeer> holders = new ArrayList<>();
        for (ScapyPeer real : reals) {
            if (real.sessions().stream().anyMatch(s -> imsi.equals(s.getString("imsi")))) {
                holders.add(real);
            }
        }
        assertThat(holders).as("responders holding %s", imsi).hasSize(1);
        return holders.get(0);
    }

    private static GtpV2Frames.Frame only(List<GtpV2Frames.Frame> frames, int type, String from, String to,
            int sequence) {
        List<GtpV2Frames.Frame> matching = frames.stream().filter(f -> f.type() == type && f.source().equals(from)
                && f.sourcePort() == GTP_C && f.destination().equals(to) && f.sequence() == sequence).toList();
        assertThat(matching).as("type %d %s → %s, sequence %d, in the capture", type, from, to, sequence).hasSize(1);
        return matching.get(0);
    }

    private RealServer real(int index) {
        return bed.director.farms().farm(farm).reals().get(index);
    }

    private int openSessions(ScapyPeer responder) {
        RealServer real = real(reals.indexOf(responder));
        Gauge gauge = registry.get("switchboard.gtp.sessions.open").tag("real", real.id()).gauge();
        return (int) gauge.value();
    }

    private void awaitNoOpenSessions() {
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            for (ScapyPeer responder : reals) {
                assertThat(openSessions(responder)).as("open sessions of %s", responder).isZero();
            }
            assertThat(((GtpInspectPlugin) bed.director.virtualServers().get(farm).plugin()).sessionTable()).isEmpty();
        });
    }

    private double counter(String name) {
        Counter c = registry.find(name).counter();
        return c == null ? 0 : c.count();
    }
}
