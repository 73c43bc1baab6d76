package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Selection;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;

/**
 * The requests of a {@link TransactionEngine} that do not wait in its pending table: those the real
 * answers to the client directly or not at all (only the real is remembered, for retransmissions),
 * and those it answers with a request of its own or a failure indication ({@link TriggeringRequests},
 * which any lane may complete). Confined to the engine's thread.
 */
final class OneWay {

    private final EngineScope scope;
    private final TransactionPlugin<Object> plugin;
    private final RealSide reals;
    private final Retransmissions retransmissions;
    private final long idMask;

    OneWay(EngineScope scope, TransactionPlugin<Object> plugin, RealSide reals, Retransmissions retransmissions,
            long idMask) {
        this.scope = scope;
        this.plugin = plugin;
        this.reals = reals;
        this.retransmissions = retransmissions;
        this.idMask = idMask;
    }

    /**
     * A request answered from the real to the client directly, or not at all: nothing waits for an
     * answer; only the real is remembered for retransmissions.
     */
    void forward(ByteBuf datagram, Pending.ClientTransaction clientTransaction, Selection selection, StickyKey key,
            long now) {
        RealServer real = selection.real();
        try {
            plugin.prepareRequest(datagram, clientTransaction.id() & idMask, real, clientTransaction.client(), key);
        } catch (DecodeException e) {
            TransactionEngine.releaseClaim(selection, null);
            scope.drop(e.reason(), clientTransaction.client(), e.getMessage());
            return;
        }
        retransmissions.sentOneWay(clientTransaction, real, now);
        real.requestSentOneWay();
        // Nothing will answer it, so it cannot be a READY_TO_TEST real's test request: hand the
        // claim back, or the real would stay TESTING for good.
        TransactionEngine.releaseClaim(selection, null);
        scope.metrics().forwarded(selection.reason());
        scope.events().forwarded(real, selection.reason(), true);
        reals.toReal(datagram.retain(), real, 0, clientTransaction.id() & idMask, clientTransaction.client());
    }

    /**
     * A request the real answers with a request of its own or a failure indication: one way, under a
     * director id of the virtual server's {@link TriggeringRequests}, where it waits for that answer
     * (which may reach any lane, or the virtual address); its retransmission to the same real under
     * the same id.
     */
    void forwardTriggering(ByteBuf datagram, InetSocketAddress client, Decision.Direct decision, long now) {
        RelayedRequests relayed = Intake.relayedRequests(scope, client);
        if (relayed == null) {
            return;
        }
        TriggeringRequests triggering = relayed.triggering();
        TriggeringRequests.Outstanding known = triggering.pending(client, decision.transactionId());
        if (known != null) {
            try {
                plugin.prepareRequest(datagram, known.id(), known.real(), client, decision.key());
            } catch (DecodeException e) {
                scope.drop(e.reason(), client, e.getMessage());
                return;
            }
            scope.metrics().retransmitted();
            scope.events().retransmitted(known.real(), true);
            reals.toReal(datagram.retain(), known.real(), 0, known.id(), client);
            return;
        }
        DropReason refused = scope.virtualServer().refusesNewWork();
        if (refused != null) {
            scope.drop(refused, client, null);
            return;
        }
        Selection selection = scope.virtualServer().selectorFor(client).select(decision.placement(), decision.key(), now);
        if (selection == null) {
            scope.drop(EngineDrops.NO_REAL_AVAILABLE, client, TransactionEngine.unplaced(decision.placement()));
            return;
        }
        RealServer real = selection.real();
        long id = triggering.freeId(real);
        Object context;
        try {
            context = plugin.prepareRequest(datagram, id, real, client, decision.key());
        } catch (DecodeException e) {
            TransactionEngine.releaseClaim(selection, null);
            scope.drop(e.reason(), client, e.getMessage());
            return;
        }
        triggering.put(new TriggeringRequests.Outstanding(real, client, decision.transactionId(), id, context, now));
        real.requestSentOneWay();
        TransactionEngine.releaseClaim(selection, null); // answered by a request, not a response: no test request's claim
        scope.metrics().forwarded(selection.reason());
        scope.events().forwarded(real, selection.reason(), true);
        reals.toReal(datagram.retain(), real, 0, id, client);
    }

    /** A retransmission of a request forwarded one way: to the same real, counted as a retransmission. */
    void resend(ByteBuf datagram, Pending.ClientTransaction clientTransaction, RealServer real, StickyKey key) {
        try {
            plugin.prepareRequest(datagram, clientTransaction.id() & idMask, real, clientTransaction.client(), key);
        } catch (DecodeException e) {
            scope.drop(e.reason(), clientTransaction.client(), e.getMessage());
            return;
        }
        scope.metrics().retransmitted();
        scope.events().retransmitted(real, true);
        reals.toReal(datagram.retain(), real, 0, clientTransaction.id() & idMask, clientTransaction.client());
    }

}
