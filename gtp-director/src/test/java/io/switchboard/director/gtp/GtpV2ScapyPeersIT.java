package io.switchboard.director.gtp;

import static io.switchboard.director.gtp.ScapyGtpBed.GTP_C;
import static io.switchboard.director.gtp.ScapyGtpBed.REQUEST_ACCEPTED;
import static io.switchboard.director.gtp.ScapyGtpBed.S11S4_SGW_GTPC;
import static io.switchboard.director.gtp.ScapyGtpBed.S5S8_PGW_GTPC;
import static io.switchboard.director.gtp.ScapyGtpBed.assertAccepted;
import static io.switchboard.director.gtp.ScapyPeer.CREATE_SESSION_REQUEST;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.gtp.ScapyGtpBed.Created;
import io.switchboard.director.real.RealState;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * retransmits per §7.6; a cause-73 refusal is resent to the other PGW; a PGW that also sends the
 * identical instance 0 has both rewritten alike; a new SGW takes a session over (Modify Bearer with
 * its Sender F-TEID) and gets the PGW's requests. On S11 an MME does the same in front of two SGWs,
 * whose answers name their own S11 F-TEID in instance 0 and the PGW's S5/S8 F-TEID in instance 1,
 * which must be left alone.
 * Each peer checks the TEIDs and sequence numbers it gets itself and reports what it received; a
 * live capture on lo, decoded by tshark, shows the F-TEIDs the director wrote.
 */
class GtpV2ScapyPeersIT {

    /** TS 29.274 §8.22 Table 8.22-1. */
    private static final int S5S8_SGW_GTPC = 6;
    private static final int S11_MME_GTPC = 10;
    /** TS 29.274 Table 6.1-1. */
    private static final int CREATE_SESSION_RESPONSE = 33;
    private static final int MODIFY_BEARER_REQUEST = 34;
    private static final int DELETE_SESSION_REQUEST = 36;
    private static final int CREATE_BEARER_REQUEST = 95;
    private static final int CREATE_BEARER_RESPONSE = 96;
    private static final int UPDATE_BEARER_REQUEST = 97;
    private static final int DELETE_BEARER_REQUEST = 99;
    /** TS 29.274 Table 8.4-1. */
    private static final int NO_RESOURCES_AVAILABLE = 73;

    private static final String S5S8_VIP = "127.0.11.10";
    private static final String[] PGWS = {"127.0.11.2", "127.0.11.3"};
    private static final String SGW = "127.0.11.20";
    /** The SGW a session relocates to. */
    private static final String NEW_SGW = "127.0.11.21";
    private static final String S11_VIP = "127.0.11.11";
    private static final String[] S11_SGWS = {"127.0.11.4", "127.0.11.5"};
    private static final String MME = "127.0.11.30";
    /** The MME a session relocates to. */
    private static final String NEW_MME = "127.0.11.31";
    /** The PGW the S11 SGW stand-ins name in instance 1 (gtpv2_responder.py); nothing listens there. */
    private static final String S11_PGW = "127.0.11.99";

    private ScapyGtpBed bed;
    /** The bed's responders (PGWs on S5/S8, SGWs on S11) in farm order, and its requester. */
    private List<ScapyPeer> reals;
    private ScapyPeer requester;

    @TempDir
    Path dir;

    @BeforeAll
    static void peersCanRun() throws Exception {
        assertThat(ScapyPeer.available()).as("/usr/bin/python3 with scapy.contrib.gtp_v2 (python3-scapy, "
                + "installed by .ci/run)").isTrue();
    }

    @AfterEach
    void stop() throws Exception {
        if (bed != null) {
            bed.close();
        }
    }

    private void start(String interfaceName, String vip, String[] realAddresses, String requesterAddress)
            throws Exception {
        bed = new ScapyGtpBed(interfaceName, vip, dir);
        bed.start(realAddresses, requesterAddress);
        reals = bed.reals;
        requester = bed.requester;
    }

    // ---- S5/S8 -------------------------------------------------------------------------------------

    @Test
    void s5s8CreateModifyAndDeleteReachThePgwHoldingTheSessionUnderItsOwnTeid() throws Exception {
        start("s5s8", S5S8_VIP, PGWS, SGW);
        LoopbackCapture capture = bed.capture("s5s8-sessions");
        List<String> imsis = List.of("262420000011001", "262420000011002");
        List<Created> sessions = new ArrayList<>();
        for (String imsi : imsis) {
            sessions.add(bed.create(imsi));
        }
        assertThat(sessions.get(0).holder()).as("round robin: one IMSI per PGW").isNotSameAs(sessions.get(1).holder());
        for (ScapyPeer pgw : reals) {
            assertThat(bed.openSessions(pgw)).as("open sessions of %s", pgw).isEqualTo(1);
        }
        for (Created session : sessions) {
            assertThat(ScapyPeer.fteid(session.answer(), 0)).as("no instance 0 (Table 7.2.2-1: not sent on S5/S8)")
                    .isNull();
            JsonObject modified = requester.call("modify", "imsi", session.imsi());
            assertAccepted(modified, "Modify Bearer");
            assertThat(modified.getString("sent_to")).as("to the PGW F-TEID the director wrote")
                    .isEqualTo(S5S8_VIP + ":" + GTP_C);
            bed.assertReachedOnlyTheHolder(session, MODIFY_BEARER_REQUEST, modified);
        }
        for (Created session : sessions) {
            JsonObject deleted = requester.call("delete", "imsi", session.imsi());
            assertAccepted(deleted, "Delete Session");
            bed.assertReachedOnlyTheHolder(session, DELETE_SESSION_REQUEST, deleted);
            assertThat(session.holder().sessions()).as("%s ended the session", session.holder()).isEmpty();
        }
        bed.awaitNoOpenSessions();

        // tshark, reading the wire: the F-TEIDs the director wrote name it, with the TEIDs the peers used.
        List<GtpV2Frames.Frame> frames = capture.frames();
        for (Created session : sessions) {
            GtpV2Frames.Frame answer = only(frames, CREATE_SESSION_RESPONSE, S5S8_VIP, SGW,
                    session.requesterSequence());
            // TS 29.274 Table 7.2.2-1 (S5/S8): instance 1 names the PGW's control plane, now the director's.
            assertThat(answer.fteid(1)).as("instance 1 of the answer the SGW got").hasValue(
                    new GtpV2Frames.Fteid(1, S5S8_PGW_GTPC, session.directorTeid(), S5S8_VIP));
            assertThat(answer.fteid(0)).as("no instance 0: the PGW sent none, the director adds none").isEmpty();
            GtpV2Frames.Frame request = frames.stream().filter(f -> f.type() == CREATE_SESSION_REQUEST
                    && f.destination().equals(session.holderAddress())).filter(f -> f.fteid(0).isPresent()
                    && f.fteid(0).get().teid() == session.realFacingTeid()).findFirst().orElseThrow();
            // Table 7.2.1-1: instance 0 names the SGW's control plane, now the director's.
            assertThat(request.fteid(0)).as("instance 0 of the request the PGW got").hasValue(
                    new GtpV2Frames.Fteid(0, S5S8_SGW_GTPC, session.realFacingTeid(), S5S8_VIP));
            for (int type : new int[] {MODIFY_BEARER_REQUEST, DELETE_SESSION_REQUEST}) {
                assertThat(frames).filteredOn(f -> f.type() == type && f.destination().equals(session.holderAddress()))
                        .as("type %d requests to %s", type, session.holderAddress())
                        .anySatisfy(f -> assertThat(f.teid()).isEqualTo(session.realTeid()));
            }
        }
    }

    @Test
    void s5s8PgwInitiatedCreateUpdateAndDeleteBearerReachTheSgwUnderItsOwnTeid() throws Exception {
        start("s5s8", S5S8_VIP, PGWS, SGW);
        LoopbackCapture capture = bed.capture("s5s8-bearers");
        Created session = bed.create("262420000012001");
        int index = requester.received().size();
        JsonObject created = session.holder().call("create_bearer", "imsi", session.imsi());
        assertAccepted(created, "Create Bearer");
        assertThat(created.getString("sent_to")).as("to the SGW F-TEID the director wrote")
                .isEqualTo(S5S8_VIP + ":" + GTP_C);
        int bearer = created.getInteger("ebi");
        assertThat(bearer).as("the EBI the SGW assigned").isEqualTo(6);
        JsonObject updated = session.holder().call("update_bearer", "imsi", session.imsi(), "ebi", bearer);
        assertAccepted(updated, "Update Bearer");
        JsonObject deleted = session.holder().call("delete_bearer", "imsi", session.imsi(), "ebi", bearer);
        assertAccepted(deleted, "Delete Bearer");
        List<JsonObject> atSgw = requester.received().subList(index, requester.received().size());
        for (int type : new int[] {CREATE_BEARER_REQUEST, UPDATE_BEARER_REQUEST, DELETE_BEARER_REQUEST}) {
            List<JsonObject> requests = atSgw.stream().filter(m -> m.getInteger("type", -1) == type).toList();
            assertThat(requests).as("type %d requests at the SGW", type).hasSize(1);
            JsonObject request = requests.get(0);
            assertThat(request.getLong("teid")).as("under the SGW's own TEID").isEqualTo(session.requesterTeid());
            assertThat(request.getString("from")).as("relayed from the virtual address")
                    .isEqualTo(S5S8_VIP + ":" + GTP_C);
            assertThat(request.getJsonArray("errors")).as("the SGW's checks of type %d", type).isEmpty();
        }
        assertThat(requester.sessions().get(0).getJsonArray("bearers")).containsExactly(5);
        assertThat(bed.openSessions(session.holder())).as("a dedicated bearer's deletion leaves the session")
                .isEqualTo(1);
        assertAccepted(requester.call("delete", "imsi", session.imsi()), "Delete Session");
        bed.awaitNoOpenSessions();

        // The PGW deletes a whole PDN connection (Table 7.2.9.2-1: the Linked EBI): the session ends.
        Created second = bed.create("262420000012002");
        assertAccepted(second.holder().call("delete_bearer", "imsi", second.imsi(), "linked", true), "Delete Bearer");
        assertThat(requester.sessions()).as("the SGW released the PDN connection").isEmpty();
        bed.awaitNoOpenSessions();

        // tshark: the director's relays carry the SGW's TEID toward the SGW, the PGW's toward the PGW.
        List<GtpV2Frames.Frame> frames = capture.frames();
        for (int type : new int[] {CREATE_BEARER_REQUEST, UPDATE_BEARER_REQUEST, DELETE_BEARER_REQUEST}) {
            assertThat(frames).filteredOn(f -> f.type() == type && f.source().equals(S5S8_VIP)
                    && f.destination().equals(SGW)).as("type %d relayed to the SGW", type).isNotEmpty()
                    .allSatisfy(f -> assertThat(f.teid()).isIn(session.requesterTeid(), second.requesterTeid()));
            assertThat(frames).filteredOn(f -> f.type() == type + 1 && f.source().equals(S5S8_VIP))
                    .as("type %d relayed to the PGW", type + 1).isNotEmpty().allSatisfy(f -> {
                        assertThat(f.destination()).isIn(session.holderAddress(), second.holderAddress());
                        assertThat(f.cause()).isEqualTo(REQUEST_ACCEPTED);
                    });
        }
        assertThat(frames).filteredOn(f -> f.type() == CREATE_BEARER_RESPONSE && f.source().equals(S5S8_VIP))
                .singleElement().satisfies(f -> assertThat(f.teid()).isEqualTo(session.realTeid()));
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
        ScapyPeer holder = bed.holderOf(imsi);
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
        assertThat(bed.openSessions(holder)).isEqualTo(1);

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
        assertThat(bed.counter("switchboard.real.requests.retransmitted")).isEqualTo(1);

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
        bed.awaitNoOpenSessions();
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
                .as("with the director TEID the refused one carried")
                .isEqualTo(ScapyPeer.fteid(refusal, 0).getLong("teid"));
        assertThat(bed.holderOf(refused)).isSameAs(accepting);
        assertThat(bed.real(0).state()).isEqualTo(RealState.FAILED);
        for (String imsi : imsis) {
            assertAccepted(requester.call("delete", "imsi", imsi), "Delete Session");
        }
        assertThat(accepting.sessions()).isEmpty();
        bed.awaitNoOpenSessions();
    }

    @Test
    void s5s8APgwThatAlsoSendsTheIdenticalSenderFteidHasBothRewrittenAlike() throws Exception {
        start("s5s8", S5S8_VIP, PGWS, SGW);
        for (ScapyPeer pgw : reals) {
            pgw.call("sender_fteid", "on", true);
        }
        Created session = bed.create("262420000016001");
        JsonObject sender = ScapyPeer.fteid(session.answer(), 0);
        assertThat(sender).as("the PGW's instance 0, relayed").isNotNull();
        assertThat(sender.getString("ipv4")).isEqualTo(S5S8_VIP);
        assertThat(sender.getLong("teid")).as("the same director TEID as instance 1").isEqualTo(session.directorTeid());
        JsonObject modified = requester.call("modify", "imsi", session.imsi());
        assertAccepted(modified, "Modify Bearer");
        bed.assertReachedOnlyTheHolder(session, MODIFY_BEARER_REQUEST, modified);
        assertAccepted(session.holder().call("create_bearer", "imsi", session.imsi()), "Create Bearer");
        assertAccepted(requester.call("delete", "imsi", session.imsi()), "Delete Session");
        bed.awaitNoOpenSessions();
    }

    @Test
    void s5s8AnSgwRelocationTakesThePgwsRequestsToTheNewSgw() throws Exception {
        relocationTakesTheRealsRequestsToTheNewRequester("s5s8", S5S8_VIP, PGWS, SGW, NEW_SGW);
    }

    /**
     * A new requester (SGW on S5/S8, MME on S11) takes a session over: Table 7.2.7-1, its Modify
     * Bearer Request names it in the Sender F-TEID; the real's requests then reach it, under its TEID.
     */
    private void relocationTakesTheRealsRequestsToTheNewRequester(String interfaceName, String vip,
            String[] realAddresses, String requesterAddress, String newAddress) throws Exception {
        start(interfaceName, vip, realAddresses, requesterAddress);
        Created session = bed.create("262420000017001");
        ScapyPeer moved = bed.peer(interfaceName + "-new-requester", "gtpv2_requester.py", "--interface",
                interfaceName, "--address", newAddress, "--peer", vip, "--teid-base", "0x30000000", "--first-seq",
                "0x200000");
        long newTeid = moved.call("adopt", "imsi", session.imsi(), "peer_teid", session.directorTeid(),
                "peer_address", vip).getLong("own_teid");
        JsonObject modified = moved.call("modify", "imsi", session.imsi(), "relocate", true);
        assertAccepted(modified, "Modify Bearer with relocation"); // answered under the new requester's TEID
        JsonObject atReal = session.holder().received(MODIFY_BEARER_REQUEST).get(0);
        assertThat(atReal.getLong("teid")).isEqualTo(session.realTeid());
        assertThat(ScapyPeer.fteid(atReal, 0).getString("ipv4")).as("the real still sees the director")
                .isEqualTo(vip);
        JsonObject updated = session.holder().call("update_bearer", "imsi", session.imsi(), "ebi", 5);
        assertAccepted(updated, "Update Bearer");
        assertThat(moved.received(UPDATE_BEARER_REQUEST)).singleElement().satisfies(m -> {
            assertThat(m.getLong("teid")).as("under the new requester's TEID").isEqualTo(newTeid);
            assertThat(m.getString("from")).isEqualTo(vip + ":" + GTP_C);
            assertThat(m.getJsonArray("errors")).isEmpty();
        });
        assertThat(requester.received(UPDATE_BEARER_REQUEST)).as("nothing for the old requester").isEmpty();
        assertAccepted(moved.call("delete", "imsi", session.imsi()), "Delete Session from the new requester");
        assertThat(session.holder().received(DELETE_SESSION_REQUEST)).singleElement()
                .satisfies(m -> assertThat(m.getLong("teid")).isEqualTo(session.realTeid()));
        bed.awaitNoOpenSessions();
    }

    // ---- S11 ---------------------------------------------------------------------------------------

    @Test
    void s11AnMmeRelocationTakesTheSgwsRequestsToTheNewMme() throws Exception {
        relocationTakesTheRealsRequestsToTheNewRequester("s11", S11_VIP, S11_SGWS, MME, NEW_MME);
    }

    @Test
    void s11TheSgwsInstance0IsRewrittenAndThePgwsInstance1LeftAlone() throws Exception {
        start("s11", S11_VIP, S11_SGWS, MME);
        LoopbackCapture capture = bed.capture("s11-sessions");
        String imsi = "262420000015001";
        Created session = bed.create(imsi);
        JsonObject pgw = ScapyPeer.fteid(session.answer(), 1);
        assertThat(pgw).as("instance 1: the PGW's S5/S8 F-TEID, information for the MME").isNotNull();
        assertThat(pgw.getString("ipv4")).isEqualTo(S11_PGW);
        assertThat(pgw.getInteger("interface")).isEqualTo(S5S8_PGW_GTPC);
        JsonObject modified = requester.call("modify", "imsi", imsi);
        assertAccepted(modified, "Modify Bearer");
        bed.assertReachedOnlyTheHolder(session, MODIFY_BEARER_REQUEST, modified);
        JsonObject bearer = session.holder().call("create_bearer", "imsi", imsi);
        assertAccepted(bearer, "Create Bearer");
        assertThat(requester.received(CREATE_BEARER_REQUEST)).singleElement()
                .satisfies(m -> assertThat(m.getLong("teid")).isEqualTo(session.requesterTeid()));
        assertAccepted(requester.call("delete", "imsi", imsi), "Delete Session");
        bed.awaitNoOpenSessions();

        List<GtpV2Frames.Frame> frames = capture.frames();
        GtpV2Frames.Frame answer = only(frames, CREATE_SESSION_RESPONSE, S11_VIP, MME, session.requesterSequence());
        GtpV2Frames.Frame original = frames.stream().filter(f -> f.type() == CREATE_SESSION_RESPONSE
                && f.source().equals(session.holderAddress())).findFirst().orElseThrow();
        // TS 29.274 Table 7.2.2-1 (S11): instance 0 is the SGW's S11 F-TEID, now the director's.
        assertThat(answer.fteid(0)).hasValue(new GtpV2Frames.Fteid(0, S11S4_SGW_GTPC, session.directorTeid(), S11_VIP));
        assertThat(original.fteid(0).orElseThrow().teid()).isEqualTo(session.realTeid());
        // Instance 1, the PGW's, exactly as the SGW sent it.
        assertThat(answer.fteid(1)).isEqualTo(original.fteid(1)).isPresent();
        assertThat(answer.fteid(1).get().ipv4()).isEqualTo(S11_PGW);
        GtpV2Frames.Frame request = frames.stream().filter(f -> f.type() == CREATE_SESSION_REQUEST
                && f.destination().equals(session.holderAddress())).findFirst().orElseThrow();
        assertThat(request.fteid(0))
                .hasValue(new GtpV2Frames.Fteid(0, S11_MME_GTPC, session.realFacingTeid(), S11_VIP));
        assertThat(request.fteid(1).orElseThrow().ipv4()).as("the PGW address the MME chose, untouched")
                .isEqualTo(S11_PGW);
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private static GtpV2Frames.Frame only(List<GtpV2Frames.Frame> frames, int type, String from, String to,
            int sequence) {
        List<GtpV2Frames.Frame> matching = frames.stream().filter(f -> f.type() == type && f.source().equals(from)
                && f.sourcePort() == GTP_C && f.destination().equals(to) && f.sequence() == sequence).toList();
        assertThat(matching).as("type %d %s → %s, sequence %d, in the capture", type, from, to, sequence).hasSize(1);
        return matching.get(0);
    }
}
