package io.switchboard.director.transaction;

import static io.switchboard.director.transaction.EngineFixture.ALICE;
import static io.switchboard.director.transaction.EngineFixture.IDLE;
import static io.switchboard.director.transaction.EngineFixture.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.testing.TestFarms;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/** Generic UDP's flows without sockets: stickiness, answers in order, expiry, idle flows, the flow bound. */
class FlowEngineTest implements FlowEngine.FlowSide<String>, ClientSide {

    private static final StickyKey KEY = StickyKey.of(StickyKind.CLIENT_ADDRESS, new byte[4]);

    private final EngineFixture fixture = new EngineFixture(FailureDetection.DEFAULT, "10.0.0.1", "10.0.0.2");
    private final VirtualServer vs = new VirtualServer(EngineFixture.config(2048), (datagram, sender, alloc) -> Decision.direct(KEY),
            new RealSelector(fixture.farms, fixture.farms.farm("toys"), null),
            new VirtualServerMetrics(new SimpleMeterRegistry(), "toy", "udp"));
    private final FlowEngine<String> engine = new FlowEngine<>(new EngineScope(vs, fixture.ticker,
            new RateLimitedLog(NOPLogger.NOP_LOGGER, Duration.ofSeconds(10), fixture.ticker), EngineEvents.NONE), this, this);

    private int sockets;
    private final List<Flow<String>> opened = new ArrayList<>();
    private final List<Flow<String>> closed = new ArrayList<>();
    /** "socket: text" of every request sent. */
    private final List<String> sent = new ArrayList<>();
    private final List<String> relayed = new ArrayList<>();

    @Override
    public String open(Flow<String> flow) {
        opened.add(flow);
        return "socket-" + sockets++;
    }

    @Override
    public void send(Flow<String> flow, ByteBuf datagram) {
        sent.add(flow.socket() + ": " + datagram.toString(StandardCharsets.US_ASCII));
        datagram.release();
    }

    @Override
    public void close(Flow<String> flow) {
        closed.add(flow);
    }

    @Override
    public void toClient(ByteBuf datagram, InetSocketAddress to) {
        relayed.add(to + " " + datagram.toString(StandardCharsets.US_ASCII));
        datagram.release();
    }

    private void request(String text, InetSocketAddress client) {
        ByteBuf buf = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
        try {
            engine.request(buf, client, KEY, fixture.ticker.nanos());
        } finally {
            buf.release();
        }
    }

    private void answer(Flow<String> flow, String text, InetSocketAddress from) {
        ByteBuf buf = Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.US_ASCII));
        try {
            engine.answer(flow, buf, from);
        } finally {
            buf.release();
        }
    }

    @Test
    void aClientStaysOnItsFlowWhileItsRealServesAndGetsANewFlowWhenItStops() {
        request("one", ALICE);
        request("two", ALICE);
        assertThat(opened).hasSize(1);
        Flow<String> flow = opened.get(0);
        assertThat(sent).containsExactly("socket-0: one", "socket-0: two");
        assertThat(vs.metrics().forwardedCount()).isEqualTo(2);

        flow.real().failInBand(fixture.ticker.nanos(), "test");
        request("three", ALICE);
        assertThat(closed).containsExactly(flow);
        assertThat(opened).hasSize(2);
        assertThat(opened.get(1).real()).isNotSameAs(flow.real());
        assertThat(sent).last().isEqualTo("socket-1: three");
    }

    @Test
    void answersAreMatchedInOrderAndALateOneIsStillRelayed() {
        request("one", ALICE);
        request("two", ALICE);
        Flow<String> flow = opened.get(0);
        RealServer real = flow.real();
        assertThat(real.connections()).isEqualTo(2);

        answer(flow, "answer one", real.address());
        assertThat(real.answered()).isEqualTo(1);
        assertThat(real.connections()).isEqualTo(1);
        answer(flow, "answer two", real.address());
        answer(flow, "answer three", real.address());
        assertThat(real.answered()).isEqualTo(2);
        assertThat(real.connections()).isZero();
        assertThat(relayed).containsExactly(ALICE + " answer one", ALICE + " answer two", ALICE + " answer three");
        assertThat(vs.metrics().relayedCount()).isEqualTo(3);
        assertThat(vs.metrics().unmatchedCount("late")).isEqualTo(1);

        answer(flow, "from elsewhere", new InetSocketAddress(TestFarms.ip("192.0.2.9"), 2123));
        assertThat(vs.metrics().unmatchedCount("unknown-source")).isEqualTo(1);
        assertThat(relayed).hasSize(3);
    }

    @Test
    void anUnansweredRequestExpiresAndCountsAgainstItsReal() {
        request("one", ALICE);
        RealServer real = opened.get(0).real();
        fixture.ticker.advance(TIMEOUT);
        engine.housekeep(fixture.ticker.nanos());
        assertThat(vs.metrics().expiredCount()).isEqualTo(1);
        assertThat(real.unanswered()).isEqualTo(1);
        assertThat(real.connections()).isZero();
        // The flow, with nothing outstanding, still holds the client (not yet idle).
        request("two", ALICE);
        assertThat(opened).hasSize(1);
    }

    @Test
    void anIdleFlowIsClosed() {
        request("one", ALICE);
        Flow<String> flow = opened.get(0);
        answer(flow, "answer", flow.real().address());
        fixture.ticker.advance(IDLE);
        engine.housekeep(fixture.ticker.nanos());
        assertThat(closed).as("idle for exactly the idle time: kept").isEmpty();
        fixture.ticker.advance(Duration.ofSeconds(1));
        engine.housekeep(fixture.ticker.nanos());
        assertThat(closed).containsExactly(flow);
        request("two", ALICE);
        assertThat(opened).hasSize(2);
    }

    @Test
    void aNewClientBeyondTheFlowBoundIsDroppedAsFlowsFull() {
        for (int i = 0; i < FlowEngine.MAX_FLOWS; i++) {
            request("x", new InetSocketAddress(TestFarms.ip("10.1." + (i >> 8) + "." + (i & 0xff)), 1000));
        }
        assertThat(opened).hasSize(FlowEngine.MAX_FLOWS);
        request("x", ALICE);
        assertThat(vs.metrics().droppedCount(EngineDrops.FLOWS_FULL)).isEqualTo(1);
        assertThat(opened).hasSize(FlowEngine.MAX_FLOWS);
        // A client with a flow still gets through.
        request("y", opened.get(0).client());
        assertThat(vs.metrics().forwardedCount()).isEqualTo(FlowEngine.MAX_FLOWS + 1);
    }
}
