package io.switchboard.director.asn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.testing.TestFarms;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.ResponseVerdict;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Keys, transaction ids and numbering of the ASN plug-in, without a network. */
class AsnPluginTest {

    private static final long MSID = 0x0a1b2c3d4e5fL;

    private static final InetSocketAddress BS = new InetSocketAddress(TestFarms.ip("127.0.2.20"), 2231);
    private static final RealServer GATEWAY = new RealServer("gateways",
            new RealConfig(TestFarms.ip("127.0.2.30"), 2231, 8, OptionalInt.empty(), true), TestFarms.FAIL_AT_ONCE, 0);

    private static AsnPlugin plugin(NwgRelease release) {
        return plugin(release, new SimpleMeterRegistry());
    }

    private static AsnPlugin plugin(NwgRelease release, SimpleMeterRegistry registry) {
        return new AsnPlugin(new AsnOptions(release, true), new AsnCounters(registry, "asn"));
    }

    @FunctionalInterface
    private interface Use<T> {
        T apply(ByteBuf buf) throws Exception;
    }

    /** Runs {@code use} on a buffer over {@code bytes}, released afterwards; the plug-in must not move its reader index. */
    private static <T> T with(byte[] bytes, Use<T> use) throws Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            T result = use.apply(buf);
            assertThat(buf.readerIndex()).as("reader index").isZero();
            return result;
        } finally {
            buf.release();
        }
    }

    /** The plug-in's decision for a message from the base station. */
    private static Decision.Direct decision(AsnPlugin plugin, byte[] bytes) throws Exception {
        return with(bytes, b -> (Decision.Direct) plugin.decide(b, BS, UnpooledByteBufAllocator.DEFAULT));
    }

    private static io.netty.buffer.ByteBuf wrap(byte[] bytes) {
        return Unpooled.wrappedBuffer(bytes);
    }

    @Test
    void theStickyKeyIsTheMsid() throws Exception {
        AsnPlugin plugin = plugin(NwgRelease.R1_0_V1_2_1);
        StickyKey key = plugin.classify(wrap(R6Messages.preAttachment(NwgRelease.R1_0_V1_2_1, R6PreAttachment.REQUEST,
                MSID, 1)), null);
        assertThat(key).isEqualTo(StickyKey.parse(AsnModule.MSID, "0a:1b:2c:3d:4e:5f"));
    }

    @Test
    void theResponseMatchesTheRequestAndTheAckIsAnotherTransactionThatExpectsNoAnswer() throws Exception {
        for (NwgRelease release : NwgRelease.values()) {
            AsnPlugin plugin = plugin(release);
            byte[] req = R6Messages.preAttachment(release, R6PreAttachment.REQUEST, MSID, 0x0101);
            byte[] rsp = R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, MSID, 0x0101);
            byte[] ack = R6Messages.preAttachment(release, R6PreAttachment.ACK, MSID, 0x0101);
            long request = plugin.clientTransactionId(wrap(req));
            assertThat(plugin.responseTransactionId(wrap(rsp))).isEqualTo(request);
            assertThat(plugin.clientTransactionId(wrap(ack))).as("not a retransmission of the Req").isNotEqualTo(request);
            assertThat(decision(plugin, req).expectsAnswer()).isTrue();
            assertThat(decision(plugin, ack).expectsAnswer()).isFalse();
            assertThat(plugin.responseTransactionId(wrap(
                    R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, MSID + 1, 0x0101))))
                    .as("another MSID's response").isNotEqualTo(request);
            assertThat(request & 0xffff).isEqualTo(0x0101);
        }
    }

    @Test
    void theRspOfTheConfiguredReleaseMayNotBeSentToTheVirtualAddress() throws Exception {
        byte[] rsp100 = R6Messages.preAttachment(NwgRelease.R1_0_V1_0_0, R6PreAttachment.RESPONSE, MSID, 1);
        DecodeException e = catchThrowableOfType(DecodeException.class,
                () -> plugin(NwgRelease.R1_0_V1_0_0).classify(wrap(rsp100), null));
        assertThat(e.reason()).isEqualTo(DropReason.UNEXPECTED_MESSAGE);
        // Under v1.2.1 message type 7 is no MS_PreAttachment message: directed by its MSID.
        assertThat(plugin(NwgRelease.R1_0_V1_2_1).classify(wrap(rsp100), null).kind()).isEqualTo(AsnModule.MSID);
        assertThat(plugin(NwgRelease.R1_0_V1_2_1).messageName(io.switchboard.codec.asn.r6.R6View.wrap(wrap(rsp100))))
                .isEqualTo("MS State Response");
    }

    /**
     * Bad input only ever comes out of the plug-in as a DecodeException, which the engine counts and
     * drops: mutated copies of valid R6 messages (see {@code R6Messages.mutate}), under every release,
     * go through the entry points the engine calls for an ASN virtual server, in its order — classify,
     * expects-answer, transaction id, prepare as requests from a base station; transaction id,
     * inspection and preparation as the answer to a valid MS_PreAttachment_Req — and nothing else may
     * be thrown. A valid exchange works afterwards.
     */
    @Test
    void mutatedDatagramsComeOutOnlyAsDecodeExceptions() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        NwgRelease[] releases = NwgRelease.values();
        AsnPlugin[] plugins = new AsnPlugin[releases.length];
        List<List<byte[]>> requests = new ArrayList<>();
        List<List<byte[]>> answers = new ArrayList<>();
        for (int r = 0; r < releases.length; r++) {
            NwgRelease release = releases[r];
            plugins[r] = plugin(release, registry);
            byte[] other = R6Messages.message(1, 9, 2, 2, MSID + 3, 0x0301, R6Messages.BS_INFO);
            byte[] headerOnly = R6Messages.message(1, 3, 4, 1, MSID + 4, 0x0401); // an indication without TLVs
            requests.add(List.of(R6Messages.preAttachment(release, R6PreAttachment.REQUEST, MSID, 0x0101),
                    R6Messages.preAttachment(release, R6PreAttachment.ACK, MSID, 0x0101), other, headerOnly));
            answers.add(List.of(R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, MSID, 0x0101), other,
                    headerOnly));
        }
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            int r = random.nextInt(releases.length);
            boolean asRequest = random.nextBoolean();
            List<byte[]> seeds = (asRequest ? requests : answers).get(r);
            byte[] bytes = io.switchboard.director.testing.Mutations.mutate(seeds.get(random.nextInt(seeds.size())), random);
            try {
                if (asRequest) {
                    throughRequestPath(plugins[r], bytes);
                } else {
                    throughAnswerPath(plugins[r], releases[r], bytes);
                }
            } catch (DecodeException e) {
                refused++;
            } catch (Exception | AssertionError e) {
                throw new AssertionError("seed " + seed + ", datagram " + i + ", " + releases[r] + ", "
                        + (asRequest ? "request" : "answer") + ": " + HexFormat.of().formatHex(bytes), e);
            }
        }
        assertThat(refused).as("mutations the plug-in refused").isPositive();
        for (int r = 0; r < releases.length; r++) {
            validExchange(plugins[r], releases[r], registry);
        }
    }

    private static void throughRequestPath(AsnPlugin plugin, byte[] bytes) throws Exception {
        with(bytes, b -> {
            long id = ((Decision.Direct) plugin.decide(b, BS, UnpooledByteBufAllocator.DEFAULT)).transactionId();
            // The engine's id toward the gateway: the client's own, masked (no rewriting).
            plugin.prepareRequest(b, id & 0xFF_FFFF_FFFFL, GATEWAY, BS);
            return null;
        });
    }

    private static void throughAnswerPath(AsnPlugin plugin, NwgRelease release, byte[] bytes) throws Exception {
        byte[] request = R6Messages.preAttachment(release, R6PreAttachment.REQUEST, MSID, 0x0101);
        long clientId = with(request, plugin::clientTransactionId);
        String context = with(request, b -> plugin.prepareRequest(b, clientId, GATEWAY, BS));
        with(bytes, b -> {
            plugin.responseTransactionId(b);
            if (plugin.inspectResponse(b, GATEWAY, context) == ResponseVerdict.RELAY) {
                plugin.prepareResponse(b, clientId, context);
            }
            return null;
        });
    }

    /** Req to the gateway, its Rsp matched and relayed, the Ack forwarded without an answer: each counted once. */
    private static void validExchange(AsnPlugin plugin, NwgRelease release, SimpleMeterRegistry registry)
            throws Exception {
        long msid = MSID + 0x100;
        byte[] req = R6Messages.preAttachment(release, R6PreAttachment.REQUEST, msid, 0x0777);
        byte[] rsp = R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, msid, 0x0777);
        byte[] ack = R6Messages.preAttachment(release, R6PreAttachment.ACK, msid, 0x0777);
        double reqs = messages(registry, "to-gateway", "MS_PreAttachment_Req");
        double rsps = messages(registry, "from-gateway", "MS_PreAttachment_Rsp");
        double acks = messages(registry, "to-gateway", "MS_PreAttachment_Ack");
        StickyKey key = with(req, b -> plugin.classify(b, BS));
        assertThat(key).isEqualTo(StickyKey.parse(AsnModule.MSID, "0a:1b:2c:3d:4f:5f"));
        long id = with(req, plugin::clientTransactionId);
        String context = with(req, b -> plugin.prepareRequest(b, id, GATEWAY, BS));
        long rspId = with(rsp, plugin::responseTransactionId);
        assertThat(rspId).as("the Rsp matches the Req").isEqualTo(id);
        with(rsp, b -> {
            assertThat(plugin.inspectResponse(b, GATEWAY, context)).isEqualTo(ResponseVerdict.RELAY);
            plugin.prepareResponse(b, id, context);
            return null;
        });
        assertThat(decision(plugin, ack).expectsAnswer()).isFalse();
        long ackId = with(ack, plugin::clientTransactionId);
        with(ack, b -> plugin.prepareRequest(b, ackId, GATEWAY, BS));
        assertThat(messages(registry, "to-gateway", "MS_PreAttachment_Req")).isEqualTo(reqs + 1);
        assertThat(messages(registry, "from-gateway", "MS_PreAttachment_Rsp")).isEqualTo(rsps + 1);
        assertThat(messages(registry, "to-gateway", "MS_PreAttachment_Ack")).isEqualTo(acks + 1);
    }

    private static double messages(SimpleMeterRegistry registry, String direction, String type) {
        var counter = registry.find("switchboard.asn.messages").tag("direction", direction).tag("type", type)
                .tag("real", GATEWAY.id()).counter();
        return counter == null ? 0 : counter.count();
    }
}
