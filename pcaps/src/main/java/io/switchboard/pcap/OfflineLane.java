package io.switchboard.pcap;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.codec.DropReason;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Selection;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.transaction.ClientSide;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.Flow;
import io.switchboard.director.transaction.FlowEngine;
import io.switchboard.director.transaction.Intake;
import io.switchboard.director.transaction.RealSide;
import io.switchboard.director.transaction.TransactionEngine;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.helpers.NOPLogger;

/**
 * One virtual server of an offline what-if run as the live director's lane: the same {@link Intake}
 * and the same {@link TransactionEngine} (or {@link FlowEngine} for generic UDP), built the same way,
 * with no sockets behind them. What the engine sends toward the reals is kept for the run to answer
 * with the capture's answers ({@link #answer}); what it sends from the virtual address is kept as the
 * director's answer; what it tells ({@link EngineEvents}) says what became of the request. One
 * request at a time: {@link #admit} starts one.
 */
final class OfflineLane implements EngineEvents, RealSide, ClientSide, FlowEngine.FlowSide<Void> {

    /** A request the engine sent to a simulated real. */
    record Sent(RealServer real, int socket, long transactionId) {
    }

    private final VirtualServer vs;
    private final Intake intake;
    private final TransactionPlugin transactions;
    private final TransactionEngine engine;
    private final FlowEngine<Void> flows;
    /** The flow of the request being directed (generic UDP), to answer on. */
    private Flow<Void> flow;

    // What became of the request being directed.
    final List<Sent> sent = new ArrayList<>();
    DropReason dropped;
    boolean answeredLocally;
    boolean relayedToPeer;
    RealServer real;
    Selection.Reason how;
    boolean oneWay;
    boolean retransmission;
    final List<RealServer> refusedBy = new ArrayList<>();
    boolean answerDropped;
    DropReason answerRefused;
    /** The director's answer to the client, as it left the virtual address. */
    ByteBuf relayed;

    OfflineLane(VirtualServer vs, Farms farms, Ticker ticker) {
        this.vs = vs;
        // The run prints what became of each datagram; the engine's warnings would say it again.
        EngineScope scope = new EngineScope(vs, ticker, new RateLimitedLog(NOPLogger.NOP_LOGGER, Duration.ofSeconds(10),
                ticker), this);
        this.intake = new Intake(scope);
        this.transactions = vs.plugin() instanceof TransactionPlugin t ? t : null;
        this.engine = transactions == null ? null : new TransactionEngine(scope, transactions, farms, this, this);
        this.flows = transactions == null ? new FlowEngine<>(scope, this, this) : null;
        if (engine != null) {
            engine.start();
        }
    }

    /** Starts a request: steps 2 and 3; null when it was answered here, relayed or dropped. */
    Decision.Direct admit(ByteBuf request, InetSocketAddress client) {
        sent.clear();
        dropped = null;
        answeredLocally = false;
        relayedToPeer = false;
        real = null;
        how = null;
        oneWay = false;
        retransmission = false;
        refusedBy.clear();
        answerDropped = false;
        answerRefused = null;
        flow = null;
        releaseRelayed();
        return intake.admit(request, client, UnpooledByteBufAllocator.DEFAULT, this);
    }

    /** Steps 4 to 7 for the admitted request. */
    void direct(ByteBuf request, InetSocketAddress client, Decision.Direct decision, long now) {
        if (engine != null) {
            engine.request(request, client, decision, now);
        } else {
            flows.request(request, client, decision.key(), now);
        }
    }

    /**
     * The simulated real of the first send answers with the capture's answer, made an answer to what
     * it was sent (the director's transaction id where the plug-in rewrites it, as
     * {@link LiveWhatIf}'s reals do).
     */
    void answer(SignalingProtocol protocol, byte[] captured) {
        Sent first = sent.get(0);
        byte[] answer = captured.clone();
        if (engine != null && transactions.rewritesTransactionId()) {
            MessageDirection.setTransactionId(protocol, answer, first.transactionId());
        }
        ByteBuf buf = Unpooled.wrappedBuffer(answer); // borrowed by the engine, which retains what it relays
        try {
            if (engine == null) {
                flows.answer(flow, buf, first.real().address());
            } else {
                engine.answerAsCaptured(buf, first.real(), first.socket(), first.transactionId());
            }
        } finally {
            buf.release();
        }
    }

    /** Whether the request went to a real that answers through the director. */
    boolean awaitsAnswer() {
        return !sent.isEmpty() && !oneWay;
    }

    void housekeep(long now) {
        if (engine != null) {
            engine.housekeep(now);
        } else {
            flows.housekeep(now);
        }
        vs.plugin().housekeep(now);
    }

    /** Lets go of the answer the engine relayed to the client, once what-if has read it. */
    void releaseRelayed() {
        if (relayed != null) {
            relayed.release();
            relayed = null;
        }
    }

    // EngineEvents: what the engine tells of the request.

    @Override
    public void dropped(DropReason reason) {
        dropped = dropped == null ? reason : dropped;
    }

    @Override
    public void answeredLocally() {
        answeredLocally = true;
    }

    @Override
    public void relayedToPeer() {
        relayedToPeer = true;
    }

    @Override
    public void forwarded(RealServer real, Selection.Reason how, boolean oneWay) {
        this.real = real;
        this.how = how;
        this.oneWay = oneWay;
    }

    @Override
    public void retransmitted(RealServer real, boolean oneWay) {
        this.real = real;
        this.how = Selection.Reason.STICKY;
        this.oneWay = oneWay;
        this.retransmission = true;
    }

    @Override
    public void reassigned(RealServer refused, RealServer next) {
        refusedBy.add(refused);
        real = next;
        how = Selection.Reason.REASSIGNED;
    }

    @Override
    public void answerDropped(RealServer real) {
        answerDropped = true;
    }

    @Override
    public void answerRefused(RealServer real, DropReason reason) {
        answerRefused = reason;
    }

    // RealSide, FlowSide: the simulated reals take what is sent; the run answers the first.

    @Override
    public void open(int index) {
    }

    @Override
    public void close(int index) {
    }

    @Override
    public void toReal(ByteBuf datagram, RealServer real, int socket, long transactionId, InetSocketAddress client) {
        datagram.release();
        sent.add(new Sent(real, socket, transactionId));
    }

    @Override
    public Void open(Flow<Void> flow) {
        return null;
    }

    @Override
    public void send(Flow<Void> flow, ByteBuf datagram) {
        datagram.release();
        this.flow = flow;
        sent.add(new Sent(flow.real(), 0, 0));
    }

    @Override
    public void close(Flow<Void> flow) {
    }

    // ClientSide: the director's answer to the client.

    @Override
    public void toClient(ByteBuf datagram, InetSocketAddress to) {
        releaseRelayed();
        relayed = datagram;
    }
}
