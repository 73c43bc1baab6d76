package io.switchboard.director.ha;

import static io.switchboard.director.testing.DecisionFuzz.check;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipFlags;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.codec.mip.MipReplyCode;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.testing.DecisionFuzz;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.director.testing.TestFarms;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The Home Agent Director's decisions as a fuzz target ({@link HaFuzzTest}, replayed by {@link HaFuzzFindingsTest}):
 * a virtual home agent 127.0.0.10:434 over one agent 10.30.0.3, through the engine ({@link EngineHarness}, one per
 * set-up, whose pending requests expire between inputs: {@link DecisionFuzz#settle}). An input's first octet chooses: bit 0 the path (0: a
 * datagram from the foreign agent to the virtual address; 1: the agent's answer to a valid request pending there),
 * bit 1 {@code rewrite-home-agent}, bits 2-4 which valid request is pending, bits 5-6 the reader index the
 * datagram starts at; the rest is the datagram. Besides {@link DecisionFuzz}'s rules: a request forwarded is the
 * request as it came, its Identification unchanged and its director id the client's own (RFC 5944 §5.7: the
 * Identification is covered by the MN-HA authenticator), except the Home Agent field set to the agent when
 * rewriting; a reply relayed is the reply as the agent sent it, except the Home Agent field set back to the one of
 * the request, and it answers that request (same transaction id).
 */
final class HaDecisionTarget {

    static final int VIRTUAL_HA = 0x7f00000a;   // 127.0.0.10
    private static final int HOME = 0x0a630001;         // 10.99.0.1
    private static final int CARE_OF = 0xc0000201;      // 192.0.2.1
    private static final int AGENT = 0x0a1e0003;        // 10.30.0.3
    static final InetSocketAddress FOREIGN_AGENT = new InetSocketAddress("127.0.0.20", 434);
    private static final byte[] KEY = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
    private static final int SPI = 256;
    /** Home Agent field of a Registration Request and Reply alike (RFC 5944 §3.3, §3.4). */
    private static final int HOME_AGENT_OFFSET = 8;

    final List<byte[]> requests = new ArrayList<>();
    /** Each reply with the index of the request it answers. */
    final List<byte[]> replies = new ArrayList<>();
    final List<Integer> answered = new ArrayList<>();
    private final HaPlugin[] plugins = {plugin(false), plugin(true)};
    private final ManualTicker ticker = new ManualTicker();
    private final EngineHarness[] engines = {engine(plugins[0], ticker), engine(plugins[1], ticker)};
    int forwarded;
    int relayed;

    HaDecisionTarget() throws DecodeException {
        byte[] withNai = MipMessages.request(0, 1800, 0, VIRTUAL_HA, CARE_OF, 0x11111111_00000002L, "mn@example.net");
        byte[] mnHa = MipMessages.authenticated(withNai, MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY);
        // Lifetime 0: deregistration (RFC 5944 §3.3), here of all care-of addresses (care-of = home address).
        byte[] deregistration = MipMessages.authenticated(MipMessages.request(MipFlags.S, 0, HOME, VIRTUAL_HA, HOME,
                0x11111111_00000004L, null), MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY);
        byte[] plain = MipMessages.request(MipFlags.T, 1800, HOME, VIRTUAL_HA, CARE_OF, 0x11111111_00000001L, null);
        requests.addAll(List.of(plain, withNai, mnHa,
                // Relayed by a foreign agent, which appends its FA-HA authentication (RFC 5944 §3.5.4).
                MipMessages.authenticated(mnHa, MipExtensionType.FA_HA_AUTHENTICATION, SPI + 1, KEY),
                MipMessages.authenticated(withNai, MipExtensionType.GENERALIZED_AUTHENTICATION, SPI, KEY),
                deregistration));
        reply(MipMessages.reply(MipReplyCode.ACCEPTED.value(), 1800, HOME, VIRTUAL_HA, 0x11111111_00000001L, null), 0);
        reply(HomeAgentResponder.reply(MipHeaderView.wrap(Unpooled.wrappedBuffer(mnHa)), SPI, KEY), 2);
        reply(HomeAgentResponder.reply(MipHeaderView.wrap(Unpooled.wrappedBuffer(deregistration)), SPI, KEY), 5);
        reply(MipMessages.reply(MipReplyCode.HA_MOBILE_NODE_FAILED_AUTHENTICATION.value(), 0, 0, VIRTUAL_HA,
                0x11111111_00000002L, "mn@example.net"), 1);
        // The agent's own time in the high-order 32 bits (RFC 5944 §5.7).
        reply(MipMessages.authenticated(MipMessages.reply(MipReplyCode.HA_IDENTIFICATION_MISMATCH.value(), 0, HOME,
                VIRTUAL_HA, 0x99999999_00000004L, null), MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY), 5);
    }

    private void reply(byte[] reply, int request) {
        replies.add(reply);
        answered.add(request);
    }

    private static HaPlugin plugin(boolean rewrite) {
        return new HaPlugin(new HaOptions(true, rewrite), new HaCounters(new SimpleMeterRegistry(), "ha"));
    }

    private static EngineHarness engine(HaPlugin plugin, ManualTicker ticker) {
        RealConfig agent = new RealConfig(TestFarms.ip("10.30.0.3"), 434, 1, OptionalInt.empty(), true);
        Farms farms = new Farms(Map.of("ha", TestFarms.farm("ha", PredictorKind.ROUNDROBIN, DecisionFuzz.NO_INBAND,
                agent)));
        VirtualServerConfig vs = new VirtualServerConfig("ha", new Endpoint(TestFarms.ip("127.0.0.10"), 434),
                "ipmobile", "ha", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true);
        return new EngineHarness(vs, farms, null, plugin, ticker);
    }

    void run(byte[] input) throws DecodeException {
        if (input.length == 0) {
            return;
        }
        int control = input[0] & 0xff;
        boolean rewrite = (control & 2) != 0;
        EngineHarness engine = engines[rewrite ? 1 : 0];
        byte[] datagram = Arrays.copyOfRange(input, 1, input.length);
        int offset = (control >>> 5) & 3;
        ByteBuf buf = Unpooled.buffer(offset + datagram.length);
        buf.writeZero(offset).writeBytes(datagram).readerIndex(offset);
        try {
            if ((control & 1) == 0) {
                request(engine, buf, datagram, rewrite);
            } else {
                answer(engine, buf, datagram, rewrite, requests.get(((control >>> 2) & 7) % requests.size()));
            }
            check(buf.readerIndex() == offset && buf.refCnt() == 1, "the datagram's reader index or count moved");
        } finally {
            buf.release();
            DecisionFuzz.settle(engine, () -> ticker.advance(Duration.ofSeconds(3)));
        }
    }

    private void request(EngineHarness engine, ByteBuf buf, byte[] datagram, boolean rewrite) throws DecodeException {
        DecisionFuzz.Outcome outcome = DecisionFuzz.fromClient(engine, buf, FOREIGN_AGENT, Set.of(), 40);
        for (EngineHarness.ToReal sent : outcome.toReals()) {
            forwarded++;
            MipHeaderView view = MipHeaderView.wrap(Unpooled.wrappedBuffer(datagram));
            check(view.isRequest(), "only Registration Requests are directed");
            check(sent.transactionId() == HaPlugin.transactionId(view),
                    "the director id toward the agent is the request's own");
            check(sameBut(sent.bytes(), datagram, rewrite ? AGENT : view.homeAgent()),
                    "the request forwarded is the request, but for the Home Agent field when rewriting");
        }
    }

    private void answer(EngineHarness engine, ByteBuf buf, byte[] datagram, boolean rewrite, byte[] request)
            throws DecodeException {
        engine.fromClient(request, FOREIGN_AGENT);
        check(engine.toReals().size() == 1, "the valid request is forwarded");
        EngineHarness.ToReal sent = engine.toReals().get(0);
        DecisionFuzz.Outcome outcome = DecisionFuzz.fromReal(engine, buf, sent.real().address(), sent.socket(),
                FOREIGN_AGENT, Set.of(), 40);
        for (EngineHarness.ToClient c : outcome.toClients()) {
            relayed++;
            MipHeaderView reply = MipHeaderView.wrap(Unpooled.wrappedBuffer(datagram));
            MipHeaderView asked = MipHeaderView.wrap(Unpooled.wrappedBuffer(request));
            check(!reply.isRequest(), "only a Registration Reply answers");
            check(HaPlugin.transactionId(reply) == HaPlugin.transactionId(asked), "the reply answers the request");
            check(sameBut(c.bytes(), datagram, rewrite ? asked.homeAgent() : reply.homeAgent()),
                    "the reply relayed is the agent's, but for the Home Agent field set back when rewriting");
        }
    }

    /** {@code out} is {@code in} with the Home Agent field {@code homeAgent}. */
    private static boolean sameBut(byte[] out, byte[] in, int homeAgent) {
        if (out.length != in.length || in.length < HOME_AGENT_OFFSET + 4) {
            return false;
        }
        byte[] expected = in.clone();
        for (int i = 0; i < 4; i++) {
            expected[HOME_AGENT_OFFSET + i] = (byte) (homeAgent >>> (24 - 8 * i));
        }
        return Arrays.equals(out, expected);
    }

    /** Every valid datagram in the target's input form (each path, each option): the fuzzer's first corpus. */
    List<byte[]> seedInputs() {
        List<byte[]> all = new ArrayList<>();
        for (int rewrite = 0; rewrite < 2; rewrite++) {
            for (byte[] r : requests) {
                all.add(input(rewrite << 1, r));
            }
            for (int i = 0; i < replies.size(); i++) {
                all.add(input(1 | rewrite << 1 | answered.get(i) << 2, replies.get(i)));
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
