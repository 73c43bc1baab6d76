package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The plug-in as a function over bytes, without a network. */
class GtpPluginTest {

    private static final InetSocketAddress SGSN = new InetSocketAddress("127.0.0.20", 2123);
    private final GtpPlugin plugin = new GtpPlugin(GtpOptions.DEFAULT);

    private static <T> T with(byte[] bytes, ThrowingFunction<ByteBuf, T> f) throws DecodeException {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.buffer(bytes.length).writeBytes(bytes);
        try {
            return f.apply(buf);
        } finally {
            buf.release();
        }
    }

    interface ThrowingFunction<A, B> {
        B apply(A a) throws DecodeException;
    }

    private static StickyKey classify(GtpPlugin plugin, byte[] bytes) throws DecodeException {
        return GtpPluginTest.<StickyKey>with(bytes, b -> plugin.classify(b, SGSN));
    }

    private static StickyKey imsi(String digits) {
        return StickyKey.of(GtpModule.IMSI, digits.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void createsAreKeyedByTheirImsi() throws DecodeException {
        assertThat(classify(plugin, GtpMessages.v1CreateRequest("262420000000001", 1, 5)))
                .isEqualTo(imsi("262420000000001"));
        assertThat(classify(plugin, GtpMessages.v2CreateRequest("262420000000002", 1)))
                .isEqualTo(imsi("262420000000002"));
        GtpPlugin v0 = new GtpPlugin(new GtpOptions(Set.of(0), 2, Set.of(), Set.of(), List.of(),
                GtpV0TidOrder.LIBGTP_REVERSED, 0));
        assertThat(classify(v0, GtpMessages.v0CreateRequest("262420000000003", 5, 1, GtpV0TidOrder.LIBGTP_REVERSED)))
                .isEqualTo(imsi("262420000000003"));
    }

    @Test
    void theSequenceIsRewrittenAndRestoredInPlaceWithoutMovingTheReaderIndex() throws DecodeException {
        byte[] request = GtpMessages.v2CreateRequest("262420000000002", 0xABCDEF);
        with(request, b -> {
            long client = plugin.clientTransactionId(b);
            assertThat(client).isEqualTo((2L << 32) | 0xABCDEF);
            plugin.prepareRequest(b, 0x1234, null, null);
            assertThat(b.readerIndex()).isZero();
            assertThat(b.getUnsignedMedium(8)).isEqualTo(0x1234);
            return null;
        });
        with(GtpMessages.v2CreateResponse(0x1234, 16, 0x3000, 1, new byte[] {1, 2, 3, 4}), b -> {
            assertThat(plugin.responseTransactionId(b)).isEqualTo(0x1234);
            plugin.prepareResponse(b, (2L << 32) | 0xABCDEF, null);
            assertThat(b.getUnsignedMedium(8)).isEqualTo(0xABCDEF);
            return null;
        });
    }

    @Test
    void idsAreSixteenBitsWhenGtpV1IsServedAndTwentyThreeForGtpV2Alone() {
        assertThat(plugin.transactionIdBits()).isEqualTo(16);
        assertThat(new GtpPlugin(new GtpOptions(Set.of(2), 2, Set.of(), Set.of(), List.of(), GtpV0TidOrder.GSM_09_60, 0))
                .transactionIdBits()).isEqualTo(23);
    }

    @Test
    void requestsFromARealThatAreNoResponsesDoNotMatchPendingCreates() {
        assertThatThrownBy(() -> with(GtpMessages.v1EchoRequest(7), plugin::responseTransactionId))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(DropReason.UNEXPECTED_MESSAGE));
    }

    @Test
    void onlyEchoAndForeignVersionsAreAnsweredLocally() throws DecodeException {
        Function<byte[], Boolean> answered = bytes -> {
            try {
                return with(bytes, b -> {
                    ByteBuf answer = plugin.answerLocally(b, SGSN, PooledByteBufAllocator.DEFAULT);
                    if (answer != null) {
                        answer.release();
                    }
                    return answer != null;
                });
            } catch (DecodeException e) {
                throw new AssertionError(e);
            }
        };
        assertThat(answered.apply(GtpMessages.v1EchoRequest(1))).isTrue();
        assertThat(answered.apply(GtpMessages.v2EchoRequest(1))).isTrue();
        assertThat(answered.apply(GtpMessages.v0EchoRequest(1))).as("v0 on a v1/v2 server: VNS").isTrue();
        assertThat(answered.apply(new byte[] {(byte) 0x60, 1, 0, 0})).as("version 3: VNS").isTrue();
        assertThat(answered.apply(GtpMessages.v1CreateRequest("262420000000001", 1, 5))).isFalse();
    }

    @Test
    void theRestartCounterFileIsIncrementedAtEveryStartAndWraps(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("state/gtp.recovery");
        GtpOptions options = new GtpOptions(Set.of(1, 2), 2, Set.of(), Set.of(), List.of(), GtpV0TidOrder.GSM_09_60, 7,
                java.util.Optional.of(file), true);
        assertThat(new GtpPlugin(options).recovery()).as("no file yet").isEqualTo(0);
        assertThat(new GtpPlugin(options).recovery()).isEqualTo(1);
        assertThat(java.nio.file.Files.readString(file).trim()).isEqualTo("1");
        java.nio.file.Files.writeString(file, "255\n");
        GtpPlugin wrapped = new GtpPlugin(options);
        assertThat(wrapped.recovery()).isEqualTo(0);
        byte[] echo = with(GtpMessages.v1EchoRequest(3), b -> {
            ByteBuf answer = wrapped.answerLocally(b, SGSN, PooledByteBufAllocator.DEFAULT);
            try {
                return io.netty.buffer.ByteBufUtil.getBytes(answer);
            } finally {
                answer.release();
            }
        });
        assertThat(echo[13]).as("Recovery IE value").isEqualTo((byte) 0);
        assertThat(new GtpPlugin(GtpOptions.DEFAULT).recovery()).isZero();
    }

    /**
     * The transparent service's entry points, in the engine's order, on mutated copies of valid
     * datagrams ({@code Mutations.mutate}): bad input comes out only as a DecodeException.
     */
    @Test
    void mutatedDatagramsComeOutOnlyAsDecodeExceptions() {
        List<byte[]> requests = List.of(GtpMessages.v1CreateRequest("262420000000101", 1, 5),
                GtpMessages.v2CreateRequest("262420000000102", 2, 0x3000, new byte[] {127, 0, 0, 20}, null, "internet", 5),
                GtpMessages.v0CreateRequest("262420000000103", 5, 3, GtpV0TidOrder.GSM_09_60),
                GtpMessages.v1EchoRequest(4), GtpMessages.v2EchoRequest(5));
        List<byte[]> answers = List.of(GtpMessages.v1CreateResponse(6, 128, 0x2005, 1, new byte[] {1, 2, 3, 4}),
                GtpMessages.v2CreateResponse(7, 16, 0x3000, 1, new byte[] {1, 2, 3, 4}));
        long seed = new java.util.SplittableRandom().nextLong();
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            boolean asRequest = random.nextBoolean();
            List<byte[]> seeds = asRequest ? requests : answers;
            byte[] bytes = io.switchboard.director.testing.Mutations.mutate(seeds.get(random.nextInt(seeds.size())), random);
            try {
                with(bytes, b -> {
                    if (asRequest) {
                        ByteBuf local = plugin.answerLocally(b, SGSN, io.netty.buffer.UnpooledByteBufAllocator.DEFAULT);
                        if (local != null) {
                            local.release();
                            return null;
                        }
                        plugin.classify(b, SGSN);
                        plugin.clientTransactionId(b);
                        plugin.route(b);
                        plugin.prepareRequest(b, 0x1234, null, null);
                    } else {
                        plugin.responseTransactionId(b);
                        plugin.inspectResponse(b, null, null);
                        plugin.prepareResponse(b, 0x1234, null);
                    }
                    return null;
                });
            } catch (DecodeException e) {
                refused++;
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("seed " + seed + ", datagram " + i + ": "
                        + io.netty.buffer.ByteBufUtil.hexDump(bytes), e);
            }
        }
        assertThat(refused).as("mutations the plug-in refused").isPositive();
    }
}
