package io.switchboard.director.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Selection;
import io.switchboard.director.sticky.StickyStats;
import io.switchboard.director.sticky.StickyTable;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The outcome counters of one virtual server. Every request that reaches the virtual address ends
 * in exactly one of {@code forwarded}, {@code answered.locally} (the plug-in answered it itself, e.g.
 * a GTP Echo Request) or {@code dropped{reason}}; every datagram from a real ends in
 * {@code responses.relayed} or {@code responses.unmatched{reason}}; every forwarded request is later
 * answered or {@code requests.expired}. A client's retransmission of a pending request is
 * {@code requests.retransmitted} (after {@code received}), not a second {@code forwarded}. Counters are resolved once so the hot path only increments.
 */
public final class VirtualServerMetrics {

    private final MeterRegistry registry;
    private final Tags tags;
    private final Counter received;
    private final Counter forwarded;
    private final Counter relayed;
    private final Counter expired;
    private final Counter retransmitted;
    private final Counter answeredLocally;
    private final Counter reassigned;
    private final Counter absorbed;
    private final Counter socketsOpened;
    private final Counter realRequestsRelayed;
    private final Counter realRequestsRetransmitted;
    private final Counter realRequestsExpired;
    private final Counter realRequestsTriggered;
    /** Director sockets toward the reals, over every event loop. */
    private final AtomicInteger upstreamSockets = new AtomicInteger();
    private final Map<Selection.Reason, Counter> selections = new EnumMap<>(Selection.Reason.class);
    private final Map<DropReason, Counter> dropped = new ConcurrentHashMap<>();
    private final Map<String, Counter> unmatched = new ConcurrentHashMap<>();
    private final Map<String, Counter> closed = new ConcurrentHashMap<>();

    public VirtualServerMetrics(MeterRegistry registry, String virtualServer, String service) {
        this.registry = registry;
        this.tags = Tags.of("vserver", virtualServer, "service", service);
        this.received = counter("switchboard.requests.received", "Datagrams received on the virtual address");
        this.forwarded = counter("switchboard.requests.forwarded", "Requests sent to a real");
        this.relayed = counter("switchboard.responses.relayed", "Answers relayed to the client from the virtual address");
        this.expired = counter("switchboard.requests.expired", "Forwarded requests that got no answer in time");
        this.retransmitted = counter("switchboard.requests.retransmitted",
                "Client retransmissions of a pending request, resent to the same real");
        this.answeredLocally = counter("switchboard.requests.answered.locally",
                "Requests the director answered itself from the virtual address (e.g. GTP Echo)");
        this.reassigned = counter("switchboard.requests.reassigned",
                "Requests resent to another real after the first refused them (GTP resource causes)");
        this.absorbed = counter("switchboard.responses.absorbed",
                "Answers to a request sent to every real (fan-out) after the one relayed to the client");
        this.socketsOpened = counter("switchboard.upstream.sockets.opened",
                "Director sockets opened toward the reals beyond the first of each event loop (identifiers ran out)");
        this.realRequestsRelayed = counter("switchboard.real.requests.relayed",
                "Requests of reals relayed to peers (network-initiated Update / Delete)");
        this.realRequestsRetransmitted = counter("switchboard.real.requests.retransmitted",
                "Retransmissions of a real's request, relayed under the same director id");
        this.realRequestsExpired = counter("switchboard.real.requests.expired",
                "Requests of reals relayed here whose peer did not answer in time");
        this.realRequestsTriggered = counter("switchboard.real.requests.triggered",
                "Requests of reals answering a peer's request (a GTPv2 Command), relayed under the peer's id of it");
        Gauge.builder("switchboard.upstream.sockets", upstreamSockets, AtomicInteger::get)
                .description("Director sockets open toward the reals, over every event loop").tags(tags)
                .register(registry);
        for (Selection.Reason reason : Selection.Reason.values()) {
            selections.put(reason, Counter.builder("switchboard.selections")
                    .description("How the real of a forwarded request was chosen")
                    .tags(tags).tag("reason", reason.tag()).register(registry));
        }
        droppedCounter(EngineDrops.NO_REAL_AVAILABLE); // exported at zero from the start: the alarm to watch
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).description(description).tags(tags).register(registry);
    }

    /** Exposes a sticky table's size and counters. */
    public void bindStickyTable(StickyTable table) {
        Tags t = tags.and("table", table.name());
        Gauge.builder("switchboard.sticky.entries", table, StickyTable::size).tags(t).register(registry);
        FunctionCounter.builder("switchboard.sticky.lookups", table, s -> s.stats().hits())
                .tags(t).tag("result", "hit").register(registry);
        FunctionCounter.builder("switchboard.sticky.lookups", table, s -> s.stats().misses())
                .tags(t).tag("result", "miss").register(registry);
        FunctionCounter.builder("switchboard.sticky.bound", table, s -> s.stats().bound()).tags(t).register(registry);
        FunctionCounter.builder("switchboard.sticky.expired", table, s -> s.stats().expired()).tags(t).register(registry);
        FunctionCounter.builder("switchboard.sticky.refused.full", table, s -> s.stats().refusedFull())
                .tags(t).register(registry);
    }

    public void received() {
        received.increment();
    }

    public void forwarded(Selection.Reason how) {
        forwarded.increment();
        selections.get(how).increment();
    }

    public void dropped(DropReason reason) {
        Counter c = dropped.get(reason);
        (c != null ? c : droppedCounter(reason)).increment();
    }

    private Counter droppedCounter(DropReason reason) {
        return dropped.computeIfAbsent(reason, r -> Counter.builder("switchboard.dropped")
                .description("Requests dropped, by reason").tags(tags).tag("reason", r.name())
                .register(registry));
    }

    public void relayed() {
        relayed.increment();
    }

    /** A datagram from a real that answers no pending request ({@code late}, {@code unknown-source}, ...). */
    public void unmatched(String reason) {
        unmatched.computeIfAbsent(reason, r -> Counter.builder("switchboard.responses.unmatched")
                .description("Datagrams from reals that matched no pending request").tags(tags)
                .tag("reason", r).register(registry)).increment();
    }

    /**
     * A stream connection the director closed itself, by reason ({@code idle}: no data either way for
     * the idle time; {@code delay}: one side closed and the other did not finish in time).
     */
    public void closed(String reason) {
        closed.computeIfAbsent(reason, r -> Counter.builder("switchboard.connections.closed")
                .description("Connections the director closed on a timer").tags(tags)
                .tag("reason", r).register(registry)).increment();
    }

    public double closedCount(String reason) {
        Counter c = closed.get(reason);
        return c == null ? 0 : c.count();
    }

    public void expired() {
        expired.increment();
    }

    public void retransmitted() {
        retransmitted.increment();
    }

    public void realRequestRelayed() {
        realRequestsRelayed.increment();
    }

    public void realRequestRetransmitted() {
        realRequestsRetransmitted.increment();
    }

    public void realRequestExpired() {
        realRequestsExpired.increment();
    }

    public void realRequestTriggered() {
        realRequestsTriggered.increment();
    }

    public double realRequestsTriggeredCount() {
        return realRequestsTriggered.count();
    }

    /** A request the plug-in answered itself, from the virtual address. */
    public void answeredLocally() {
        answeredLocally.increment();
    }

    /** A request resent to another real after its real refused it for lack of resources. */
    public void reassigned() {
        reassigned.increment();
    }

    /** An answer to a fanned-out request after the one relayed. */
    public void absorbed() {
        absorbed.increment();
    }

    public double absorbedCount() {
        return absorbed.count();
    }

    /** A director socket toward the reals was opened ({@code +1}, {@code extra} when beyond the first) or closed ({@code -1}). */
    public void upstreamSockets(int delta, boolean extra) {
        upstreamSockets.addAndGet(delta);
        if (delta > 0 && extra) {
            socketsOpened.increment();
        }
    }

    public int upstreamSocketsOpen() {
        return upstreamSockets.get();
    }

    public double upstreamSocketsOpenedCount() {
        return socketsOpened.count();
    }

    public double reassignedCount() {
        return reassigned.count();
    }

    public double answeredLocallyCount() {
        return answeredLocally.count();
    }

    /** Current count, for the demo summary and tests. */
    public double droppedCount(DropReason reason) {
        Counter c = dropped.get(reason);
        return c == null ? 0 : c.count();
    }

    public double forwardedCount() {
        return forwarded.count();
    }

    public double relayedCount() {
        return relayed.count();
    }

    public double expiredCount() {
        return expired.count();
    }

    public double receivedCount() {
        return received.count();
    }

    public double retransmittedCount() {
        return retransmitted.count();
    }

    public double realRequestsRelayedCount() {
        return realRequestsRelayed.count();
    }

    public double realRequestsRetransmittedCount() {
        return realRequestsRetransmitted.count();
    }

    public double realRequestsExpiredCount() {
        return realRequestsExpired.count();
    }

    /** Current count of unmatched answers for one reason. */
    public double unmatchedCount(String reason) {
        Counter c = unmatched.get(reason);
        return c == null ? 0 : c.count();
    }

    public StickyStats stickyStats(StickyTable table) {
        return table.stats();
    }
}
