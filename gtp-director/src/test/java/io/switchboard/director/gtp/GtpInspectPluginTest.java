package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.ResponseVerdict;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gtp-inspect}'s timers without a network, on a clock driven by hand: idle sessions end after
 * {@code session-idle} (not before), a real's request the requester never answers is forgotten after
 * the response timeout, and the TEIDs reserved for creates that are never answered are released.
 */
class GtpInspectPluginTest {

    private static final InetSocketAddress REAL = new InetSocketAddress("127.0.1.30", 2123);
    private static final InetSocketAddress SGSN = new InetSocketAddress("127.0.1.20", 2123);
    private static final Duration IDLE = Duration.ofSeconds(10);
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(5);

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private GtpInspectPlugin plugin;
    private EngineRelays engine;
    private RealServer real;

    @BeforeEach
    void attach() throws Exception {
        attach(IDLE);
    }

    private void attach(Duration idle) throws Exception {
        Farms farms = new Farms(Map.of("ggsn", new FarmConfig("ggsn", PredictorKind.ROUNDROBIN,
                new FailureDetection(100, 1, Duration.ofMinutes(1)),
                List.of(new RealConfig(REAL.getAddress(), REAL.getPort(), 1, OptionalInt.empty(), true)),
                Optional.empty())));
        real = farms.farm("ggsn").reals().get(0);
        GtpOptions options = new GtpOptions(Set.of(1, 2), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1,
                GtpOptions.DEFAULT_RESOURCE_CAUSES_V2, List.of(), GtpV0TidOrder.GSM_09_60, 0, Optional.empty(), true,
                idle, List.of());
        VirtualServerConfig config = new VirtualServerConfig("gtp-c", new Endpoint(InetAddress.getByName("127.0.1.10"),
                2123), "gtp-inspect", "ggsn", Optional.empty(), RESPONSE_TIMEOUT, Duration.ofMinutes(1), 4096,
                true, options);
        plugin = new GtpInspectPlugin(options, config.listen().address());
        plugin.attach(new PluginContext(config, null, farms, clock::get, registry));
        engine = new EngineRelays(config, plugin, farms, clock::get, registry, NodeSlot.SINGLE, SharedTables.IN_MEMORY);
    }

    private interface Use<T> {
        T apply(ByteBuf buf) throws Exception;
    }

    private static <T> T with(byte[] bytes, Use<T> use) throws Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return use.apply(buf);
        } finally {
            buf.release();
        }
    }

    /** A v1 create through the plug-in as the engine drives it; returns the real-facing TEID. */
    private long create(String imsi, int directorSequence) throws Exception {
        return create(imsi, directorSequence, 5);
    }

    private long create(String imsi, int directorSequence, int nsapi) throws Exception {
        return create(GtpMessages.v1CreateRequest(imsi, 0x0100, nsapi, SGSN.getAddress().getAddress()), directorSequence);
    }

    private long create(byte[] request, int directorSequence) throws Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(request);
        try {
            var context = plugin.prepareRequest(buf, directorSequence, real, null);
            long realFacing = new GtpMessageView().wrap(buf).senderControlPlane().teid();
            byte[] answer = new GtpMessageView().wrap(buf).version() == 2
                    ? GtpMessages.v2CreateResponse(directorSequence, 16, realFacing, 0x7777, new byte[] {10, 9, 8, 7})
                    : GtpMessages.v1CreateResponse(directorSequence, 128, realFacing, 0x7777, new byte[] {10, 9, 8, 7});
            with(answer, b -> plugin.inspectResponse(b, real, context));
            return realFacing;
        } finally {
            buf.release();
        }
    }

    private void advance(Duration by) {
        clock.addAndGet(by.toNanos());
    }

    private double counter(String name) {
        return registry.get(name).counter().count();
    }

    @Test
    void anIdleSessionEndsAfterSessionIdleAndNotBefore() throws Exception {
        create("262420000006001", 1);
        assertThat(plugin.openSessions(real)).isEqualTo(1);
        advance(IDLE.minusSeconds(1));
        plugin.housekeep(clock.get());
        assertThat(plugin.sessionTable()).hasSize(1);
        // Sessions end between session-idle and session-idle / 8 later (their refresh is not written per
        // message, so its time may lag the last message by that much).
        advance(Duration.ofSeconds(2));
        plugin.housekeep(clock.get());
        assertThat(plugin.sessionTable()).hasSize(1);
        advance(IDLE.dividedBy(8));
        plugin.housekeep(clock.get());
        assertThat(plugin.sessionTable()).isEmpty();
        assertThat(plugin.openSessions(real)).isZero();
        assertThat(real.connections()).isZero();
        assertThat(counter("switchboard.gtp.sessions.expired")).isEqualTo(1);
    }

    @Test
    void withALongSessionIdleIdleSessionsAreLookedForEverySessionIdleOver64() throws Exception {
        Duration idle = Duration.ofSeconds(640); // looked for every 10 s, not every second
        attach(idle);
        create("262420000006009", 9);
        // At session-idle plus the refresh slack exactly the session is not over it yet: this sweep keeps it.
        advance(idle.plus(idle.dividedBy(8)));
        plugin.housekeep(clock.get());
        assertThat(plugin.sessionTable()).hasSize(1);
        // Over it now, but the next look is 10 s after the last: the once-a-second housekeeping leaves it.
        advance(Duration.ofSeconds(2));
        plugin.housekeep(clock.get());
        assertThat(plugin.sessionTable()).hasSize(1);
        advance(Duration.ofSeconds(8));
        plugin.housekeep(clock.get());
        assertThat(plugin.sessionTable()).isEmpty();
        assertThat(plugin.openSessions(real)).isZero();
        assertThat(counter("switchboard.gtp.sessions.expired")).isEqualTo(1);
    }

    @Test
    void aMessageOfTheSessionKeepsItAlive() throws Exception {
        long realFacing = create("262420000006002", 2);
        advance(IDLE.minusSeconds(1));
        // The GGSN's own Update, relayed to the SGSN: the session was used.
        byte[] update = GtpMessages.v1(18, realFacing, 0x7001, new byte[] {20, 5});
        InetSocketAddress to = with(update, b -> engine.relay(b, REAL));
        assertThat(to).isEqualTo(SGSN);
        advance(Duration.ofSeconds(2));
        plugin.housekeep(clock.get());
        assertThat(plugin.sessionTable()).hasSize(1);
    }

    @Test
    void aRealsRequestTheRequesterNeverAnswersIsForgottenAfterTheResponseTimeout() throws Exception {
        long realFacing = create("262420000006003", 3);
        byte[] update = GtpMessages.v1(18, realFacing, 0x7002, new byte[] {20, 5});
        int sequence = with(update, b -> {
            assertThat(engine.relay(b, REAL)).isEqualTo(SGSN);
            return new GtpMessageView().wrap(b).sequence();
        });
        engine.housekeep(clock.get()); // the first pass: nothing is due yet
        advance(RESPONSE_TIMEOUT.plusSeconds(1));
        engine.housekeep(clock.get());
        assertThat(counter("switchboard.real.requests.expired")).isEqualTo(1);
        // The late answer matches nothing: counted as such and dropped.
        byte[] late = GtpMessages.v1(19, 0x1234, sequence, new byte[] {1, (byte) 128});
        InetSocketAddress to = with(late, b -> engine.relay(b, SGSN));
        assertThat(to).isNull();
        assertThat(registry.get("switchboard.dropped").tag("reason", "no-relayed-request").counter().count())
                .isEqualTo(1);
    }

    @Test
    void aCreateForTheSameImsiAndNsapiReplacesTheSessionAndOneForAnotherNsapiDoesNot() throws Exception {
        long first = create("262420000006005", 11, 5);
        long again = create("262420000006005", 12, 5); // TS 29.060 §7.3.1: the same IMSI and NSAPI again
        assertThat(again).isNotEqualTo(first);
        assertThat(plugin.sessionTable()).containsOnlyKeys(again | 1);
        assertThat(plugin.openSessions(real)).isEqualTo(1);
        assertThat(real.connections()).isEqualTo(1);
        assertThat(counter("switchboard.gtp.sessions.replaced")).isEqualTo(1);
        long other = create("262420000006005", 13, 6); // a second PDP context: another NSAPI
        long otherImsi = create("262420000006006", 14, 5);
        assertThat(plugin.sessionTable()).containsOnlyKeys(again | 1, other | 1, otherImsi | 1);
        assertThat(plugin.openSessions(real)).isEqualTo(3);
        assertThat(counter("switchboard.gtp.sessions.replaced")).isEqualTo(1);
        // The replaced session's entry went with it: when the others idle out, nothing is left.
        advance(IDLE.plus(IDLE.dividedBy(8)).plusSeconds(1));
        plugin.housekeep(clock.get());
        assertThat(plugin.sessionTable()).isEmpty();
        assertThat(plugin.openSessions(real)).isZero();
        assertThat(plugin.subscribers()).isZero();
    }

    @Test
    void aCreateSessionRequestForTheSameImsiEbiAndInterfaceReplacesTheSession() throws Exception {
        byte[] ebi5 = GtpMessages.v2CreateRequest("262420000006007", 0x0200, 0x3001, new byte[] {127, 0, 1, 20}, null,
                "internet", 5);
        long first = create(ebi5, 21);
        long again = create(ebi5.clone(), 22); // TS 29.274 §7.2.1: [IMSI, EBI, interface type] collide
        long ebi6 = create(GtpMessages.v2CreateRequest("262420000006007", 0x0201, 0x3002, new byte[] {127, 0, 1, 20},
                null, "internet", 6), 23);
        // Without a Bearer Context the bearer is unknown: nothing is replaced.
        long bare = create(GtpMessages.v2CreateRequest("262420000006008", 0x0202), 24);
        long bareAgain = create(GtpMessages.v2CreateRequest("262420000006008", 0x0203), 25);
        assertThat(first).isNotEqualTo(again);
        assertThat(plugin.sessionTable()).containsOnlyKeys(again | 1, ebi6 | 1, bare | 1, bareAgain | 1);
        assertThat(counter("switchboard.gtp.sessions.replaced")).isEqualTo(1);
    }

    @Test
    void theTeidReservedForACreateThatIsNeverAnsweredIsReleased() throws Exception {
        byte[] request = GtpMessages.v1CreateRequest("262420000006004", 0x0100, 5, SGSN.getAddress().getAddress());
        long first = with(request.clone(), b -> {
            plugin.prepareRequest(b, 9, real, null);
            return new GtpMessageView().wrap(b).senderControlPlane().teid();
        });
        // A retransmission under the same director sequence carries the same TEID.
        long again = with(request.clone(), b -> {
            plugin.prepareRequest(b, 9, real, null);
            return new GtpMessageView().wrap(b).senderControlPlane().teid();
        });
        assertThat(again).isEqualTo(first);
        assertThat(plugin.createReservations()).isEqualTo(2);
        advance(RESPONSE_TIMEOUT.multipliedBy(2).plusSeconds(1));
        plugin.housekeep(clock.get());
        assertThat(plugin.createReservations()).isZero();
    }

    /**
     * Bad input only ever comes out of the plug-in as a DecodeException, which the engine counts and
     * drops: mutated copies of valid GTP datagrams (bytes flipped or overwritten, lengths included;
     * truncated) go through every entry point in the engine's order — local answer, relay toward the
     * requester, classify, transaction id, route, prepare as requests; transaction id, inspection and
     * preparation as the answer to a valid create; relay from a real — and nothing else may be thrown.
     * Valid traffic works afterwards.
     */
    @Test
    void mutatedDatagramsComeOutOnlyAsDecodeExceptions() throws Exception {
        Seeds seeds = seeds();
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        int decodeExceptions = 0;
        for (int i = 0; i < 20_000; i++) {
            boolean asRequest = random.nextBoolean();
            List<byte[]> kind = asRequest ? seeds.requests() : seeds.answers();
            byte[] bytes = io.switchboard.director.testing.Mutations.mutate(kind.get(random.nextInt(kind.size())), random);
            try {
                if (asRequest) {
                    throughRequestPath(bytes, i);
                } else {
                    throughAnswerPath(bytes, i);
                }
            } catch (DecodeException e) {
                decodeExceptions++;
            } catch (Exception | AssertionError e) {
                throw new AssertionError("seed " + seed + ", datagram " + i + ": " + ByteBufUtil.hexDump(bytes), e);
            }
        }
        assertThat(decodeExceptions).as("mutations the plug-in refused").isPositive();
        long before = plugin.sessionTable().size();
        create("262420000006199", 30_000);
        assertThat(plugin.sessionTable()).hasSize((int) before + 1);
    }

    /**
     * Each lane of a virtual server numbers its requests to a real on its own, so two lanes send two
     * creates to one real under the same director sequence: they must still get two real-facing TEIDs
     * (two sessions, not one director TEID for two subscribers), while a retransmission from the same
     * requester (same lane, same sequence) gets its own again. Seen under load with two requester
     * sockets: 61 sessions for 50 subscribers, and creates of different subscribers under one TEID.
     */
    @Test
    void twoLanesCreatesUnderOneSequenceGetTwoTeidsAndARetransmissionItsOwn() throws Exception {
        byte[] sgsn = SGSN.getAddress().getAddress();
        InetSocketAddress laneA = new InetSocketAddress("127.0.1.20", 40001);
        InetSocketAddress laneB = new InetSocketAddress("127.0.1.21", 40002);
        byte[] first = GtpMessages.v2CreateRequest("262420000006201", 0x0201, 0x3000, sgsn, null, "internet", 5);
        byte[] second = GtpMessages.v2CreateRequest("262420000006202", 0x0202, 0x3000, sgsn, null, "internet", 5);
        GtpRequestContext a = with(first, b -> plugin.prepareRequest(b, 7, real, laneA));
        GtpRequestContext b = with(second, buf -> plugin.prepareRequest(buf, 7, real, laneB));
        assertThat(a.realFacingTeid()).isNotEqualTo(b.realFacingTeid());
        GtpRequestContext again = with(first, buf -> plugin.prepareRequest(buf, 7, real, laneA));
        assertThat(again.realFacingTeid()).as("the retransmission's").isEqualTo(a.realFacingTeid());
        for (GtpRequestContext context : List.of(a, b)) {
            byte[] answer = GtpMessages.v2CreateResponse(7, 16, context.realFacingTeid(), 0x7777, new byte[] {10, 9, 8, 7});
            with(answer, buf -> plugin.inspectResponse(buf, real, context));
        }
        assertThat(plugin.sessionTable()).hasSize(2);
        assertThat(plugin.sessionTable().values()).extracting(GtpSession::imsi)
                .containsExactlyInAnyOrder("262420000006201", "262420000006202");
    }

    /** Every input the fuzzer kept ({@code benchmarks/fuzz/run.sh gtp-inspect}) still comes out only as a DecodeException. */
    @Test
    void fuzzCorpusReplays() throws Exception {
        DecisionTarget target = new DecisionTarget();
        io.switchboard.codec.testing.FuzzCorpus.replay("gtp-inspect", target::runUnchecked);
    }

    /** Valid datagrams for each path, with the sessions they name created: what mutations start from. */
    record Seeds(List<byte[]> requests, List<byte[]> answers) {
    }

    private Seeds seeds() throws Exception {
        long teid = create("262420000006100", 100);
        long directorTeid = plugin.sessionTable().keySet().iterator().next();
        byte[] sgsn = SGSN.getAddress().getAddress();
        List<byte[]> requests = List.of(
                GtpMessages.v1CreateRequest("262420000006101", 0x0101, 5, sgsn),
                GtpMessages.v2CreateRequest("262420000006102", 0x0102, 0x3000, sgsn, null, "internet", 5),
                GtpMessages.v0CreateRequest("262420000006103", 5, 0x0103, GtpV0TidOrder.GSM_09_60, sgsn),
                GtpMessages.v1UpdateRequest(directorTeid, 0x0104),
                GtpMessages.v1(20, directorTeid, 0x0105, new byte[] {19, (byte) 0xff, 20, 5}), // Delete PDP Context
                GtpMessages.v1EchoRequest(0x0106),
                GtpMessages.v2EchoRequest(0x0107));
        long v2Teid = create(GtpMessages.v2CreateRequest("262420000006104", 0x0108, 0x3000, sgsn, null, "internet", 5),
                101);
        // From the real: answers, and its own requests for the sessions (under the TEIDs it knows the
        // director by), which go to the requester.
        List<byte[]> answers = List.of(
                GtpMessages.v1CreateResponse(0, 128, teid, 0x7778, new byte[] {10, 9, 8, 7}),
                GtpMessages.v2CreateResponse(0, 16, teid, 0x7779, new byte[] {10, 9, 8, 7}),
                GtpMessages.v1(21, teid, 0, new byte[] {1, (byte) 128}),
                GtpMessages.v1UpdateRequest(teid, 0x0500),
                GtpMessages.v2(99, v2Teid, 0x0501, new byte[] {73, 0, 1, 0, 5})); // Delete Bearer, Linked EBI
        return new Seeds(requests, answers);
    }

    /**
     * The mutation test as a fuzz target ({@link GtpInspectFuzzTest}, the corpus replay above): one
     * plug-in with the seeds' sessions; an input's first octet says which path (low bit 0: a datagram
     * from the requester, 1: from the real), the rest is the datagram. Anything but a DecodeException
     * escapes.
     */
    static final class DecisionTarget {
        private final GtpInspectPluginTest fixture = new GtpInspectPluginTest();
        private final Seeds seeds;
        private int inputs;

        DecisionTarget() throws Exception {
            fixture.attach();
            seeds = fixture.seeds();
        }

        void run(byte[] input) throws Exception {
            if (input.length == 0) {
                return;
            }
            byte[] datagram = java.util.Arrays.copyOfRange(input, 1, input.length);
            try {
                if ((input[0] & 1) == 0) {
                    fixture.throughRequestPath(datagram, inputs++);
                } else {
                    fixture.throughAnswerPath(datagram, inputs++);
                }
            } catch (DecodeException e) {
                // counted and dropped by the engine
            }
        }

        void runUnchecked(byte[] input) {
            try {
                run(input);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError("not a DecodeException", e);
            }
        }

        /** The seeds in the target's input form, for the fuzzer's first corpus. */
        List<byte[]> seedInputs() {
            List<byte[]> all = new java.util.ArrayList<>();
            for (int kind = 0; kind < 2; kind++) {
                for (byte[] datagram : kind == 0 ? seeds.requests() : seeds.answers()) {
                    byte[] input = new byte[datagram.length + 1];
                    input[0] = (byte) kind;
                    System.arraycopy(datagram, 0, input, 1, datagram.length);
                    all.add(input);
                }
            }
            return all;
        }
    }

    private void throughRequestPath(byte[] bytes, int i) throws Exception {
        with(bytes, b -> {
            ByteBuf local = plugin.answerLocally(b, SGSN, io.netty.buffer.UnpooledByteBufAllocator.DEFAULT);
            if (local != null) {
                local.release();
                return null;
            }
            if (engine.relay(b, SGSN) != null) {
                return null;
            }
            plugin.classify(b, SGSN);
            plugin.clientTransactionId(b);
            plugin.route(b);
            plugin.prepareRequest(b, 1_000 + i % 20_000, real, SGSN);
            return null;
        });
    }

    private void throughAnswerPath(byte[] bytes, int i) throws Exception {
        int sequence = 40_000 + i % 20_000;
        byte[] request = GtpMessages.v2CreateRequest("26242000000" + (7000 + i % 1000), 0x0200, 0x3000,
                SGSN.getAddress().getAddress(), null, "internet", 5);
        GtpRequestContext context = with(request, b -> plugin.prepareRequest(b, sequence, real, SGSN));
        with(bytes, b -> {
            if (plugin.fromReal(b.duplicate(), REAL) != null || engine.relay(b, REAL) != null) {
                return null;
            }
            plugin.responseTransactionId(b);
            if (plugin.inspectResponse(b, real, context) == ResponseVerdict.RELAY) {
                plugin.prepareResponse(b, 0x0200, context);
            }
            return null;
        });
    }
}
