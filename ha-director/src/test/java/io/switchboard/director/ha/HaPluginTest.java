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
import io.switchboard.director.udp.LocalResponder;
import io.switchboard.director.udp.PeerRelay;
import io.switchboard.director.udp.ResponseVerdict;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
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
        Object context = plugin.prepareRequest(rrq, plugin.clientTransactionId(rrq), real("10.30.0.3"));
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
        Object context = plugin.prepareRequest(rrq, plugin.clientTransactionId(rrq), real("10.30.0.3"));
        assertThat(rrq).isEqualTo(copy);
        ByteBuf rrp = message(3, HOME, VIRTUAL_HA, 5, "mn@example.net");
        ByteBuf replyCopy = rrp.copy();
        plugin.prepareResponse(rrp, 5, context);
        assertThat(rrp).isEqualTo(replyCopy);
        copy.release();
        replyCopy.release();
    }

    /**
     * Bad input only ever comes out of the plug-in as a DecodeException, which the engine counts and
     * drops: mutated copies (see {@link MipMessages#mutate}) of valid Registration Requests and Replies —
     * with and without MN-NAI, with MN-HA, FA-HA and MN-AAA authentication, a deregistration, replies
     * accepted and denied — go through the entry points in the engine's order, as datagrams to the
     * virtual address and as answers from a home agent to a valid request, with and without
     * {@code rewrite-home-agent}; nothing else may be thrown. At a reader index other than 0 too (the
     * view's offsets are relative to the message). A valid exchange works afterwards.
     */
    @Test
    void mutatedDatagramsComeOutOnlyAsDecodeExceptions() throws Exception {
        List<HaPlugin> plugins = List.of(plugin(false), plugin(true));
        RealServer agent = real("10.30.0.3");
        byte[] withNai = MipMessages.request(0, 1800, 0, VIRTUAL_HA, CARE_OF, 0x11111111_00000002L, "mn@example.net");
        byte[] mnHa = MipMessages.authenticated(withNai, MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY);
        // Lifetime 0: deregistration (RFC 5944 §3.3), here of all care-of addresses (care-of = home address).
        byte[] deregistration = MipMessages.authenticated(MipMessages.request(MipFlags.S, 0, HOME, VIRTUAL_HA, HOME,
                0x11111111_00000004L, null), MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY);
        List<byte[]> requests = List.of(
                MipMessages.request(MipFlags.T, 1800, HOME, VIRTUAL_HA, CARE_OF, 0x11111111_00000001L, null),
                withNai,
                mnHa,
                // Relayed by a foreign agent, which appends its FA-HA authentication (RFC 5944 §3.5.4).
                MipMessages.authenticated(mnHa, MipExtensionType.FA_HA_AUTHENTICATION, SPI + 1, KEY),
                MipMessages.authenticated(withNai, MipExtensionType.GENERALIZED_AUTHENTICATION, SPI, KEY),
                deregistration);
        List<byte[]> replies = List.of(
                MipMessages.reply(MipReplyCode.ACCEPTED.value(), 1800, HOME, VIRTUAL_HA, 0x11111111_00000001L, null),
                HomeAgentResponder.reply(MipHeaderView.wrap(Unpooled.wrappedBuffer(mnHa)), SPI, KEY),
                HomeAgentResponder.reply(MipHeaderView.wrap(Unpooled.wrappedBuffer(deregistration)), SPI, KEY),
                MipMessages.reply(MipReplyCode.HA_MOBILE_NODE_FAILED_AUTHENTICATION.value(), 0, 0, VIRTUAL_HA,
                        0x11111111_00000002L, "mn@example.net"),
                // The agent's own time in the high-order 32 bits (RFC 5944 §5.7).
                MipMessages.authenticated(MipMessages.reply(MipReplyCode.HA_IDENTIFICATION_MISMATCH.value(), 0, HOME,
                        VIRTUAL_HA, 0x99999999_00000004L, null), MipExtensionType.MN_HA_AUTHENTICATION, SPI, KEY));
        // Either may arrive either way: a reply sent to the virtual address, a request from an agent.
        List<byte[]> seeds = Stream.concat(requests.stream(), replies.stream()).toList();
        // So the engine calls neither answerLocally nor relayTarget nor relayFromReal; were that to
        // change, this test would have to call them too.
        assertThat(plugins.get(0)).isNotInstanceOf(LocalResponder.class).isNotInstanceOf(PeerRelay.class);
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            HaPlugin plugin = plugins.get(random.nextInt(plugins.size()));
            boolean asRequest = random.nextBoolean();
            byte[] bytes = io.switchboard.director.testing.Mutations.mutate(seeds.get(random.nextInt(seeds.size())), random);
            int offset = random.nextInt(4);
            try {
                if (asRequest) {
                    throughRequestPath(plugin, bytes, offset, agent);
                } else {
                    throughAnswerPath(plugin, bytes, offset, agent, requests.get(random.nextInt(requests.size())));
                }
            } catch (DecodeException e) {
                refused++;
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("seed " + seed + ", datagram " + i + (asRequest ? " to the VIP" : " from the agent")
                        + " at reader index " + offset + ": " + ByteBufUtil.hexDump(bytes), e);
            }
        }
        assertThat(refused).as("mutations the plug-in refused").isPositive();
        HaPlugin rewriting = plugins.get(1);
        with(mnHa, 0, rrq -> {
            rewriting.classify(rrq, FOREIGN_AGENT);
            long id = rewriting.clientTransactionId(rrq);
            Object context = rewriting.prepareRequest(rrq, id, agent, FOREIGN_AGENT);
            with(HomeAgentResponder.reply(MipHeaderView.wrap(rrq), SPI, KEY), 0, rrp -> {
                assertThat(rewriting.responseTransactionId(rrp)).isEqualTo(id);
                rewriting.prepareResponse(rrp, id, context);
                assertThat(MipHeaderView.wrap(rrp).homeAgent()).isEqualTo(VIRTUAL_HA);
            });
        });
    }

    /** A datagram to the virtual address: the entry points UdpLane and TransactionUpstream.forward/dispatch call. */
    private static void throughRequestPath(HaPlugin plugin, byte[] bytes, int offset, RealServer agent)
            throws DecodeException {
        with(bytes, offset, b -> {
            plugin.classify(b, FOREIGN_AGENT);
            long id = plugin.clientTransactionId(b);
            if (plugin.rewritesTransactionId() && plugin.answersThroughDirector() && plugin.fanOut(b)) {
                return;
            }
            plugin.route(b);
            if (plugin.answersThroughDirector()) {
                plugin.expectsAnswer(b);
            }
            long mask = (1L << plugin.transactionIdBits()) - 1;
            plugin.prepareRequest(b, plugin.rewritesTransactionId() ? 1 : id & mask, agent, FOREIGN_AGENT);
        });
    }

    /**
     * A datagram from the home agent, as the answer to a valid request prepared for it: the entry
     * points TransactionUpstream.answer calls.
     */
    private static void throughAnswerPath(HaPlugin plugin, byte[] bytes, int offset, RealServer agent, byte[] request)
            throws DecodeException {
        ByteBuf rrq = Unpooled.copiedBuffer(request);
        long clientId;
        Object context;
        try {
            clientId = plugin.clientTransactionId(rrq);
            context = plugin.prepareRequest(rrq, clientId, agent, FOREIGN_AGENT);
        } finally {
            rrq.release();
        }
        with(bytes, offset, b -> {
            plugin.responseTransactionId(b);
            if (plugin.inspectResponse(b, agent, context) == ResponseVerdict.RELAY) {
                plugin.prepareResponse(b, clientId, context);
            }
        });
    }

    private interface Use {
        void accept(ByteBuf datagram) throws DecodeException;
    }

    /** {@code bytes} at reader index {@code offset} of a buffer the director would own, released after use. */
    private static void with(byte[] bytes, int offset, Use use) throws DecodeException {
        ByteBuf buf = Unpooled.buffer(offset + bytes.length);
        buf.writeZero(offset).writeBytes(bytes).readerIndex(offset);
        try {
            use.accept(buf);
        } finally {
            buf.release();
        }
    }
}
