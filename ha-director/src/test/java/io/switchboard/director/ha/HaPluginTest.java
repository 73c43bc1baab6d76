package io.switchboard.director.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipFlags;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.codec.mip.MipReplyCode;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.director.testing.TestFarms;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Matching replies to requests, the Home Agent field rewrite and bad input, without a network. */
class HaPluginTest {

    private static final int VIRTUAL_HA = 0x7f00000a;   // 127.0.0.10
    private static final int HOME = 0x0a630001;         // 10.99.0.1
    private static final int CARE_OF = 0xc0000201;      // 192.0.2.1
    private static final InetSocketAddress FOREIGN_AGENT = new InetSocketAddress("127.0.0.20", 434);
    private static final byte[] KEY = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
    private static final int SPI = 256;

    private static HaPlugin plugin(boolean rewrite) {
        return new HaPlugin(new HaOptions(true, rewrite), new HaCounters(new SimpleMeterRegistry(), "ha"));
    }

    private static RealServer real(String address) throws Exception {
        return new RealServer("ha", new RealConfig(InetAddress.getByName(address), 434, 1, OptionalInt.empty(), true),
                new FailureDetection(8, 2, Duration.ofMinutes(1)), 0);
    }

    /** RRQ (type 1) or RRP (type 3, code 0), with an MN-NAI extension when {@code nai} is not null. */
    private static ByteBuf message(int type, int homeAddress, int homeAgent, long identification, String nai) {
        return Unpooled.wrappedBuffer(type == 1
                ? MipMessages.request(0, 1800, homeAddress, homeAgent, CARE_OF, identification, nai)
                : MipMessages.reply(0, 1800, homeAddress, homeAgent, identification, nai));
    }

    @Test
    void aReplyMatchesItsRequestWhateverTheAgentPutInTheHighOrderIdentificationBits() throws Exception {
        HaPlugin plugin = plugin(false);
        long request = plugin.clientTransactionId(message(1, HOME, VIRTUAL_HA, 0x11111111_22222222L, null));
        // RFC 5944 §5.7: with nonces the reply's high-order 32 bits are the agent's next nonce.
        long reply = plugin.responseTransactionId(message(3, HOME, VIRTUAL_HA, 0x99999999_22222222L, null));
        assertThat(reply).isEqualTo(request);
        assertThat(plugin.responseTransactionId(message(3, HOME + 1, VIRTUAL_HA, 0x99999999_22222222L, null)))
                .as("another mobile node's reply").isNotEqualTo(request);
    }

    @Test
    void withAnNaiTheAssignedHomeAddressOfTheReplyStillMatches() throws Exception {
        HaPlugin plugin = plugin(false);
        long request = plugin.clientTransactionId(message(1, 0, VIRTUAL_HA, 7, "mn@example.net"));
        assertThat(plugin.responseTransactionId(message(3, HOME, VIRTUAL_HA, 7, "mn@example.net"))).isEqualTo(request);
        assertThat(request >>> 40).isZero();
    }

    @Test
    void onlyRequestsAreDirectedAndOnlyRepliesMatched() {
        HaPlugin plugin = plugin(false);
        DecodeException toVip = catchThrowableOfType(DecodeException.class,
                () -> plugin.classify(message(3, HOME, VIRTUAL_HA, 1, null), null));
        assertThat(toVip.reason()).isEqualTo(DropReason.UNEXPECTED_MESSAGE);
        DecodeException fromAgent = catchThrowableOfType(DecodeException.class,
                () -> plugin.responseTransactionId(message(1, HOME, VIRTUAL_HA, 1, null)));
        assertThat(fromAgent.reason()).isEqualTo(DropReason.UNEXPECTED_MESSAGE);
    }

    @Test
    void theHomeAgentFieldIsRewrittenToTheChosenAgentAndBackInTheReply() throws Exception {
        HaPlugin plugin = plugin(true);
        ByteBuf rrq = message(1, HOME, VIRTUAL_HA, 5, null);
        var context = plugin.prepareRequest(rrq, plugin.clientTransactionId(rrq), real("10.30.0.3"), null);
        assertThat(MipHeaderView.wrap(rrq).homeAgent()).isEqualTo(0x0a1e0003);
        ByteBuf rrp = message(3, HOME, 0x0a1e0003, 5, null);
        plugin.prepareResponse(rrp, 5, context);
        assertThat(MipHeaderView.wrap(rrp).homeAgent()).isEqualTo(VIRTUAL_HA);
    }

    @Test
    void withoutRewritingNoByteChanges() throws Exception {
        HaPlugin plugin = plugin(false);
        ByteBuf rrq = message(1, HOME, VIRTUAL_HA, 5, "mn@example.net");
        ByteBuf copy = rrq.copy();
        var context = plugin.prepareRequest(rrq, plugin.clientTransactionId(rrq), real("10.30.0.3"), null);
        assertThat(rrq).isEqualTo(copy);
        ByteBuf rrp = message(3, HOME, VIRTUAL_HA, 5, "mn@example.net");
        ByteBuf replyCopy = rrp.copy();
        plugin.prepareResponse(rrp, 5, context);
        assertThat(rrp).isEqualTo(replyCopy);
        copy.release();
        replyCopy.release();
    }

    /** The engine of a virtual home agent over farm "ha", the home agent {@code 10.30.0.3:434}, for {@code plugin}. */
    private static EngineHarness engine(HaPlugin plugin) {
        RealConfig agent = new RealConfig(TestFarms.ip("10.30.0.3"), 434, 1, OptionalInt.empty(), true);
        Farms farms = new Farms(Map.of("ha", TestFarms.farm("ha", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                agent)));
        VirtualServerConfig vs = new VirtualServerConfig("ha", new Endpoint(TestFarms.ip("127.0.0.10"), 434),
                "ipmobile", "ha", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true);
        return new EngineHarness(vs, farms, null, plugin, new ManualTicker());
    }

    /**
     * Bad input only ever comes out of the plug-in as a DecodeException, which the engine counts and
     * drops: mutated copies (see {@link MipMessages#mutate}) of valid Registration Requests and Replies —
     * with and without MN-NAI, with MN-HA, FA-HA and MN-AAA authentication, a deregistration, replies
     * accepted and denied — go through the engine ({@link EngineHarness}), as datagrams to the virtual
     * address and as a home agent's answer to the valid request the reply was made for, with and
     * without {@code rewrite-home-agent}; nothing may come out of the engine but what it counts. At a
     * reader index other than 0 too (the view's offsets are relative to the message). A valid exchange
     * works afterwards.
     */
    @Test
    void mutatedDatagramsComeOutOnlyAsDecodeExceptions() throws Exception {
        List<HaPlugin> plugins = List.of(plugin(false), plugin(true));
        byte[] withNai = MipMessages.request(0, 1800, 0, VIRTUAL_HA, CARE_OF, 0x11111111_00000002L, "mn@example.net");
        byte[] mnHa = MipMessages.authenticated(withNai, MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY);
        // Lifetime 0: deregistration (RFC 5944 §3.3), here of all care-of addresses (care-of = home address).
        byte[] deregistration = MipMessages.authenticated(MipMessages.request(MipFlags.S, 0, HOME, VIRTUAL_HA, HOME,
                0x11111111_00000004L, null), MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY);
        byte[] plain = MipMessages.request(MipFlags.T, 1800, HOME, VIRTUAL_HA, CARE_OF, 0x11111111_00000001L, null);
        List<byte[]> requests = List.of(
                plain,
                withNai,
                mnHa,
                // Relayed by a foreign agent, which appends its FA-HA authentication (RFC 5944 §3.5.4).
                MipMessages.authenticated(mnHa, MipExtensionType.FA_HA_AUTHENTICATION, SPI + 1, KEY),
                MipMessages.authenticated(withNai, MipExtensionType.GENERALIZED_AUTHENTICATION, SPI, KEY),
                deregistration);
        // Each reply with the request it answers (same mobile node, same low-order Identification).
        Map<byte[], byte[]> replies = new LinkedHashMap<>();
        replies.put(MipMessages.reply(MipReplyCode.ACCEPTED.value(), 1800, HOME, VIRTUAL_HA, 0x11111111_00000001L, null),
                plain);
        replies.put(HomeAgentResponder.reply(MipHeaderView.wrap(Unpooled.wrappedBuffer(mnHa)), SPI, KEY), mnHa);
        replies.put(HomeAgentResponder.reply(MipHeaderView.wrap(Unpooled.wrappedBuffer(deregistration)), SPI, KEY),
                deregistration);
        replies.put(MipMessages.reply(MipReplyCode.HA_MOBILE_NODE_FAILED_AUTHENTICATION.value(), 0, 0, VIRTUAL_HA,
                0x11111111_00000002L, "mn@example.net"), withNai);
        // The agent's own time in the high-order 32 bits (RFC 5944 §5.7).
        replies.put(MipMessages.authenticated(MipMessages.reply(MipReplyCode.HA_IDENTIFICATION_MISMATCH.value(), 0, HOME,
                VIRTUAL_HA, 0x99999999_00000004L, null), MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY), deregistration);
        List<byte[]> replySeeds = List.copyOf(replies.keySet());
        // Either may arrive either way: a reply sent to the virtual address, a request from an agent.
        List<byte[]> seeds = Stream.concat(requests.stream(), replySeeds.stream()).toList();
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        int refused = 0;
        int relayed = 0;
        for (int i = 0; i < 20_000; i++) {
            HaPlugin plugin = plugins.get(random.nextInt(plugins.size()));
            // A lane of its own for each: what one left pending must not decide the next.
            EngineHarness engine = engine(plugin);
            boolean asRequest = random.nextBoolean();
            byte[] seedBytes = asRequest || random.nextBoolean() ? seeds.get(random.nextInt(seeds.size()))
                    : replySeeds.get(random.nextInt(replySeeds.size()));
            byte[] bytes = io.switchboard.director.testing.Mutations.mutate(seedBytes, random);
            int offset = random.nextInt(4);
            try {
                if (asRequest) {
                    with(bytes, offset, b -> engine.fromClient(b, FOREIGN_AGENT));
                } else {
                    // The valid request the seed answers (a request seed: any) is pending at the agent.
                    byte[] request = replies.getOrDefault(seedBytes, requests.get(random.nextInt(requests.size())));
                    engine.fromClient(request, FOREIGN_AGENT);
                    assertThat(engine.toReals()).as("the valid request").hasSize(1);
                    EngineHarness.ToReal sent = engine.toReals().get(0);
                    with(bytes, offset, b -> engine.fromReal(b, sent.real().address(), sent.socket()));
                }
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("seed " + seed + ", datagram " + i + (asRequest ? " to the VIP" : " from the agent")
                        + " at reader index " + offset + ": " + ByteBufUtil.hexDump(bytes), e);
            }
            refused += engine.drops().size() + engine.answersRefused().size();
            relayed += asRequest ? 0 : engine.toClients().size();
        }
        assertThat(refused).as("mutations the plug-in refused").isPositive();
        assertThat(relayed).as("mutated replies matched, inspected and relayed").isPositive();

        EngineHarness engine = engine(plugins.get(1));
        engine.fromClient(mnHa, FOREIGN_AGENT);
        EngineHarness.ToReal sent = engine.toReals().get(0);
        MipHeaderView forwarded = MipHeaderView.wrap(Unpooled.wrappedBuffer(sent.bytes()));
        assertThat(forwarded.homeAgent()).isEqualTo(0x0a1e0003);
        engine.answer(sent, HomeAgentResponder.reply(forwarded, SPI, KEY));
        assertThat(engine.toClients()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(FOREIGN_AGENT);
            assertThat(MipHeaderView.wrap(Unpooled.wrappedBuffer(c.bytes())).homeAgent()).isEqualTo(VIRTUAL_HA);
        });
    }

    /** {@code bytes} at reader index {@code offset} of a buffer the director would own, released after use. */
    private static void with(byte[] bytes, int offset, java.util.function.Consumer<ByteBuf> use) {
        ByteBuf buf = Unpooled.buffer(offset + bytes.length);
        buf.writeZero(offset).writeBytes(bytes).readerIndex(offset);
        try {
            use.accept(buf);
        } finally {
            buf.release();
        }
    }
}
