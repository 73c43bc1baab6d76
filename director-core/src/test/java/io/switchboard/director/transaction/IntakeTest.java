package io.switchboard.director.transaction;

import static io.switchboard.director.testing.ToyPlugin.request;
import static io.switchboard.director.transaction.EngineFixture.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.real.Farms;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.TestFarms;
import io.switchboard.director.testing.ToyPlugin;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.spi.Decision;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Steps 2 and 3 before any real is chosen: service, size, local answers, relays, classification. */
class IntakeTest {

    private static final InetSocketAddress PEER = new InetSocketAddress(TestFarms.ip("192.0.2.60"), 2123);

    /** Answers "ping" itself and relays "forward" to {@link #PEER}. */
    private static final class AnsweringToyPlugin extends ToyPlugin {
        private static boolean says(ByteBuf datagram, String word) {
            return datagram.toString(datagram.readerIndex(), datagram.readableBytes(), StandardCharsets.US_ASCII)
                    .endsWith(";" + word);
        }

        @Override
        public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc)
                throws DecodeException {
            if (says(datagram, "ping")) {
                return new Decision.AnswerLocally(alloc.buffer().writeBytes(ToyPlugin.answer(request(1, ""), "pong")));
            }
            if (says(datagram, "real-request")) {
                return new Decision.RealRequest(PEER, 0, 1, -1, null); // without declaring realRequests()
            }
            return says(datagram, "forward") ? new Decision.RelayTo(PEER) : super.decide(datagram, sender, alloc);
        }
    }

    private final EngineFixture fixture = new EngineFixture(FailureDetection.DEFAULT, "10.0.0.1");

    private EngineHarness harness(int maxDatagram) {
        Farms farms = fixture.farms;
        return new EngineHarness(EngineFixture.config(maxDatagram), farms, null, new AnsweringToyPlugin(), fixture.ticker);
    }

    @Test
    void aVirtualServerOutOfServiceDropsEverything() {
        EngineHarness engine = harness(2048);
        engine.virtualServer().inService(false);
        engine.fromClient(request(1, "alice;ping"), ALICE);
        engine.fromClient(request(2, "alice;x"), ALICE);
        assertThat(engine.drops()).containsExactly(EngineDrops.OUT_OF_SERVICE, EngineDrops.OUT_OF_SERVICE);
        assertThat(engine.metrics().receivedCount()).isEqualTo(2);
        assertThat(engine.toClients()).isEmpty();
        assertThat(engine.toReals()).isEmpty();
    }

    @Test
    void aDatagramLargerThanTheVirtualServerAcceptsIsDropped() {
        EngineHarness engine = harness(16);
        engine.fromClient(request(1, "alice;0123456789abc"), ALICE);
        engine.fromClient(request(2, "alice;short"), ALICE);
        assertThat(engine.drops()).containsExactly(DropReason.OVERSIZED);
        assertThat(engine.toReals()).hasSize(1);
    }

    @Test
    void aRequestThePlugInAnswersItselfGoesBackFromTheVirtualAddress() {
        EngineHarness engine = harness(2048);
        engine.fromClient(request(1, "alice;ping"), ALICE);
        assertThat(engine.toClients()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(ALICE);
            assertThat(ToyPlugin.text(c.bytes())).isEqualTo("pong");
        });
        assertThat(engine.metrics().answeredLocallyCount()).isEqualTo(1);
        assertThat(engine.metrics().forwardedCount()).isZero();
        assertThat(engine.toReals()).isEmpty();
    }

    @Test
    void aDatagramForAPeerIsRelayedAsItCame() {
        EngineHarness engine = harness(2048);
        engine.fromClient(request(3, "alice;forward"), ALICE);
        assertThat(engine.toClients()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(PEER);
            assertThat(c.bytes()).isEqualTo(request(3, "alice;forward"));
        });
        assertThat(engine.metrics().relayedCount()).isEqualTo(1);
        assertThat(engine.toReals()).isEmpty();
    }

    @Test
    void aDatagramThePlugInCannotClassifyIsDroppedWithItsReason() {
        EngineHarness engine = harness(2048);
        engine.fromClient("garbage".getBytes(StandardCharsets.US_ASCII), ALICE);
        assertThat(engine.drops()).containsExactly(DropReason.MALFORMED);
        assertThat(engine.metrics().droppedCount(DropReason.MALFORMED)).isEqualTo(1);
        assertThat(engine.toReals()).isEmpty();
        engine.fromClient(request(4, "alice;x"), ALICE);
        assertThat(engine.toReals()).hasSize(1);
    }

    @Test
    void aRelayThePlugInDeclaredNoTableForIsDroppedAndCounted() {
        EngineHarness engine = harness(2048);
        engine.fromClient(request(3, "alice;real-request"), ALICE);
        assertThat(engine.drops()).containsExactly(Intake.UNDECLARED_RELAY);
        assertThat(engine.toClients()).isEmpty();
        assertThat(engine.toReals()).isEmpty();
        engine.fromClient(request(4, "alice;x"), ALICE);
        assertThat(engine.toReals()).as("the lane goes on").hasSize(1);
    }
}
