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
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
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

/**
 * What {@link GtpV2ScapyPeersIT}'s scenarios share: a director with one {@code gtp-inspect} virtual
 * server (IMSI sticky, round robin) on port 2123 of its address, in front of scapy GTPv2-C
 * responders, with a scapy requester, each on port 2123 of its own address (TS 29.274 §4.4.2.1: a
 * peer's requests go to port 2123 of the address its F-TEID names); the checks every scenario makes
 * of a create and of a request's path; the teardown of all of it (and of the captures it started).
 */
final class ScapyGtpBed implements AutoCloseable {

    static final int GTP_C = 2123;
    /** TS 29.274 §8.22 Table 8.22-1. */
    static final int S5S8_PGW_GTPC = 7;
    static final int S11S4_SGW_GTPC = 11;
    /** TS 29.274 Table 8.4-1. */
    static final int REQUEST_ACCEPTED = 16;
    /** Every address of the tests (127.0.11.0/24), and nothing else: what a capture on lo keeps. */
    private static final String CAPTURE_FILTER = "udp and net 127.0.11.0/24";
    /** Where a capture's end marker goes: in the filter, nothing listening (the discard port). */
    private static final InetSocketAddress CAPTURE_MARKER = new InetSocketAddress("127.0.11.250", 9);

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** The responders (PGWs on S5/S8, SGWs on S11) in farm order. */
    final List<ScapyPeer> reals = new ArrayList<>();
    ScapyPeer requester;
    private final String farm;
    private final String vip;
    private final Path dir;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private GtpTestBed director;

    /**
     * @param interfaceName {@code s5s8} or {@code s11}: the scapy peers' interface, and the farm's name
     * @param dir           where the peers' stderr and the captures go
     */
    ScapyGtpBed(String interfaceName, String vip, Path dir) {
        this.farm = interfaceName;
        this.vip = vip;
        this.dir = dir;
    }

    /** Starts one responder per address, the director in front of them, and the requester. */
    void start(String[] realAddresses, String requesterAddress) throws Exception {
        List<RealConfig> configs = new ArrayList<>();
        for (int i = 0; i < realAddresses.length; i++) {
            reals.add(peer(farm + "-real-" + i, "gtpv2_responder.py", "--interface", farm, "--address",
                    realAddresses[i], "--teid-base", "0x" + Integer.toHexString(0x10000000 * (i + 1))));
            configs.add(new RealConfig(InetAddress.getByName(realAddresses[i]), GTP_C, 1, OptionalInt.empty(), true));
        }
        // A refusing real stays failed for the rest of the test.
        FarmConfig farmConfig = new FarmConfig(farm, PredictorKind.ROUNDROBIN,
                new FailureDetection(100, 1, Duration.ofMinutes(10)), configs, Optional.empty());
        VirtualServerConfig server = GtpTestBed.server(farm, new InetSocketAddress(vip, GTP_C),
                "gtp-inspect", farm, GtpOptions.DEFAULT);
        director = GtpTestBed.start(Map.of(), Map.of(farm, farmConfig), Map.of(farm, server), new GtpInspectService(),
                registry);
        started.push(director);
        requester = peer(farm + "-requester", "gtpv2_requester.py", "--interface", farm, "--address",
                requesterAddress, "--peer", vip);
    }

    /** Starts another scapy peer, stopped with the bed. */
    ScapyPeer peer(String name, String script, String... arguments) throws Exception {
        ScapyPeer peer = new ScapyPeer(name, script, dir, arguments);
        started.push(peer);
        return peer;
    }

    /** Starts a capture on lo of the tests' addresses, stopped with the bed at the latest. */
    LoopbackCapture capture(String name) throws Exception {
        assertThat(LoopbackCapture.available()).as("tshark and root, to capture on lo (.ci/run runs as root)")
                .isTrue();
        LoopbackCapture capture = LoopbackCapture.start(dir.resolve(name + ".pcapng"), CAPTURE_FILTER, CAPTURE_MARKER);
        started.push(capture);
        return capture;
    }

    /**
     * A session as both sides know it.
     *
     * @param directorTeid    the TEID the requester got for the responder's side (the director's)
     * @param realFacingTeid  the TEID the responder got for the requester's side (the director's)
     * @param realTeid        the responder's own
     * @param requesterTeid   the requester's own
     */
    record Created(String imsi, ScapyPeer holder, String holderAddress, JsonObject answer,
            int requesterSequence, long directorTeid, long realFacingTeid, long realTeid, long requesterTeid) {
    }

    /**
     * Creates a session; checks the answer names the director (TS 29.274 Table 7.2.2-1: instance 1 on
     * S5/S8, instance 0 on S11) and the create the responder got names it too (instance 0).
     */
    Created create(String imsi) throws Exception {
        boolean s5s8 = farm.equals("s5s8");
        JsonObject result = requester.call("create", "imsi", imsi);
        assertAccepted(result, "Create Session of " + imsi);
        JsonObject answer = result.getJsonObject("response");
        JsonObject control = ScapyPeer.fteid(answer, s5s8 ? 1 : 0);
        assertThat(control).as("the responder's control-plane F-TEID in the answer").isNotNull();
        assertThat(control.getInteger("interface")).isEqualTo(s5s8 ? S5S8_PGW_GTPC : S11S4_SGW_GTPC);
        assertThat(control.getString("ipv4")).as("the director's address, not the responder's").isEqualTo(vip);
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

    static void assertAccepted(JsonObject result, String what) {
        assertThat(result.getJsonArray("errors")).as("%s: the peer's own checks (TEIDs, sequence, cause), "
                + "result %s", what, result.encode()).isEmpty();
        assertThat(result.getJsonObject("response")).as(what).isNotNull();
        assertThat(ScapyPeer.cause(result.getJsonObject("response"))).as("%s cause", what).isEqualTo(REQUEST_ACCEPTED);
    }

    /** The requester's request of {@code type} reached the session's responder only, under its TEID. */
    void assertReachedOnlyTheHolder(Created session, int type, JsonObject result) throws Exception {
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
    ScapyPeer holderOf(String imsi) throws Exception {
        List<ScapyPeer> holders = new ArrayList<>();
        for (ScapyPeer real : reals) {
            if (real.sessions().stream().anyMatch(s -> imsi.equals(s.getString("imsi")))) {
                holders.add(real);
            }
        }
        assertThat(holders).as("responders holding %s", imsi).hasSize(1);
        return holders.get(0);
    }

    RealServer real(int index) {
        return director.director.farms().farm(farm).reals().get(index);
    }

    int openSessions(ScapyPeer responder) {
        RealServer real = real(reals.indexOf(responder));
        Gauge gauge = registry.get("switchboard.gtp.sessions.open").tag("real", real.id()).gauge();
        return (int) gauge.value();
    }

    void awaitNoOpenSessions() {
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            for (ScapyPeer responder : reals) {
                assertThat(openSessions(responder)).as("open sessions of %s", responder).isZero();
            }
            GtpInspectPlugin plugin = (GtpInspectPlugin) director.director.virtualServers().get(farm).plugin();
            assertThat(plugin.sessionTable()).as("sessions the director holds").isEmpty();
        });
    }

    double counter(String name) {
        Counter c = registry.find(name).counter();
        return c == null ? 0 : c.count();
    }

    @Override
    public void close() throws Exception {
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
}
