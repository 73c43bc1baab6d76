package io.switchboard.director.gtp;

import static io.switchboard.director.testing.DecisionFuzz.check;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpEcho;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.testing.DecisionFuzz;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.director.testing.TestFarms;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

/**
 * The transparent GTP plug-in's decisions ({@code service: gtp}, a decision of its own beside gtp-inspect's) as a
 * fuzz target ({@link GtpDecisionFuzzTest}, replayed by {@link GtpDecisionFuzzFindingsTest}): a virtual GGSN/PGW over
 * two reals, sticky by IMSI, serving v1 and v2 (the default) or v0 alone, through the engine ({@link EngineHarness},
 * one per versions served, reused from input to input as the other decision targets do). An input's first octet
 * chooses: bit 0 the path (0: a datagram from the requester; 1: a real's answer to a valid create pending there),
 * bit 1 the versions served (v1 and v2, or v0), bit 2 the pending create (v1 or v2 when serving those), bit 3 on the
 * answer path whether the answer carries the sequence number the director wrote into the create (0: it does, as a
 * real's answer; 1: the datagram's own, almost never a pending one); the rest is the datagram. Besides
 * {@link DecisionFuzz}'s rules: a request forwarded is the requester's with only its sequence number changed, to the
 * director's id (TS 29.060 §9.3.1.1, TS 29.274 §5.5: the answer is matched by it); an
 * answer relayed is the real's with only the sequence changed back to the requester's; an Echo Request is answered
 * by an Echo Response to its sequence with a Recovery (TS 29.060 §7.2.2, TS 29.274 §7.1.2).
 */
final class GtpDecisionTarget {

    static final InetSocketAddress SGSN = new InetSocketAddress(TestFarms.ip("127.0.1.20"), 2123);

    private final GtpOptions[] options = {GtpOptions.DEFAULT,
        new GtpOptions(Set.of(0), 2, Set.of(), Set.of(), List.of(), GtpV0TidOrder.GSM_09_60, 0)};
    final List<byte[]> requests = List.of(
            GtpMessages.v1CreateRequest("262420000000101", 1, 5),
            GtpMessages.v2CreateRequest("262420000000102", 2, 0x3000, new byte[] {127, 0, 1, 20}, null, "internet", 5),
            GtpMessages.v1EchoRequest(4), GtpMessages.v2EchoRequest(5));
    final List<byte[]> v0Requests = List.of(GtpMessages.v0CreateRequest("262420000000103", 5, 3, GtpV0TidOrder.GSM_09_60),
            GtpMessages.v0EchoRequest(6));
    /** The creates an answer may be to, and their answers (for the fuzzer's first corpus). */
    private final byte[][] pending = {GtpMessages.v1CreateRequest("262420000000201", 0x0201, 5),
        GtpMessages.v2CreateRequest("262420000000202", 0x0202, 0x3000, new byte[] {127, 0, 1, 20}, null, "internet", 5),
        GtpMessages.v0CreateRequest("262420000000203", 5, 0x0203, GtpV0TidOrder.GSM_09_60)};
    final List<byte[]> answers = List.of(GtpMessages.v1CreateResponse(0, 128, 0x2005, 1, new byte[] {1, 2, 3, 4}),
            GtpMessages.v2CreateResponse(0, 16, 0x3000, 1, new byte[] {1, 2, 3, 4}),
            GtpMessages.v0CreateResponse(0, 0, 128));
    int forwarded;
    int relayed;
    int echoed;
    private final ManualTicker ticker = new ManualTicker();
    private final EngineHarness[] engines = {engine(options[0]), engine(options[1])};

    private EngineHarness engine(GtpOptions o) {
        Farms farms = TestFarms.farms(TestFarms.farm("ggsn", PredictorKind.ROUNDROBIN, DecisionFuzz.NO_INBAND,
                new RealConfig(TestFarms.ip("127.0.1.30"), 2123, 1, OptionalInt.empty(), true),
                new RealConfig(TestFarms.ip("127.0.1.31"), 2123, 1, OptionalInt.empty(), true)));
        VirtualServerConfig vs = new VirtualServerConfig("gtp", new Endpoint(TestFarms.ip("127.0.1.10"), 2123), "gtp",
                "ggsn", Optional.of(new StickyConfig(List.of(GtpModule.IMSI), Duration.ofHours(1), OptionalInt.empty(),
                        1000)), Duration.ofSeconds(5), Duration.ofMinutes(1), 4096, true, o);
        InMemoryStickyTable table = new InMemoryStickyTable("gtp", Duration.ofHours(1), 1000);
        GtpPlugin<Void> plugin = new GtpPlugin<>(o);
        plugin.attach(new PluginContext(vs, table, farms, ticker, new SimpleMeterRegistry()));
        return new EngineHarness(vs, farms, table, plugin, ticker);
    }

    void run(byte[] input) throws DecodeException {
        if (input.length == 0) {
            return;
        }
        int control = input[0] & 0xff;
        boolean v0 = (control & 2) != 0;
        GtpOptions o = options[v0 ? 1 : 0];
        EngineHarness engine = engines[v0 ? 1 : 0];
        byte[] datagram = Arrays.copyOfRange(input, 1, input.length);
        try {
            if ((control & 1) == 0) {
                request(engine, datagram, o);
            } else {
                answer(engine, datagram, o, pending[v0 ? 2 : (control >>> 2) & 1], (control & 8) == 0);
            }
        } finally {
            DecisionFuzz.settle(engine, () -> ticker.advance(Duration.ofSeconds(6)));
        }
    }

    /** The datagram through the engine from {@code send}, which must leave its reader index and count as they were. */
    private static <T> T borrowed(byte[] datagram, Function<ByteBuf, T> send) {
        ByteBuf buf = Unpooled.wrappedBuffer(datagram.clone());
        try {
            T outcome = send.apply(buf);
            check(buf.readerIndex() == 0 && buf.refCnt() == 1, "the datagram's reader index or count moved");
            return outcome;
        } finally {
            buf.release();
        }
    }

    private void request(EngineHarness engine, byte[] datagram, GtpOptions o) throws DecodeException {
        DecisionFuzz.Outcome outcome = borrowed(datagram, buf -> DecisionFuzz.fromClient(engine, buf, SGSN, Set.of(), 24));
        for (EngineHarness.ToReal sent : outcome.toReals()) {
            forwarded++;
            GtpMessageView view = view(o, sent.bytes());
            check(view.sequence() == sent.transactionId(), "the director's sequence is written");
            check(view.createsTunnel(), "only creates are directed in transparent mode");
            check(sameBut(sent.bytes(), datagram, o), "only the sequence number changes");
        }
        for (EngineHarness.ToClient local : outcome.toClients()) {
            int version = (datagram[0] & 0xff) >>> 5;
            if (version > 2 || !o.serves(version)) {
                // TS 29.060 §7.2.3, TS 29.274 §7.1.3: Version Not Supported (type 3), in a version served.
                GtpMessageView answer = view(o, local.bytes());
                check(answer.messageTypeValue() == 3 && o.serves(answer.version()),
                        "a version not served is answered by Version Not Supported in one that is");
                continue;
            }
            GtpMessageView asked = view(o, datagram);
            if (asked.isEchoRequest()) {
                echoed++;
                if (asked.version() == 0) { // GSM 09.60 §7.4.2: Echo Response, type 2, the request's sequence
                    GtpMessageView answer = view(o, local.bytes());
                    check(answer.messageTypeValue() == 2 && answer.sequence() == asked.sequence(),
                            "a v0 Echo Request is answered by an Echo Response to its sequence");
                } else {
                    int recovery = GtpEcho.responseRecovery(Unpooled.wrappedBuffer(local.bytes()), asked.version(),
                            asked.sequence());
                    check(recovery >= 0, "an Echo Request is answered by an Echo Response to its sequence, with Recovery");
                }
            }
        }
    }

    private void answer(EngineHarness engine, byte[] fuzzed, GtpOptions o, byte[] create, boolean directorsSequence)
            throws DecodeException {
        engine.fromClient(create, SGSN);
        check(engine.toReals().size() == 1, "the valid create is forwarded");
        EngineHarness.ToReal sent = engine.toReals().get(0);
        // A reused engine numbers its transactions on from input to input: a real's answer carries the number the
        // director wrote (TS 29.060 §7.6, TS 29.274 §7.6), so the fuzzed answer is given it where it has a sequence.
        byte[] datagram = directorsSequence ? withSequence(fuzzed, (int) sent.transactionId(), o) : fuzzed;
        DecisionFuzz.Outcome outcome = borrowed(datagram, buf -> DecisionFuzz.fromReal(engine, buf,
                sent.real().address(), sent.socket(), SGSN, Set.of(), 24));
        for (EngineHarness.ToClient c : outcome.toClients()) {
            relayed++;
            check(view(o, c.bytes()).sequence() == view(o, create).sequence(), "the requester's sequence is restored");
            check(sameBut(c.bytes(), datagram, o), "only the sequence number changes");
        }
        // A real's answer to a create it refused for lack of resources is resent elsewhere: also a request.
        for (EngineHarness.ToReal again : outcome.toReals()) {
            check(sameBut(again.bytes(), create, o), "a create resent elsewhere is the requester's");
        }
    }

    /** {@code datagram} with sequence number {@code sequence}, or as it is where it has none (or is no GTP). */
    private static byte[] withSequence(byte[] datagram, int sequence, GtpOptions o) {
        byte[] copy = datagram.clone();
        try {
            GtpMessageView view = view(o, copy);
            if (view.sequence() >= 0) {
                view.setSequence(sequence);
            }
        } catch (DecodeException e) {
            return datagram;
        }
        return copy;
    }

    private static GtpMessageView view(GtpOptions o, byte[] bytes) throws DecodeException {
        return new GtpMessageView(o.v0TidOrder()).wrap(Unpooled.wrappedBuffer(bytes));
    }

    /** {@code out} is {@code in} with another sequence number: set back, they are the same bytes. */
    private static boolean sameBut(byte[] out, byte[] in, GtpOptions o) throws DecodeException {
        if (out.length != in.length) {
            return false;
        }
        ByteBuf restored = Unpooled.wrappedBuffer(out.clone());
        new GtpMessageView(o.v0TidOrder()).wrap(restored).setSequence(view(o, in).sequence());
        return Arrays.equals(restored.array(), in);
    }

    /** Every valid datagram in the target's input form: the fuzzer's first corpus. */
    List<byte[]> seedInputs() {
        List<byte[]> all = new ArrayList<>();
        requests.forEach(r -> all.add(input(0, r)));
        v0Requests.forEach(r -> all.add(input(2, r)));
        all.add(input(1, answers.get(0)));
        all.add(input(1 | 4, answers.get(1)));
        all.add(input(1 | 2, answers.get(2)));
        return all;
    }

    static byte[] input(int control, byte[] datagram) {
        byte[] input = new byte[datagram.length + 1];
        input[0] = (byte) control;
        System.arraycopy(datagram, 0, input, 1, datagram.length);
        return input;
    }
}
