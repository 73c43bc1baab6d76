package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Selection;
import io.switchboard.director.pending.PendingTable;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The client flows of one lane of a virtual server whose protocol has no transaction ids (generic
 * UDP), without a socket: a client ({@code address:port}) has a flow to one real, with a director
 * socket of its own toward it ({@link FlowSide}); answers on that socket belong to that client and are
 * matched to its requests in order, so in-band failure detection works without knowing the protocol.
 * A client keeps its flow's real while that real serves its bound clients, whatever the sticky table
 * says; a flow with nothing outstanding is closed once idle for the virtual server's {@code idle}.
 * Driven by the live lanes and by what-if alike. Confined to one thread.
 *
 * @param <S> the flow's socket, as the {@link FlowSide} opens it
 */
public final class FlowEngine<S> {

    static final int MAX_FLOWS = 16_384;
    static final int MAX_PENDING = 65_536;
    private static final long SWEEP_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The flows' sockets toward the reals. */
    public interface FlowSide<S> {
        /** Opens a socket for a new flow; what it receives from the flow's real goes to {@link #answer}. */
        S open(Flow<S> flow);

        /** Sends a request on the flow's socket to its real; takes ownership of {@code datagram}. */
        void send(Flow<S> flow, ByteBuf datagram);

        void close(Flow<S> flow);
    }

    private final EngineScope scope;
    private final FlowSide<S> sockets;
    private final ClientSide clients;
    private final Map<InetSocketAddress, Flow<S>> flows = new HashMap<>();
    private final PendingTable<PendingRequest<S>> pending;
    private final long flowIdleNanos;
    private int nextFlowId;
    private long nextFlowSweepNanos;

    private record PendingRequest<S>(Flow<S> flow, long transactionId) {
    }

    public FlowEngine(EngineScope scope, FlowSide<S> sockets, ClientSide clients) {
        this.scope = scope;
        this.sockets = sockets;
        this.clients = clients;
        this.flowIdleNanos = scope.virtualServer().config().idle().toNanos();
        this.pending = new PendingTable<>(MAX_PENDING, scope.virtualServer().config().responseTimeout().toNanos(),
                this::expired);
    }

    /** Steps 4 to 7 for a classified request: its flow's real, or a new flow to the selector's choice. */
    public void request(ByteBuf datagram, InetSocketAddress client, StickyKey key, long now) {
        Flow<S> flow = flows.get(client);
        Selection.Reason how;
        if (flow != null && flow.real.servesBoundClients()) {
            how = Selection.Reason.STICKY;
        } else if (scope.virtualServer().refusesNewWork() != null) {
            scope.drop(scope.virtualServer().refusesNewWork(), client, null);
            return;
        } else if (Overloaded.refused(scope, null, clients, datagram, client, null, now)) {
            return; // a new flow is new work
        } else {
            Selection selection = scope.virtualServer().selectorFor(client).select(key, now);
            if (selection == null) {
                scope.drop(EngineDrops.NO_REAL_AVAILABLE, client, null);
                return;
            }
            if (flow != null) {
                closeFlow(flow);
            } else if (flows.size() >= MAX_FLOWS) {
                selection.real().releaseClaim();
                scope.drop(EngineDrops.FLOWS_FULL, client, null);
                return;
            }
            flow = new Flow<>(nextFlowId++, client, selection.real(), now);
            flow.socket = sockets.open(flow);
            flows.put(client, flow);
            how = selection.reason();
        }
        long transactionId = flow.nextTransactionId();
        if (!pending.put(flow.real.slot(), transactionId, new PendingRequest<>(flow, transactionId), now)) {
            flow.real.releaseClaim();
            scope.drop(EngineDrops.PENDING_FULL, client, null);
            return;
        }
        flow.outstanding.addLast(transactionId);
        flow.lastUsedNanos = now;
        flow.real.requestForwarded();
        scope.metrics().forwarded(how);
        scope.events().forwarded(flow.real, how, false);
        sockets.send(flow, datagram.retain());
    }

    /** A datagram from {@code sender} on a flow's socket: match it and relay it to the flow's client. */
    public void answer(Flow<S> flow, ByteBuf answer, InetSocketAddress sender) {
        if (!sender.equals(flow.real.address())) {
            scope.metrics().unmatched("unknown-source");
            scope.log().warn("virtual server {}: datagram from {} on the socket toward {} dropped", scope.name(),
                    sender, flow.real.id());
            return;
        }
        flow.lastUsedNanos = scope.ticker().nanos();
        boolean matched = false;
        for (Long tx = flow.outstanding.pollFirst(); tx != null; tx = flow.outstanding.pollFirst()) {
            if (pending.remove(flow.real.slot(), tx) != null) {
                matched = true;
                break;
            }
        }
        if (matched) {
            flow.real.requestAnswered();
        } else {
            // A flow, not a transaction: a late answer still belongs to the client.
            scope.metrics().unmatched("late");
        }
        scope.metrics().relayed();
        clients.toClient(answer.retain(), flow.client);
    }

    private void expired(PendingRequest<S> request) {
        request.flow.outstanding.remove(request.transactionId);
        request.flow.real.requestUnanswered(request.flow.client.getAddress(), scope.ticker().nanos());
        scope.metrics().expired();
    }

    /** Expires overdue requests; closes idle flows, looked for at most once a second. */
    public void housekeep(long now) {
        pending.expire(now);
        if (now - nextFlowSweepNanos >= 0) {
            nextFlowSweepNanos = now + SWEEP_NANOS;
            for (Iterator<Flow<S>> it = flows.values().iterator(); it.hasNext(); ) {
                Flow<S> flow = it.next();
                if (flow.outstanding.isEmpty() && now - flow.lastUsedNanos > flowIdleNanos) {
                    it.remove();
                    sockets.close(flow);
                }
            }
        }
    }

    private void closeFlow(Flow<S> flow) {
        flows.remove(flow.client);
        sockets.close(flow);
    }

    /** Closes every flow. */
    /** Requests of this lane's flows waiting for their answer. */
    public int inFlight() {
        return pending.size();
    }

    public void close() {
        flows.values().forEach(sockets::close);
        flows.clear();
    }
}
