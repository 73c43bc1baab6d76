package io.switchboard.director.transaction;

import static io.switchboard.director.testing.ToyPlugin.answer;
import static io.switchboard.director.testing.ToyPlugin.request;
import static io.switchboard.director.transaction.EngineFixture.ALICE;
import static io.switchboard.director.transaction.EngineFixture.BOB;
import static io.switchboard.director.transaction.EngineFixture.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.director.spi.Decision;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Selection;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.EngineHarness.ToReal;
import io.switchboard.director.testing.TestFarms;
import io.switchboard.director.testing.ToyPlugin;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The transaction engine on its own, with the test protocol {@link ToyPlugin}: selection, director
 * ids, answers restored and relayed, retransmissions, expiry, pinned requests, reassignment, fan-out
 * and the id spaces, read from what it sent, the counters and the reals.
 */
class TransactionEngineTest {

    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";
    private static final String C = "10.0.0.3";

    private final EngineFixture fixture = new EngineFixture(FailureDetection.DEFAULT, A, B, C);

    private static byte[] withId(byte[] message, int id) {
        byte[] copy = message.clone();
        copy[1] = (byte) (id >> 8);
        copy[2] = (byte) id;
        return copy;
    }

    @Test
    void aNewRequestIsSelectedSentUnderADirectorIdAndItsAnswerRestoredForItsClient() {
        EngineFixture one = new EngineFixture(FailureDetection.DEFAULT, A);
        EngineHarness engine = one.harness(new ToyPlugin(), true);
        engine.fromClient(request(7, "alice;hello"), ALICE);
        engine.fromClient(request(7, "bob;hi"), BOB);

        List<ToReal> sent = engine.toReals();
        assertThat(sent).hasSize(2);
        RealServer real = one.real(A);
        assertThat(sent).allSatisfy(s -> assertThat(s.real()).isSameAs(real));
        // The same client id from two clients: two director ids, as written into the requests.
        assertThat(sent.get(0).transactionId()).isNotEqualTo(sent.get(1).transactionId());
        assertThat(sent).allSatisfy(s -> assertThat((long) ToyPlugin.id(s.bytes())).isEqualTo(s.transactionId()));
        assertThat(ToyPlugin.text(sent.get(1).bytes())).isEqualTo("bob;hi");
        assertThat(engine.forwarded()).extracting(EngineHarness.Forwarded::how)
                .containsExactly(Selection.Reason.PREDICTOR, Selection.Reason.PREDICTOR);
        assertThat(real.connections()).isEqualTo(2);

        // Answered in the other order: each goes to its own client with the client's id.
        engine.answer(sent.get(1), answer(sent.get(1).bytes(), "for bob"));
        engine.answer(sent.get(0), answer(sent.get(0).bytes(), "for alice"));
        assertThat(engine.toClients()).hasSize(2);
        assertThat(engine.toClients().get(0).to()).isEqualTo(BOB);
        assertThat(engine.toClients().get(0).bytes()).isEqualTo(answer(request(7, ""), "for bob"));
        assertThat(engine.toClients().get(1).to()).isEqualTo(ALICE);
        assertThat(engine.toClients().get(1).bytes()).isEqualTo(answer(request(7, ""), "for alice"));
        assertThat(engine.metrics().receivedCount()).isEqualTo(2);
        assertThat(engine.metrics().forwardedCount()).isEqualTo(2);
        assertThat(engine.metrics().relayedCount()).isEqualTo(2);
        assertThat(real.forwarded()).isEqualTo(2);
        assertThat(real.answered()).isEqualTo(2);
        assertThat(real.connections()).isZero();
    }

    @Test
    void aRetransmissionGoesToTheSameRealUnderTheSameIdAndCountsAsOne() {
        // No sticky table, round robin: a new request would go to the next real.
        EngineHarness engine = fixture.harness(new ToyPlugin(), false);
        engine.fromClient(request(42, "carol;x"), ALICE);
        engine.fromClient(request(42, "carol;x"), ALICE);
        engine.fromClient(request(43, "carol;y"), ALICE);

        List<ToReal> sent = engine.toReals();
        assertThat(sent).hasSize(3);
        assertThat(sent.get(1).real()).isSameAs(sent.get(0).real());
        assertThat(sent.get(1).transactionId()).isEqualTo(sent.get(0).transactionId());
        assertThat(sent.get(1).socket()).isEqualTo(sent.get(0).socket());
        assertThat(sent.get(2).real()).as("a new request is balanced").isNotSameAs(sent.get(0).real());
        assertThat(engine.metrics().forwardedCount()).isEqualTo(2);
        assertThat(engine.metrics().retransmittedCount()).isEqualTo(1);
        assertThat(sent.get(0).real().forwarded()).isEqualTo(1);
        assertThat(sent.get(0).real().connections()).isEqualTo(1);

        // The real answers both copies: the first is relayed, the second finds nothing pending.
        engine.answer(sent.get(0), answer(sent.get(0).bytes(), "ok"));
        engine.answer(sent.get(1), answer(sent.get(1).bytes(), "ok"));
        assertThat(engine.toClients()).hasSize(1);
        assertThat(engine.metrics().unmatchedCount("late")).isEqualTo(1);
    }

    @Test
    void aOneWayRequestIsRememberedForItsRetransmissionsUntilTheResponseTimeout() {
        EngineHarness engine = fixture.harness(new ToyPlugin(), false);
        engine.fromClient(request(5, "dave;oneway"), ALICE);
        fixture.ticker.advance(TIMEOUT.minusMillis(1));
        engine.housekeep();
        engine.fromClient(request(5, "dave;oneway"), ALICE);
        fixture.ticker.advance(TIMEOUT);
        engine.housekeep();
        engine.fromClient(request(5, "dave;oneway"), ALICE);

        List<ToReal> sent = engine.toReals();
        assertThat(sent).hasSize(3);
        RealServer first = sent.get(0).real();
        assertThat(sent.get(1).real()).isSameAs(first);
        assertThat(sent.get(1).transactionId()).as("the client's id: nothing answers through the director").isEqualTo(5);
        assertThat(sent.get(2).real()).as("after the timeout: a new request, balanced").isNotSameAs(first);
        assertThat(engine.forwarded()).extracting(EngineHarness.Forwarded::oneWay).containsExactly(true, true);
        assertThat(engine.metrics().forwardedCount()).isEqualTo(2);
        assertThat(engine.metrics().retransmittedCount()).isEqualTo(1);
        assertThat(engine.metrics().expiredCount()).as("nothing waited for an answer").isZero();
        assertThat(first.forwarded()).isEqualTo(1);
        assertThat(first.connections()).isZero();
    }

    @Test
    void aPlugInWhoseRealsAnswerDirectlyForwardsOneWay() {
        EngineHarness engine = fixture.harness(new ToyPlugin().answeredDirectly(), false);
        engine.fromClient(request(9, "erin;x"), ALICE);
        engine.fromClient(request(9, "erin;x"), ALICE);
        assertThat(engine.toReals()).hasSize(2);
        assertThat(engine.toReals().get(1).real()).isSameAs(engine.toReals().get(0).real());
        assertThat(engine.forwarded()).singleElement().satisfies(f -> assertThat(f.oneWay()).isTrue());
        assertThat(engine.metrics().retransmittedCount()).isEqualTo(1);
        fixture.ticker.advance(TIMEOUT.multipliedBy(2));
        engine.housekeep();
        assertThat(engine.metrics().expiredCount()).isZero();
    }

    @Test
    void anUnansweredRequestExpiresAtTheTimeoutAndCountsAgainstItsReal() {
        EngineFixture failing = new EngineFixture(TestFarms.FAIL_AT_ONCE, A, B);
        EngineHarness engine = failing.harness(new ToyPlugin(), false);
        engine.fromClient(request(5, "dave;late"), ALICE);
        ToReal sent = engine.toReals().get(0);

        failing.ticker.advance(TIMEOUT.minusNanos(1));
        engine.housekeep();
        assertThat(engine.metrics().expiredCount()).as("not yet").isZero();
        failing.ticker.advanceNanos(1);
        engine.housekeep();
        assertThat(engine.metrics().expiredCount()).isEqualTo(1);
        assertThat(sent.real().unanswered()).isEqualTo(1);
        assertThat(sent.real().connections()).isZero();
        assertThat(sent.real().state()).as("in-band failure detection").isEqualTo(RealState.FAILED);

        engine.answer(sent, answer(sent.bytes(), "too late"));
        assertThat(engine.toClients()).isEmpty();
        assertThat(engine.metrics().unmatchedCount("late")).isEqualTo(1);
        // A retransmission now is a new request, to a real that serves.
        engine.fromClient(request(5, "dave;late"), ALICE);
        assertThat(engine.lastToReal().real()).isNotSameAs(sent.real());
        assertThat(engine.metrics().retransmittedCount()).isZero();
    }

    @Test
    void aRequestPinnedToARealThatDoesNotServeIsStillForwardedThere() {
        EngineHarness engine = fixture.harness(new ToyPlugin(), true);
        RealServer failed = fixture.real(B);
        RealServer outOfService = fixture.real(C);
        failed.failInBand(fixture.ticker.nanos(), "test");
        outOfService.applyAdmin(false);
        assertThat(failed.state()).isEqualTo(RealState.FAILED);
        assertThat(outOfService.state()).isEqualTo(RealState.OUTOFSERVICE);

        engine.fromClient(request(1, "frank;update pin=toys/" + failed.id()), ALICE);
        engine.fromClient(request(2, "frank;delete pin=toys/" + outOfService.id()), ALICE);
        assertThat(engine.toReals()).extracting(ToReal::real).containsExactly(failed, outOfService);
        assertThat(engine.forwarded()).extracting(EngineHarness.Forwarded::how)
                .containsExactly(Selection.Reason.STICKY, Selection.Reason.STICKY);
        assertThat(engine.drops()).isEmpty();

        engine.answer(engine.toReals().get(0), answer(engine.toReals().get(0).bytes(), "updated"));
        assertThat(engine.toClients()).singleElement().satisfies(c -> assertThat(ToyPlugin.id(c.bytes())).isEqualTo(1));

        engine.fromClient(request(3, "frank;update pin=toys/10.9.9.9:2123"), ALICE);
        assertThat(engine.drops()).containsExactly(EngineDrops.NO_REAL_AVAILABLE);
    }

    @Test
    void aRefusalFailsTheRealAndTheRequestIsResentElsewhereUpToTheLimit() {
        EngineHarness engine = fixture.harness(new ToyPlugin().reassignLimit(1), true);
        engine.fromClient(request(11, "gina;create"), ALICE);
        ToReal first = engine.toReals().get(0);
        engine.answer(first, answer(first.bytes(), "no resources retry"));

        assertThat(first.real().state()).isEqualTo(RealState.FAILED);
        assertThat(engine.toReals()).hasSize(2);
        ToReal second = engine.toReals().get(1);
        assertThat(second.real()).isNotSameAs(first.real());
        assertThat(ToyPlugin.text(second.bytes())).isEqualTo("gina;create");
        assertThat(engine.toClients()).as("nothing relayed yet").isEmpty();
        assertThat(engine.metrics().reassignedCount()).isEqualTo(1);

        // The limit reached: the second refusal fails that real too, and goes to the client.
        engine.answer(second, answer(second.bytes(), "no resources retry"));
        assertThat(second.real().state()).isEqualTo(RealState.FAILED);
        assertThat(engine.toReals()).hasSize(2);
        assertThat(engine.toClients()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(ALICE);
            assertThat(c.bytes()).isEqualTo(answer(request(11, ""), "no resources retry"));
        });
        assertThat(engine.metrics().reassignedCount()).isEqualTo(1);
        assertThat(engine.metrics().relayedCount()).isEqualTo(1);
        assertThat(first.real().connections() + second.real().connections()).isZero();
    }

    @Test
    void aResentRequestsAnswerIsRelayedWithTheClientsId() {
        EngineHarness engine = fixture.harness(new ToyPlugin().reassignLimit(2), true);
        engine.fromClient(request(12, "hank;create"), ALICE);
        engine.answer(engine.toReals().get(0), answer(engine.toReals().get(0).bytes(), "retry"));
        ToReal resent = engine.toReals().get(1);
        engine.answer(resent, answer(resent.bytes(), "created"));
        assertThat(engine.toClients()).singleElement()
                .satisfies(c -> assertThat(c.bytes()).isEqualTo(answer(request(12, ""), "created")));
        assertThat(resent.real().answered()).isEqualTo(1);
        assertThat(resent.real().state()).isEqualTo(RealState.OPERATIONAL);
    }

    @Test
    void aRefusalIsRelayedWhenNoOtherRealMayTakeTheRequest() {
        EngineFixture two = new EngineFixture(FailureDetection.DEFAULT, A, B);
        EngineHarness engine = two.harness(new ToyPlugin().reassignLimit(5), true);
        engine.fromClient(request(13, "ivy;create"), ALICE);
        engine.answer(engine.toReals().get(0), answer(engine.toReals().get(0).bytes(), "retry"));
        engine.answer(engine.toReals().get(1), answer(engine.toReals().get(1).bytes(), "retry"));

        assertThat(two.real(A).state()).isEqualTo(RealState.FAILED);
        assertThat(two.real(B).state()).isEqualTo(RealState.FAILED);
        assertThat(engine.toReals()).hasSize(2);
        assertThat(engine.metrics().reassignedCount()).isEqualTo(1);
        assertThat(engine.toClients()).singleElement()
                .satisfies(c -> assertThat(ToyPlugin.text(c.bytes())).isEqualTo("retry"));
    }

    @Test
    void withoutAReassignLimitARefusalFailsTheRealAndIsRelayed() {
        EngineHarness engine = fixture.harness(new ToyPlugin(), true);
        engine.fromClient(request(14, "jack;create"), ALICE);
        ToReal sent = engine.toReals().get(0);
        engine.answer(sent, answer(sent.bytes(), "retry"));
        assertThat(sent.real().state()).isEqualTo(RealState.FAILED);
        assertThat(engine.toReals()).hasSize(1);
        assertThat(engine.toClients()).hasSize(1);
    }

    @Test
    void anAnswerThePlugInDropsIsCountedAndNotRelayed() {
        EngineHarness engine = fixture.harness(new ToyPlugin(), true);
        engine.fromClient(request(15, "kim;x"), ALICE);
        ToReal sent = engine.toReals().get(0);
        engine.answer(sent, answer(sent.bytes(), "drop"));
        assertThat(engine.toClients()).isEmpty();
        assertThat(engine.metrics().unmatchedCount("dropped")).isEqualTo(1);
        assertThat(sent.real().answered()).isEqualTo(1);
        assertThat(sent.real().connections()).isZero();
    }

    @Test
    void aFannedOutRequestGoesToEveryServingRealAndItsFirstAnswerIsRelayed() {
        EngineHarness engine = fixture.harness(new ToyPlugin(), true);
        fixture.real(C).failInBand(fixture.ticker.nanos(), "test");
        engine.fromClient(request(16, "nas;accounting-on all"), ALICE);

        List<ToReal> sent = engine.toReals();
        assertThat(sent).extracting(ToReal::real).containsExactlyInAnyOrder(fixture.real(A), fixture.real(B));
        assertThat(engine.metrics().forwardedCount()).isEqualTo(1);
        assertThat(engine.forwarded()).singleElement()
                .satisfies(f -> assertThat(f.how()).isEqualTo(Selection.Reason.FAN_OUT));

        engine.answer(sent.get(1), answer(sent.get(1).bytes(), "ok"));
        engine.answer(sent.get(0), answer(sent.get(0).bytes(), "ok"));
        assertThat(engine.toClients()).singleElement()
                .satisfies(c -> assertThat(c.bytes()).isEqualTo(answer(request(16, ""), "ok")));
        assertThat(engine.metrics().absorbedCount()).isEqualTo(1);
        assertThat(fixture.real(A).answered() + fixture.real(B).answered()).isEqualTo(2);
    }

    @Test
    void aFannedOutRequestExpiresOnceAndOnlyWhenNoRealAnsweredWhileEachSilentRealCountsItsCopy() {
        EngineHarness engine = fixture.harness(new ToyPlugin(), true);
        engine.fromClient(request(18, "nas;accounting-on all"), ALICE);
        engine.fromClient(request(19, "nas;accounting-off all"), BOB);
        List<ToReal> legs = List.copyOf(engine.toReals());
        assertThat(legs).hasSize(6);
        engine.answer(legs.get(3), answer(legs.get(3).bytes(), "ok")); // one copy of the second request

        fixture.ticker.advance(TIMEOUT);
        engine.housekeep();
        assertThat(engine.metrics().forwardedCount()).isEqualTo(2);
        assertThat(engine.metrics().expiredCount()).as("the first request, answered by none of its three reals")
                .isEqualTo(1);
        assertThat(fixture.real(A).unanswered() + fixture.real(B).unanswered() + fixture.real(C).unanswered())
                .as("every copy left unanswered, at its real").isEqualTo(5);
    }

    @Test
    void everyCopyOfARequestIsPreparedWithTheKeyItWasDecidedBy() throws Exception {
        ToyPlugin plugin = new ToyPlugin();
        EngineHarness engine = fixture.harness(plugin, true);
        engine.fromClient(request(42, "carol;x"), ALICE);
        engine.fromClient(request(42, "carol;x"), ALICE); // its retransmission
        engine.fromClient(request(17, "nas;accounting-off all"), ALICE); // a copy to each real
        engine.fromClient(request(17, "nas;accounting-off all"), ALICE); // again to each unanswered one
        engine.fromClient(request(50, "dave;oneway"), ALICE); // nothing answers it: forwarded one way
        engine.fromClient(request(50, "dave;oneway"), ALICE); // its retransmission, one way to the same real

        List<ToReal> sent = engine.toReals();
        assertThat(sent).hasSize(10);
        assertThat(plugin.preparedKeys).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            assertThat(plugin.preparedKeys.get(i)).as("copy %d", i)
                    .isEqualTo(ToyPlugin.classify(Unpooled.wrappedBuffer(sent.get(i).bytes())));
        }
        assertThat(Set.copyOf(plugin.preparedKeys)).as("carol's, the NAS's and dave's").hasSize(3);
        assertThat(sent.get(9).real()).as("the one-way retransmission").isSameAs(sent.get(8).real());
    }

    @Test
    void aRetransmittedFanOutGoesToTheRealsThatHaveNotAnsweredAndItsNextAnswerIsRelayed() {
        EngineHarness engine = fixture.harness(new ToyPlugin(), true);
        engine.fromClient(request(17, "nas;accounting-off all"), ALICE);
        List<ToReal> legs = List.copyOf(engine.toReals());
        assertThat(legs).hasSize(3);
        engine.answer(legs.get(0), answer(legs.get(0).bytes(), "ok"));
        assertThat(engine.toClients()).hasSize(1);

        // The client lost that answer and sends again: the two legs still open get it, same ids.
        engine.fromClient(request(17, "nas;accounting-off all"), ALICE);
        List<ToReal> resent = engine.toReals().subList(3, engine.toReals().size());
        assertThat(resent).extracting(ToReal::real).containsExactlyInAnyOrder(legs.get(1).real(), legs.get(2).real());
        assertThat(resent).extracting(ToReal::transactionId)
                .containsExactlyInAnyOrder(legs.get(1).transactionId(), legs.get(2).transactionId());
        assertThat(engine.metrics().retransmittedCount()).isEqualTo(1);

        engine.answer(legs.get(2), answer(legs.get(2).bytes(), "ok"));
        engine.answer(legs.get(1), answer(legs.get(1).bytes(), "ok"));
        assertThat(engine.toClients()).as("the retransmission re-armed the relay").hasSize(2);
        assertThat(engine.metrics().absorbedCount()).isEqualTo(1);
    }

    @Test
    void aPlugInThatKeepsClientIdsDropsACollisionAsPendingFull() {
        EngineFixture one = new EngineFixture(FailureDetection.DEFAULT, A);
        EngineHarness engine = one.harness(new ToyPlugin().keepsClientIds(), false);
        engine.fromClient(request(0x1234, "lea;x"), ALICE);
        engine.fromClient(request(0x1234, "max;y"), BOB);

        assertThat(engine.toReals()).singleElement().satisfies(s -> {
            assertThat(s.transactionId()).isEqualTo(0x1234);
            assertThat(ToyPlugin.id(s.bytes())).isEqualTo(0x1234);
        });
        assertThat(engine.drops()).containsExactly(EngineDrops.PENDING_FULL);
        assertThat(engine.metrics().droppedCount(EngineDrops.PENDING_FULL)).isEqualTo(1);
        assertThat(one.real(A).connections()).isEqualTo(1);
    }

    @Test
    void narrowIdsOpenASecondSocketWhenTheyRunOutAndRetireItWhenQuiet() {
        EngineFixture one = new EngineFixture(FailureDetection.DEFAULT, A);
        EngineHarness engine = one.harness(new ToyPlugin().idBits(2).sockets(2), false);
        assertThat(engine.opened()).containsExactly(0);
        for (int i = 0; i < 4; i++) {
            engine.fromClient(request(100 + i, "ned;x"), ALICE);
        }
        assertThat(engine.toReals()).extracting(ToReal::socket).containsOnly(0);
        assertThat(engine.toReals()).extracting(ToReal::transactionId).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
        engine.fromClient(request(104, "ned;x"), ALICE);
        assertThat(engine.opened()).containsExactly(0, 1);
        assertThat(engine.lastToReal().socket()).isEqualTo(1);
        for (int i = 5; i < 8; i++) {
            engine.fromClient(request(100 + i, "ned;x"), ALICE);
        }
        assertThat(engine.toReals()).filteredOn(s -> s.socket() == 1).hasSize(4);
        assertThat(engine.toReals()).allSatisfy(s -> assertThat(s.transactionId()).isBetween(0L, 3L));

        engine.fromClient(request(108, "ned;x"), ALICE);
        assertThat(engine.drops()).containsExactly(TransactionEngine.IDS_EXHAUSTED);
        assertThat(engine.toReals()).hasSize(8);

        // Answers are matched by socket and wire id: each to its own client id.
        for (ToReal sent : List.copyOf(engine.toReals())) {
            engine.answer(sent, answer(sent.bytes(), "ok"));
        }
        assertThat(engine.toClients()).extracting(c -> ToyPlugin.id(c.bytes()))
                .containsExactlyInAnyOrder(100, 101, 102, 103, 104, 105, 106, 107);

        engine.housekeep(); // the window with the peak of eight
        assertThat(engine.closed()).isEmpty();
        one.ticker.advance(TIMEOUT.minusNanos(1));
        engine.housekeep();
        assertThat(engine.closed()).as("not a whole quiet timeout yet").isEmpty();
        one.ticker.advanceNanos(1);
        engine.housekeep();
        assertThat(engine.closed()).containsExactly(1);

        engine.fromClient(request(200, "ned;x"), ALICE);
        assertThat(engine.lastToReal().socket()).isZero();
    }

    @Test
    void withOneSocketNarrowIdsAreExhausted() {
        EngineFixture one = new EngineFixture(FailureDetection.DEFAULT, A);
        EngineHarness engine = one.harness(new ToyPlugin().idBits(2), false);
        for (int i = 0; i < 5; i++) {
            engine.fromClient(request(i, "olga;x"), ALICE);
        }
        assertThat(engine.opened()).containsExactly(0);
        assertThat(engine.toReals()).hasSize(4);
        assertThat(engine.metrics().droppedCount(TransactionEngine.IDS_EXHAUSTED)).isEqualTo(1);
        assertThat(one.real(A).connections()).isEqualTo(4);
    }

    @Test
    void datagramsFromRealsThatAnswerNothingAreCountedUnmatched() {
        EngineHarness engine = fixture.harness(new ToyPlugin(), true);
        engine.fromClient(request(18, "pia;x"), ALICE);
        ToReal sent = engine.toReals().get(0);

        engine.fromReal(answer(sent.bytes(), "ok"), new InetSocketAddress(TestFarms.ip("192.0.2.99"), 2123), 0);
        assertThat(engine.metrics().unmatchedCount("unknown-source")).isEqualTo(1);
        engine.answer(sent, withId(answer(sent.bytes(), "ok"), (int) sent.transactionId() + 1));
        assertThat(engine.metrics().unmatchedCount("late")).isEqualTo(1);
        engine.answer(sent, request(18, "not an answer"));
        assertThat(engine.metrics().unmatchedCount("malformed")).isEqualTo(1);
        assertThat(engine.answersRefused()).containsExactly(DropReason.MALFORMED);
        assertThat(engine.toClients()).isEmpty();

        engine.answer(sent, answer(sent.bytes(), "ok"));
        assertThat(engine.toClients()).hasSize(1);
        assertThat(sent.real().answered()).isEqualTo(1);
    }

    /** Relays a real's datagram that answers nothing ("notify" in it) to a peer. */
    private static final InetSocketAddress PEER = new InetSocketAddress(TestFarms.ip("192.0.2.50"), 2123);

    private static final class RelayingToyPlugin extends ToyPlugin {
        @Override
        public Decision fromReal(ByteBuf datagram, InetSocketAddress sender) {
            String text = datagram.toString(datagram.readerIndex() + 3, datagram.readableBytes() - 3,
                    java.nio.charset.StandardCharsets.US_ASCII);
            return text.contains("notify") ? new Decision.RelayTo(PEER) : null;
        }
    }

    @Test
    void aRealsDatagramThatAnswersNothingIsRelayedWhereThePlugInSays() {
        EngineHarness engine = fixture.harness(new RelayingToyPlugin(), true);
        RealServer real = fixture.real(A);
        engine.fromReal(answer(request(99, ""), "notify"), real.address(), 0);
        engine.fromReal(request(98, "notify as a request"), real.address(), 0);
        engine.fromReal(answer(request(97, ""), "stray"), real.address(), 0);

        assertThat(engine.toClients()).extracting(EngineHarness.ToClient::to).containsExactly(PEER, PEER);
        assertThat(engine.toClients().get(1).bytes()).isEqualTo(request(98, "notify as a request"));
        assertThat(engine.metrics().relayedCount()).isEqualTo(2);
        assertThat(engine.metrics().unmatchedCount("late")).isEqualTo(1);
        assertThat(engine.metrics().unmatchedCount("malformed")).isZero();
    }

    @Test
    void aRequestThePlugInCannotPrepareIsDroppedAndItsRealFreed() {
        EngineFixture one = new EngineFixture(FailureDetection.DEFAULT, A);
        EngineHarness engine = one.harness(new ToyPlugin(), false);
        engine.fromClient(request(19, "quinn;unpreparable"), ALICE);
        assertThat(engine.toReals()).isEmpty();
        assertThat(engine.drops()).containsExactly(DropReason.MALFORMED);
        assertThat(engine.metrics().forwardedCount()).isZero();
        assertThat(one.real(A).connections()).isZero();
        // Its id was not taken: the next request is sent.
        engine.fromClient(request(19, "quinn;fine"), ALICE);
        assertThat(engine.toReals()).hasSize(1);
    }

    /**
     * A request that fails after a sticky selection gives back no claim: it took none. The real here
     * is TESTING, its one test request in flight; a bound client's request that cannot be prepared
     * must not put it back to READY_TO_TEST, or a second new request would be its test too.
     */
    @Test
    void aStickyRequestThatFailsDoesNotHandBackTheTestRequestsClaim() {
        EngineFixture one = new EngineFixture(TestFarms.FAIL_AT_ONCE, A);
        EngineHarness engine = one.harness(new ToyPlugin(), true);
        RealServer real = one.real(A);
        engine.fromClient(request(1, "rob;x"), ALICE); // binds rob to the real
        engine.answer(engine.lastToReal(), answer(engine.lastToReal().bytes(), "ok"));
        real.failInBand(one.ticker.nanos(), "test");
        real.tick(one.ticker.advance(FailureDetection.DEFAULT.retry()));
        assertThat(real.state()).isEqualTo(RealState.READY_TO_TEST);
        engine.fromClient(request(2, "sue;x"), BOB);
        assertThat(real.state()).as("the test request is in flight").isEqualTo(RealState.TESTING);

        engine.fromClient(request(3, "rob;unpreparable"), ALICE);
        engine.fromClient(request(4, "rob;unpreparable oneway"), ALICE);
        assertThat(engine.drops()).containsExactly(DropReason.MALFORMED, DropReason.MALFORMED);
        assertThat(real.state()).isEqualTo(RealState.TESTING);
    }
}
