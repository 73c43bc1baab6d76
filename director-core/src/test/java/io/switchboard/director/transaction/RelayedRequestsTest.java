package io.switchboard.director.transaction;

import static io.switchboard.director.testing.ToyPlugin.id;
import static io.switchboard.director.testing.ToyPlugin.request;
import static io.switchboard.director.testing.ToyPlugin.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.RealRequests;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.TestFarms;
import io.switchboard.director.testing.ToyPlugin;
import java.net.InetSocketAddress;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A real's own requests through the engine ({@link RelayedRequests}): to the peer under a director id,
 * retransmissions under the same one, the peer's answer back to the real under the real's own id,
 * unanswered ones expired and counted once; and a client's request that the real answers with a
 * request of its own or a failure indication ({@link TriggeringRequests}, a GTPv2 Command).
 */
class RelayedRequestsTest {

    private static final InetSocketAddress PEER = new InetSocketAddress(TestFarms.ip("192.0.2.70"), 2123);

    /**
     * A toy whose reals send requests to the virtual address ("Q" from the real: its words "answers N"
     * answer the triggering request under director id N, "gone" makes its answer impossible to
     * restore), whose peer answers them ("R" from {@link #PEER}), whose clients' requests with the
     * word "cmd" the real answers with a request of its own or a failure indication ("F" from the
     * real). Ids toward peers are 10 bits in space 1.
     */
    private static final class RequestingToyPlugin extends ToyPlugin implements RealRequests<String> {

        private final InetSocketAddress real;

        RequestingToyPlugin(InetSocketAddress real) {
            this.real = real;
        }

        @Override
        public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc)
                throws DecodeException {
            byte kind = datagram.getByte(datagram.readerIndex());
            int id = datagram.getUnsignedShort(datagram.readerIndex() + 1);
            String text = datagram.toString(datagram.readerIndex() + 3, datagram.readableBytes() - 3,
                    java.nio.charset.StandardCharsets.US_ASCII);
            if (kind == 'Q' && sender.equals(real)) {
                int answers = text.indexOf("answers ");
                long command = answers < 0 ? -1 : Long.parseLong(text.substring(answers + 8).split(" ")[0]);
                return new Decision.RealRequest(PEER, 1, id, command, text);
            }
            if (kind == 'F' && sender.equals(real)) {
                return new Decision.TriggeredAnswer(id);
            }
            if (kind == 'R' && sender.equals(PEER)) {
                return new Decision.PeerAnswer(1, id);
            }
            Decision decision = super.decide(datagram, sender, alloc);
            return text.contains("cmd") ? ((Decision.Direct) decision).triggering() : decision;
        }

        /** A real's request or failure indication at a director socket: as at the virtual address. */
        @Override
        public Decision fromReal(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
            byte kind = datagram.getByte(datagram.readerIndex());
            return kind == 'Q' || kind == 'F' ? decide(datagram, sender, null) : null;
        }

        /** A real's request that says "elsewhere" answers no client's request (gtp-inspect: another session's). */
        @Override
        public boolean answers(Object requestContext, String context) {
            return !context.contains("elsewhere");
        }

        /** The client's own id of its request, which the real's answering request goes under. */
        @Override
        public long idAnswering(long clientTransactionId) {
            return clientTransactionId;
        }

        @Override
        public RealRequests<?> realRequests() {
            return this;
        }

        @Override
        public int directorIdBits(int space) {
            return 10;
        }

        @Override
        public Codec<String> codec() {
            return Codec.UTF8;
        }

        @Override
        public void prepareRequest(ByteBuf request, long directorId, String context) {
            request.setShort(request.readerIndex() + 1, (int) directorId);
        }

        @Override
        public void prepareAnswer(ByteBuf answer, long realId, String context) throws DecodeException {
            if (context.contains("gone")) {
                throw new DecodeException(DropReason.of("toy-session-gone"), "its session ended");
            }
            answer.setShort(answer.readerIndex() + 1, (int) realId);
        }
    }

    private final EngineFixture fixture = new EngineFixture(FailureDetection.DEFAULT, "10.0.0.1");
    private final RealServer real = fixture.real("10.0.0.1");
    private final EngineHarness engine = fixture.harness(new RequestingToyPlugin(real.address()), false);

    private static byte[] answer(int id, String text) {
        byte[] q = request(id, text);
        q[0] = 'R';
        return q;
    }

    @Test
    void aRealsRequestGoesToThePeerUnderADirectorIdAndTheAnswerBackUnderTheRealsOwn() {
        engine.fromClient(request(0x0101, "update"), real.address());
        engine.fromClient(request(0x0101, "update"), real.address()); // the real retransmits
        assertThat(engine.toClients()).hasSize(2).allSatisfy(c -> assertThat(c.to()).isEqualTo(PEER));
        int directorId = id(engine.toClients().get(0).bytes());
        assertThat(id(engine.toClients().get(1).bytes())).as("the retransmission's id").isEqualTo(directorId);
        assertThat(directorId).isNotEqualTo(0x0101).isLessThan(1 << 10);
        assertThat(engine.metrics().realRequestsRelayedCount()).isEqualTo(1);
        assertThat(engine.metrics().realRequestsRetransmittedCount()).isEqualTo(1);

        engine.fromClient(answer(directorId, "accepted"), PEER);
        assertThat(engine.toClients()).hasSize(3);
        EngineHarness.ToClient back = engine.toClients().get(2);
        assertThat(back.to()).isEqualTo(real.address());
        assertThat(id(back.bytes())).isEqualTo(0x0101);
        assertThat(text(back.bytes())).isEqualTo("accepted");
        assertThat(engine.metrics().relayedCount()).as("the answer relayed").isEqualTo(1);

        engine.fromClient(answer(directorId, "accepted"), PEER); // the peer's duplicate
        assertThat(engine.toClients()).hasSize(3);
        assertThat(engine.drops()).containsExactly(EngineDrops.NO_RELAYED_REQUEST);
        assertThat(engine.toReals()).as("nothing of it went to the farm").isEmpty();
    }

    @Test
    void anUnansweredRequestExpiresAfterTheResponseTimeoutCountedOnce() {
        engine.housekeep(); // the first pass, at the start
        engine.fromClient(request(7, "delete"), real.address());
        int directorId = id(engine.toClients().get(0).bytes());
        fixture.ticker.advance(EngineFixture.TIMEOUT.plusSeconds(1));
        engine.housekeep();
        engine.housekeep();
        assertThat(engine.metrics().realRequestsExpiredCount()).isEqualTo(1);
        engine.fromClient(answer(directorId, "late"), PEER);
        assertThat(engine.drops()).containsExactly(EngineDrops.NO_RELAYED_REQUEST);
        // The real's next request under the same id of its own is a new one, not a retransmission.
        engine.fromClient(request(7, "delete"), real.address());
        assertThat(engine.metrics().realRequestsRelayedCount()).isEqualTo(2);
    }

    private static byte[] failure(int id, String text) {
        byte[] f = request(id, text);
        f[0] = 'F';
        return f;
    }

    @Test
    void aClientsRequestTheRealAnswersWithARequestGoesOneWayAndTheRealsRequestBackUnderTheClientsId() {
        engine.fromClient(request(0x0321, "peer;cmd"), PEER);
        engine.fromClient(request(0x0321, "peer;cmd"), PEER); // the client retransmits
        assertThat(engine.toReals()).hasSize(2);
        long directorId = engine.toReals().get(0).transactionId();
        assertThat(engine.toReals().get(1).transactionId()).as("the retransmission's id").isEqualTo(directorId);
        assertThat(engine.forwarded()).first().satisfies(f -> assertThat(f.oneWay()).isTrue());
        assertThat(engine.virtualServer().relayedRequests().triggering().size()).isEqualTo(1);

        // The real's request answering it, to the director socket it came from (or the VIP: one path).
        byte[] triggered = request(0x0777, "answers " + directorId);
        engine.fromReal(triggered, real.address(), 0);
        engine.fromReal(triggered, real.address(), 0); // the real retransmits it
        assertThat(engine.toClients()).hasSize(2).allSatisfy(c -> {
            assertThat(c.to()).isEqualTo(PEER);
            assertThat(id(c.bytes())).as("the client's own id of its request").isEqualTo(0x0321);
        });
        assertThat(engine.metrics().realRequestsTriggeredCount()).isEqualTo(1);
        assertThat(engine.virtualServer().relayedRequests().triggering().size()).isZero();
        // The client's answer to it goes to the real under the real's id.
        engine.fromClient(answer(0x0321, "accepted"), PEER);
        assertThat(engine.toClients().get(2).to()).isEqualTo(real.address());
        assertThat(id(engine.toClients().get(2).bytes())).isEqualTo(0x0777);
        assertThat(real.unanswered()).isZero();
    }

    @Test
    void twoClientsRequestsUnderOneIdOfTheirsGoUnderTwoDirectorIds() {
        engine.fromClient(request(0x0330, "peer;cmd"), PEER);
        engine.fromClient(request(0x0330, "alice;cmd"), EngineFixture.ALICE);
        assertThat(engine.toReals()).extracting(EngineHarness.ToReal::transactionId).doesNotHaveDuplicates();
        assertThat(engine.metrics().retransmittedCount()).isZero();
        assertThat(engine.virtualServer().relayedRequests().triggering().size()).isEqualTo(2);
    }

    @Test
    void aFailureIndicationGoesToTheClientAsItsAnswerOnce() {
        engine.fromClient(request(0x0322, "peer;cmd"), PEER);
        long directorId = engine.toReals().get(0).transactionId();
        engine.fromClient(failure((int) directorId, "refused"), real.address()); // to the virtual address
        assertThat(engine.toClients()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(PEER);
            assertThat(id(c.bytes())).isEqualTo(0x0322);
            assertThat(text(c.bytes())).isEqualTo("refused");
        });
        engine.fromClient(failure((int) directorId, "refused"), real.address());
        assertThat(engine.toClients()).hasSize(1);
        assertThat(engine.drops()).containsExactly(EngineDrops.NO_RELAYED_REQUEST);
    }

    @Test
    void aRealsRequestThePlugInSaysIsNotTheAnswerAnswersNoClientsRequest() {
        engine.fromClient(request(0x0323, "peer;cmd"), PEER);
        long directorId = engine.toReals().get(0).transactionId();
        engine.fromReal(request(0x0778, "answers " + directorId + " elsewhere"), real.address(), 0);
        assertThat(id(engine.toClients().get(0).bytes())).isNotEqualTo(0x0323);
        assertThat(engine.metrics().realRequestsTriggeredCount()).isZero();
        assertThat(engine.virtualServer().relayedRequests().triggering().size()).as("still outstanding").isEqualTo(1);
    }

    @Test
    void aTriggeringRequestTheRealNeverAnswersExpiresCounted() {
        engine.housekeep();
        engine.fromClient(request(0x0324, "peer;cmd"), PEER);
        fixture.ticker.advance(EngineFixture.TIMEOUT.plusSeconds(1));
        engine.housekeep();
        assertThat(engine.virtualServer().relayedRequests().triggering().size()).isZero();
        assertThat(engine.metrics().expiredCount()).isEqualTo(1);
        assertThat(real.unanswered()).as("answered by requests, not counted against the real").isZero();
    }

    @Test
    void anAnswerThePlugInCannotRestoreIsDroppedWithItsReason() {
        engine.fromClient(request(3, "gone"), real.address());
        engine.fromClient(answer(id(engine.toClients().get(0).bytes()), "accepted"), PEER);
        assertThat(engine.toClients()).hasSize(1);
        assertThat(engine.drops()).containsExactly(DropReason.of("toy-session-gone"));
    }

    @Test
    void aDatagramFromAnotherSenderIsNoRealsRequest() {
        engine.fromClient(request(4, "alice;x"), EngineFixture.ALICE);
        assertThat(engine.toReals()).as("a client's request goes to the farm").hasSize(1);
        assertThat(engine.metrics().realRequestsRelayedCount()).isZero();
    }

    @Test
    void theSharedFormRoundTripsAndRefusesTruncatedBytes() {
        RelayedRequests.SharedCodec codec = new RelayedRequests.SharedCodec();
        for (RelayedRequests.Shared r : new RelayedRequests.Shared[] {
                new RelayedRequests.Shared(new InetSocketAddress("127.0.7.31", 2123), 1, 0xFFFF, new byte[] {1, 2}, 9),
                new RelayedRequests.Shared(new InetSocketAddress("::1", 40000), 2, 0x7F_FFFF, new byte[0],
                        1_764_000_000_000L)}) {
            RelayedRequests.Shared back = codec.decode(codec.encode(r));
            assertThat(back.realSender()).isEqualTo(r.realSender());
            assertThat(back.space()).isEqualTo(r.space());
            assertThat(back.realId()).isEqualTo(r.realId());
            assertThat(back.context()).isEqualTo(r.context());
            assertThat(back.sentMillis()).isEqualTo(r.sentMillis());
        }
        byte[] bytes = codec.encode(new RelayedRequests.Shared(new InetSocketAddress("127.0.7.31", 2123), 1, 1,
                new byte[] {7}, 1));
        assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
