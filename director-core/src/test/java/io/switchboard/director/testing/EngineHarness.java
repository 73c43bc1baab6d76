package io.switchboard.director.testing;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.codec.DropReason;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.Ticker;
import io.switchboard.director.overload.Admission;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.transaction.ClientSide;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.Intake;
import io.switchboard.director.transaction.RealSide;
import io.switchboard.director.transaction.RelayedRequests;
import io.switchboard.director.transaction.TransactionEngine;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.helpers.NOPLogger;

/**
 * The director's engine for one lane of a virtual server, without sockets, for tests: the real
 * {@link Intake} and {@link TransactionEngine}, built over the given farms as a live lane builds
 * them, with recording sides. A test sends a client's datagram ({@link #fromClient}) and a real's
 * answer ({@link #fromReal}), and reads what went to which real ({@link #toReals}), what left the
 * virtual address ({@link #toClients}), what was dropped ({@link #drops}) and the counters
 * ({@link #metrics}). A plug-in's test so drives the plug-in in the engine's own order, through the
 * engine's own decisions, rather than a copy of them. The clock is the test's: nothing expires until
 * the test moves it and calls {@link #housekeep}. The plug-in is attached by the test (its context
 * is the test's to choose).
 */
public final class EngineHarness implements RealSide, ClientSide, EngineEvents {

    /** A request as it left for a real: on director socket {@code socket}, under {@code transactionId}. */
    public record ToReal(RealServer real, int socket, long transactionId, byte[] bytes) {
    }

    /** A datagram as it left the virtual address. */
    public record ToClient(InetSocketAddress to, byte[] bytes) {
    }

    /** A request forwarded to a real, as the engine told it. */
    public record Forwarded(RealServer real, Selection.Reason how, boolean oneWay) {
    }

    private final Ticker ticker;
    private final Farms farms;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final VirtualServer virtualServer;
    private final Intake intake;
    private final TransactionEngine engine;
    private final List<ToReal> toReals = new ArrayList<>();
    private final List<ToClient> toClients = new ArrayList<>();
    private final List<DropReason> drops = new ArrayList<>();
    private final List<DropReason> answersRefused = new ArrayList<>();
    private final List<Forwarded> forwarded = new ArrayList<>();
    private final List<Integer> opened = new ArrayList<>();
    private final List<Integer> closed = new ArrayList<>();

    /**
     * @param sticky the virtual server's sticky table, or null when it keeps no bindings
     */
    public EngineHarness(VirtualServerConfig config, Farms farms, StickyTable sticky, TransactionPlugin plugin,
            Ticker ticker) {
        this.ticker = ticker;
        this.farms = farms;
        VirtualServerMetrics metrics = new VirtualServerMetrics(registry, config.name(), config.service());
        // A plug-in that relays its reals' requests gets the engine's table of them, as Director gives it.
        RelayedRequests relayed = plugin.realRequests() == null ? null : new RelayedRequests(plugin.realRequests(),
                NodeSlot.SINGLE, SharedTables.IN_MEMORY, config.name(), config.responseTimeout().toNanos(),
                plugin.transactionIdBits(), ticker.nanos());
        this.virtualServer = new VirtualServer(config, plugin, new RealSelector(farms, farms.farm(config.farm()), sticky),
                metrics, relayed, Admission.of(config.name(), config.service(), config.overload(), registry, ticker));
        // Tests read the counters and drops; the engine's warnings would only fill the build log.
        EngineScope scope = new EngineScope(virtualServer, ticker,
                new RateLimitedLog(NOPLogger.NOP_LOGGER, Duration.ofSeconds(10), ticker), this);
        this.intake = new Intake(scope);
        this.engine = new TransactionEngine(scope, plugin, farms, this, this);
        engine.start();
    }

    /** A datagram from {@code client} to the virtual address, at the clock's now. Borrows {@code datagram}. */
    public void fromClient(ByteBuf datagram, InetSocketAddress client) {
        Decision.Direct request = intake.admit(datagram, client, UnpooledByteBufAllocator.DEFAULT, this);
        if (request != null) {
            engine.request(datagram, client, request, ticker.nanos());
        }
    }

    public void fromClient(byte[] datagram, InetSocketAddress client) {
        ByteBuf buf = Unpooled.copiedBuffer(datagram);
        try {
            fromClient(buf, client);
        } finally {
            buf.release();
        }
    }

    /** A datagram from {@code from} on director socket {@code socket}. Borrows {@code answer}. */
    public void fromReal(ByteBuf answer, InetSocketAddress from, int socket) {
        engine.answer(answer, from, socket);
    }

    public void fromReal(byte[] answer, InetSocketAddress from, int socket) {
        ByteBuf buf = Unpooled.copiedBuffer(answer);
        try {
            fromReal(buf, from, socket);
        } finally {
            buf.release();
        }
    }

    /** The real of {@code sent} answers it with {@code answer}, on the socket it was sent on. */
    public void answer(ToReal sent, byte[] answer) {
        fromReal(answer, sent.real().address(), sent.socket());
    }

    /** The lane's housekeeping at the clock's now: expiry, sockets, the plug-in's own. */
    public void housekeep() {
        long now = ticker.nanos();
        engine.housekeep(now);
        virtualServer.plugin().housekeep(now);
    }

    /**
     * Forgets what was recorded (sent, dropped, forwarded, sockets), not the engine's state: a fuzz target that
     * reuses one engine for millions of inputs (building one costs more than the input) calls it after each.
     */
    public void forget() {
        toReals.clear();
        toClients.clear();
        drops.clear();
        answersRefused.clear();
        forwarded.clear();
        opened.clear();
        closed.clear();
    }

    /** Lets go of every pending request, as a lane that closes. */
    public void close() {
        engine.close();
    }

    /** The farms the engine selects reals in. */
    public Farms farms() {
        return farms;
    }

    public VirtualServer virtualServer() {
        return virtualServer;
    }

    /** Where the virtual server's meters are (its counters, its overload limits'). */
    public SimpleMeterRegistry registry() {
        return registry;
    }

    public VirtualServerMetrics metrics() {
        return virtualServer.metrics();
    }

    /** What went to the reals, oldest first. */
    public List<ToReal> toReals() {
        return toReals;
    }

    /** The last request sent to a real. */
    public ToReal lastToReal() {
        return toReals.get(toReals.size() - 1);
    }

    /** What left the virtual address (answers relayed, local answers, relays to peers), oldest first. */
    public List<ToClient> toClients() {
        return toClients;
    }

    /** The reasons of the datagrams dropped, in order. */
    public List<DropReason> drops() {
        return drops;
    }

    /** The reasons of the answers refused (not inspectable or restorable: counted as malformed), in order. */
    public List<DropReason> answersRefused() {
        return answersRefused;
    }

    /** The new requests forwarded, in order (fan-out: once, with its first real). */
    public List<Forwarded> forwarded() {
        return forwarded;
    }

    /** The director sockets opened, by index, in order. */
    public List<Integer> opened() {
        return opened;
    }

    /** The director sockets closed, by index, in order. */
    public List<Integer> closed() {
        return closed;
    }

    // RealSide, ClientSide: recorded as bytes.

    @Override
    public void open(int index) {
        opened.add(index);
    }

    @Override
    public void close(int index) {
        closed.add(index);
    }

    @Override
    public void toReal(ByteBuf datagram, RealServer real, int socket, long transactionId, InetSocketAddress client) {
        try {
            toReals.add(new ToReal(real, socket, transactionId, ByteBufUtil.getBytes(datagram)));
        } finally {
            datagram.release();
        }
    }

    @Override
    public void toClient(ByteBuf datagram, InetSocketAddress to) {
        try {
            toClients.add(new ToClient(to, ByteBufUtil.getBytes(datagram)));
        } finally {
            datagram.release();
        }
    }

    // EngineEvents

    @Override
    public void dropped(DropReason reason) {
        drops.add(reason);
    }

    @Override
    public void answerRefused(RealServer real, DropReason reason) {
        answersRefused.add(reason);
    }

    @Override
    public void forwarded(RealServer real, Selection.Reason how, boolean oneWay) {
        forwarded.add(new Forwarded(real, how, oneWay));
    }
}
