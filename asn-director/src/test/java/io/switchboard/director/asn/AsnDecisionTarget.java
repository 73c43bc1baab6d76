package io.switchboard.director.asn;

import static io.switchboard.director.testing.DecisionFuzz.check;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6OpId;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.codec.asn.r6.R6View;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
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
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The ASN director's decisions as a fuzz target ({@link AsnFuzzTest}, replayed by {@link AsnFuzzFindingsTest}): a
 * virtual ASN gateway over two gateways, sticky by MSID, through the engine ({@link EngineHarness}, one per release,
 * whose pending requests expire between inputs: {@link DecisionFuzz#settle}; the MSID bindings stay). An input's first octet chooses: bit 0 the
 * path (0: a datagram from the base station; 1: a gateway's answer to a valid MS_PreAttachment_Req pending
 * there), bits 1-2 the NWG release (modulo their number), bits 5-6 the reader index; the rest is the datagram.
 * Besides {@link DecisionFuzz}'s rules: what is forwarded is the datagram unchanged, under the director id the
 * plug-in gives the message (its own transaction id, never rewritten: Req, Rsp and Ack share it, NWG Stage 3
 * §5.3.2), one way unless it is a request; a later MS_PreAttachment_Ack of the same MSID follows it to the same
 * gateway (the MSID binding); an answer relayed is the gateway's unchanged and answers the pending request.
 */
final class AsnDecisionTarget {

    static final InetSocketAddress BS = new InetSocketAddress(TestFarms.ip("127.0.2.20"), 2231);
    private static final long MSID = 0x0a1b2c3d4e5fL;
    private static final NwgRelease[] RELEASES = NwgRelease.values();

    private final AsnPlugin[] plugins = new AsnPlugin[RELEASES.length];
    private final EngineHarness[] engines = new EngineHarness[RELEASES.length];
    private final InMemoryStickyTable[] tables = new InMemoryStickyTable[RELEASES.length];
    private final ManualTicker ticker = new ManualTicker();
    final List<List<byte[]>> requests = new ArrayList<>();
    final List<List<byte[]>> answers = new ArrayList<>();
    int forwarded;
    int relayed;

    AsnDecisionTarget() {
        for (int r = 0; r < RELEASES.length; r++) {
            NwgRelease release = RELEASES[r];
            plugins[r] = new AsnPlugin(new AsnOptions(release, true), new AsnCounters(new SimpleMeterRegistry(), "asn"));
            tables[r] = new InMemoryStickyTable("asn", Duration.ofMinutes(30), 1000);
            engines[r] = engine(plugins[r], release, ticker, tables[r]);
            byte[] other = R6Messages.message(1, 9, 2, 2, MSID + 3, 0x0301, R6Messages.BS_INFO);
            byte[] headerOnly = R6Messages.message(1, 3, 4, 1, MSID + 4, 0x0401); // an indication without TLVs
            requests.add(List.of(R6Messages.preAttachment(release, R6PreAttachment.REQUEST, MSID, 0x0101),
                    R6Messages.preAttachment(release, R6PreAttachment.ACK, MSID, 0x0101), headerOnly));
            answers.add(List.of(R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, MSID, 0x0101), other,
                    headerOnly));
        }
    }

    private static EngineHarness engine(AsnPlugin plugin, NwgRelease release, ManualTicker ticker,
            InMemoryStickyTable table) {
        Farms farms = new Farms(Map.of("gateways", TestFarms.farm("gateways", PredictorKind.ROUNDROBIN,
                DecisionFuzz.NO_INBAND, new RealConfig(TestFarms.ip("127.0.2.30"), 2231, 1, OptionalInt.empty(), true),
                new RealConfig(TestFarms.ip("127.0.2.31"), 2231, 1, OptionalInt.empty(), true))));
        VirtualServerConfig vs = new VirtualServerConfig("asn", new Endpoint(TestFarms.ip("127.0.2.10"), 2231), "asn",
                "gateways", Optional.of(new StickyConfig(List.of(AsnModule.MSID), Duration.ofMinutes(30),
                        OptionalInt.empty(), 1000)), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true,
                new AsnOptions(release, true));
        return new EngineHarness(vs, farms, table, plugin, ticker);
    }

    void run(byte[] input) throws DecodeException {
        if (input.length == 0) {
            return;
        }
        int control = input[0] & 0xff;
        int r = ((control >>> 1) & 3) % RELEASES.length;
        EngineHarness engine = engines[r];
        byte[] datagram = Arrays.copyOfRange(input, 1, input.length);
        int offset = (control >>> 5) & 3;
        ByteBuf buf = Unpooled.buffer(offset + datagram.length);
        buf.writeZero(offset).writeBytes(datagram).readerIndex(offset);
        try {
            if ((control & 1) == 0) {
                request(engine, buf, datagram, RELEASES[r], tables[r]);
            } else {
                answer(engine, buf, datagram, RELEASES[r]);
            }
            check(buf.readerIndex() == offset && buf.refCnt() == 1, "the datagram's reader index or count moved");
        } finally {
            buf.release();
            DecisionFuzz.settle(engine, () -> ticker.advance(Duration.ofSeconds(3)));
        }
    }

    private void request(EngineHarness engine, ByteBuf buf, byte[] datagram, NwgRelease release,
            InMemoryStickyTable table) throws DecodeException {
        long refusedFull = table.stats().refusedFull();
        DecisionFuzz.Outcome outcome = DecisionFuzz.fromClient(engine, buf, BS, Set.of(), 40);
        if (outcome.toReals().isEmpty()) {
            return;
        }
        forwarded++;
        check(outcome.toReals().size() == 1, "one gateway gets it");
        EngineHarness.ToReal sent = outcome.toReals().get(0);
        R6View view = R6View.wrap(Unpooled.wrappedBuffer(datagram));
        check(release.preAttachment(view) != R6PreAttachment.RESPONSE, "an MS_PreAttachment_Rsp is not directed");
        check(Arrays.equals(sent.bytes(), datagram), "the message is forwarded unchanged");
        long id = AsnPlugin.transactionId(view) | (view.opId() == R6OpId.REQUEST ? 0 : 1L << 39);
        check(sent.transactionId() == id, "the director id is the message's own");
        check(engine.forwarded().get(engine.forwarded().size() - 1).oneWay() == (view.opId() != R6OpId.REQUEST),
                "only a request waits for an answer");
        // The MSID's binding: its Ack follows to the same gateway (NWG Stage 3 §4.2: one ASN-GW per MS).
        engine.fromClient(R6Messages.preAttachment(release, R6PreAttachment.ACK, view.msid(), view.transactionId() + 1),
                BS);
        // Unless the table was full and refused the binding (counted: switchboard.sticky.refused.full), as a fuzz
        // run's thousands of MSIDs make it (the first finding of 2026-12-02 was this, not a defect).
        check(table.stats().refusedFull() != refusedFull || engine.lastToReal().real() == sent.real(),
                "a later message of the MSID goes to the same gateway");
    }

    private void answer(EngineHarness engine, ByteBuf buf, byte[] datagram, NwgRelease release)
            throws DecodeException {
        byte[] request = R6Messages.preAttachment(release, R6PreAttachment.REQUEST, MSID, 0x0101);
        engine.fromClient(request, BS);
        check(engine.toReals().size() == 1, "the valid request is forwarded");
        EngineHarness.ToReal sent = engine.toReals().get(0);
        DecisionFuzz.Outcome outcome = DecisionFuzz.fromReal(engine, buf, sent.real().address(), sent.socket(), BS,
                Set.of(), 40);
        for (EngineHarness.ToClient c : outcome.toClients()) {
            relayed++;
            check(Arrays.equals(c.bytes(), datagram), "the answer is relayed unchanged");
            check(AsnPlugin.transactionId(R6View.wrap(Unpooled.wrappedBuffer(datagram))) == sent.transactionId(),
                    "the answer is the pending request's");
        }
    }

    /** Every valid datagram in the target's input form (each path, each release): the fuzzer's first corpus. */
    List<byte[]> seedInputs() {
        List<byte[]> all = new ArrayList<>();
        for (int r = 0; r < RELEASES.length; r++) {
            for (byte[] q : requests.get(r)) {
                all.add(input(r << 1, q));
            }
            for (byte[] a : answers.get(r)) {
                all.add(input(1 | r << 1, a));
            }
        }
        return all;
    }

    static byte[] input(int control, byte[] datagram) {
        byte[] input = new byte[datagram.length + 1];
        input[0] = (byte) control;
        System.arraycopy(datagram, 0, input, 1, datagram.length);
        return input;
    }
}
