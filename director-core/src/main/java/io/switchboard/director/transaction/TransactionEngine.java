package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Selection;
import io.switchboard.director.pending.PendingTable;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.ResponseVerdict;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The transactions of one lane of a virtual server whose protocol has transaction ids, without a
 * socket: steps 4 to 7 of the packet path and the answer's way back. A classified request is pinned
 * to its session's real or selected, prepared under a director id ({@link IdSpaces}) and sent to the
 * {@link RealSide}; it waits in the pending table until its answer, which is inspected, restored for
 * the client and relayed to the {@link ClientSide} — or, refused for lack of resources, resent to
 * another real — or until the response timeout, when it counts as unanswered at its real. A
 * retransmission (same client, same client id) goes to the same real under the same director id; a
 * request forwarded one way (the real answers the client directly, or nothing answers) is remembered
 * for the response timeout too, for the same reason. A request every real must see
 * ({@link TransactionPlugin#fanOut}) goes to each real that serves; the first answer is relayed and
 * the others absorbed.
 *
 * <p>The live lanes drive it with their sockets and the system clock; what-if drives the same code
 * with a capture's clock and answers ({@link #answerAsCaptured}), so that the two cannot decide
 * differently. Confined to one thread; every method borrows the buffers it is given and retains what
 * it sends or keeps.
 */
public final class TransactionEngine {

    static final int MAX_PENDING = 65_536;
    /** Every id toward a real is outstanding on every socket the lane may open. */
    static final DropReason IDS_EXHAUSTED = DropReason.of("ids-exhausted");
    private final EngineScope scope;
    /** The plug-in, its context type erased: the engine only hands each request's context back. */
    private final TransactionPlugin<Object> plugin;
    private final Farms farms;
    private final RealSide reals;
    private final ClientSide clients;
    private final int reassignLimit;
    private final KnownReals known;
    private final long idMask;
    private final IdSpaces ids;
    private final PendingTable<Pending> pending;
    private final Retransmissions retransmissions;
    private final OneWay oneWay;
    private final long timeoutNanos;
    private final Acknowledgments acks;

    @SuppressWarnings("unchecked")
    public TransactionEngine(EngineScope scope, TransactionPlugin<?> plugin, Farms farms, RealSide reals,
            ClientSide clients) {
        this.scope = scope;
        this.plugin = (TransactionPlugin<Object>) plugin;
        this.farms = farms;
        this.reals = reals;
        this.clients = clients;
        this.reassignLimit = plugin.reassignLimit();
        this.idMask = plugin.transactionIdBits() >= 40 ? 0xFF_FFFF_FFFFL : (1L << plugin.transactionIdBits()) - 1;
        int slots = 0;
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                slots = Math.max(slots, real.slot() + 1);
            }
        }
        this.timeoutNanos = scope.virtualServer().config().responseTimeout().toNanos();
        this.known = new KnownReals(farms, scope.ticker(), timeoutNanos);
        this.pending = new PendingTable<>(MAX_PENDING, timeoutNanos, this::expired);
        this.retransmissions = new Retransmissions(MAX_PENDING, timeoutNanos);
        this.acks = new Acknowledgments(scope, this.plugin, clients);
        this.oneWay = new OneWay(scope, this.plugin, reals, retransmissions, idMask);
        // Without client NAT a request leaves from its client's own address, from one socket per
        // client: an answer cannot say which of several id spaces it belongs to, so there is one.
        boolean severalSpaces = plugin.rewritesTransactionId() && scope.virtualServer().config().clientNat();
        this.ids = new IdSpaces(reals, pending::contains, idMask,
                severalSpaces ? Math.max(1, plugin.upstreamSockets()) : 1, slots, timeoutNanos);
    }

    /** Opens the first director socket; the others open when ids run out. */
    public void start() {
        ids.start();
    }

    /** Steps 4 to 7 for a request the plug-in decided to direct: pin or select the real, remember it, send it. */
    public void request(ByteBuf datagram, InetSocketAddress client, Decision.Direct decision, long now) {
        if (decision.triggers()) {
            oneWay.forwardTriggering(datagram, client, decision, now);
            return;
        }
        if (resendPending(datagram, client, decision, now)) {
            return;
        }
        Pending.ClientTransaction clientTransaction = new Pending.ClientTransaction(client, decision.transactionId());
        DropReason refused = scope.virtualServer().refusesNewWork();
        if (refused != null) {
            scope.drop(refused, client, null);
            return;
        }
        if (Overloaded.refused(scope, plugin, clients, datagram, client, decision, now)) {
            return;
        }
        if (decision.fanOut() && plugin.rewritesTransactionId() && plugin.answersThroughDirector()) {
            fanOut(datagram, clientTransaction, decision, now);
            return;
        }
        Selection selection = scope.virtualServer().selectorFor(client).select(decision.placement(), decision.key(), now);
        if (selection == null) {
            scope.drop(EngineDrops.NO_REAL_AVAILABLE, client, unplaced(decision.placement()));
            return;
        }
        if (!plugin.answersThroughDirector() || !decision.expectsAnswer()) {
            oneWay.forward(datagram, clientTransaction, selection, decision.key(), now);
            return;
        }
        if (dispatch(datagram, clientTransaction, decision, selection, 0, null, now)) {
            scope.metrics().forwarded(selection.reason());
            scope.events().forwarded(selection.real(), selection.reason(), false);
        }
    }

    /**
     * A client's retransmission of a request this engine still has pending (or sent one way a moment
     * ago) goes to the same real under the same director id: true when it was one. Asked first by
     * {@link #request}, and by a lane whose virtual server was replaced by a reload, so that a
     * retransmission of what the old engine has pending goes where the original went.
     */
    public boolean resendPending(ByteBuf datagram, InetSocketAddress client, Decision.Direct decision, long now) {
        if (decision.triggers()) {
            return false;
        }
        Pending.ClientTransaction clientTransaction = new Pending.ClientTransaction(client, decision.transactionId());
        Pending retransmitted = retransmissions.pending(clientTransaction);
        if (retransmitted != null) {
            resend(datagram, retransmitted);
            return true;
        }
        RealServer sentOneWay = retransmissions.sentOneWay(clientTransaction, now);
        if (sentOneWay != null) {
            oneWay.resend(datagram, clientTransaction, sentOneWay, decision.key());
            return true;
        }
        return false;
    }

    /** Why a request found no real, beyond the farm having none that may take it. */
    static String unplaced(Decision.Placement placement) {
        if (placement instanceof Decision.Placement.Pinned pinned) {
            return "the real " + pinned.binding().real() + " of the request's session is not configured";
        }
        return placement instanceof Decision.Placement.InFarm farm ? "no real of farm " + farm.farm() + " may take it"
                : null;
    }

    /**
     * A request every real of the farm must see: a copy, prepared for each real, to every real that
     * serves its bound clients. Counted once as forwarded; the first answer is relayed.
     */
    private void fanOut(ByteBuf datagram, Pending.ClientTransaction clientTransaction, Decision.Direct decision,
            long now) {
        ServerFarm farm = farms.farm(scope.virtualServer().config().farm());
        Pending.FanOut group = new Pending.FanOut();
        for (RealServer real : farm.reals()) {
            if (real.servesBoundClients()) {
                ByteBuf copy = datagram.copy();
                try {
                    dispatch(copy, clientTransaction, decision, new Selection(real, Selection.Reason.FAN_OUT), 0, group, now);
                } finally {
                    copy.release();
                }
            }
        }
        if (group.legs.isEmpty()) {
            scope.drop(EngineDrops.NO_REAL_AVAILABLE, clientTransaction.client(), "no real of " + farm.name() + " serves");
            return;
        }
        scope.metrics().forwarded(Selection.Reason.FAN_OUT);
        scope.events().forwarded(group.legs.get(0).real(), Selection.Reason.FAN_OUT, false);
    }

    /**
     * Sends a request to the selected real under a fresh director id and remembers it. Borrows
     * {@code datagram} (retains what it sends and keeps). False, with the drop counted and the
     * selection's claim handed back, when it could not be sent.
     *
     * @param group the fanned-out request this is one copy of (the real was not claimed), or null
     */
    private boolean dispatch(ByteBuf datagram, Pending.ClientTransaction clientTransaction, Decision.Direct decision,
            Selection selection, int attempts, Pending.FanOut group, long now) {
        RealServer real = selection.real();
        InetSocketAddress client = clientTransaction.client();
        long id = plugin.rewritesTransactionId() ? ids.freeId(real.slot()) : clientTransaction.id() & idMask;
        if (id < 0) {
            releaseClaim(selection, group);
            scope.drop(IDS_EXHAUSTED, client, "no free transaction id toward " + real.id());
            return false;
        }
        if (pending.contains(real.slot(), id)) {
            releaseClaim(selection, group);
            scope.drop(EngineDrops.PENDING_FULL, client, "transaction id " + id + " is pending at " + real.id());
            return false;
        }
        Object context;
        try {
            context = plugin.prepareRequest(datagram, id & idMask, real, client, decision.key());
        } catch (DecodeException e) {
            releaseClaim(selection, group);
            scope.drop(e.reason(), client, e.getMessage());
            return false;
        }
        ByteBuf ack = acks.of(context, datagram);
        Pending request = new Pending(clientTransaction, real, id, context, decision,
                reassignLimit > 0 ? datagram.retainedDuplicate() : null, attempts, group, ack != null);
        if (!pending.put(real.slot(), id, request, now)) {
            acks.send(ack, false, client);
            request.release();
            releaseClaim(selection, group);
            scope.drop(EngineDrops.PENDING_FULL, client, null);
            return false;
        }
        ids.taken(real.slot(), id);
        retransmissions.pending(request);
        real.requestForwarded();
        send(datagram.retain(), real, id, client);
        acks.send(ack, attempts == 0 && (group == null || group.legs.size() == 1), client);
        return true;
    }

    /**
     * Hands back the claim a selection took ({@link RealServer#tryTakeNewWork}): a newly chosen real's,
     * not a sticky or pinned one's, which took none (a TESTING real's claim is its test request's).
     */
    static void releaseClaim(Selection selection, Pending.FanOut group) {
        if (group == null && selection.reason() != Selection.Reason.STICKY) {
            selection.real().releaseClaim();
        }
    }

    /** A pending request left the table (answered, expired). */
    private void settled(Pending request) {
        ids.settled(request.real().slot(), request.id());
        retransmissions.settled(request);
    }

    /** The same director id again: the real sees a retransmission of what it already has. */
    private void resend(ByteBuf datagram, Pending original) {
        if (original.fanOut() != null) {
            resendFanOut(datagram, original.fanOut());
            return;
        }
        InetSocketAddress client = original.clientTransaction().client();
        Object context;
        try {
            context = plugin.prepareRequest(datagram, original.id() & idMask, original.real(), client,
                    original.decision().key());
        } catch (DecodeException e) {
            scope.drop(e.reason(), client, e.getMessage());
            return;
        }
        scope.metrics().retransmitted();
        scope.events().retransmitted(original.real(), false);
        send(datagram.retain(), original.real(), original.id(), original.clientTransaction().client());
        // The client lost the acknowledgment (without a response cache to answer it): the same again.
        acks.send(original.acknowledged() ? acks.of(context, datagram) : null, true, client);
    }

    /** A retransmission of a fanned-out request: to every real that has not answered yet, same ids. */
    private void resendFanOut(ByteBuf datagram, Pending.FanOut group) {
        group.relayed = false; // the client may have lost the answer relayed: relay the next one
        scope.metrics().retransmitted();
        scope.events().retransmitted(group.legs.get(0).real(), false);
        for (Pending leg : List.copyOf(group.legs)) {
            ByteBuf copy = datagram.copy();
            try {
                plugin.prepareRequest(copy, leg.id() & idMask, leg.real(), leg.clientTransaction().client(),
                        leg.decision().key());
            } catch (DecodeException e) {
                copy.release();
                scope.drop(e.reason(), leg.clientTransaction().client(), e.getMessage());
                return;
            }
            send(copy, leg.real(), leg.id(), leg.clientTransaction().client());
        }
    }

    /** Sends on the socket that {@code pendingId} belongs to, on behalf of {@code client}. */
    private void send(ByteBuf datagram, RealServer real, long pendingId, InetSocketAddress client) {
        reals.toReal(datagram, real, ids.socketOf(pendingId), pendingId & idMask, client);
    }

    /**
     * Offline runs only (what-if): the capture's answer to a request that went to {@code real} on
     * {@code socket} under {@code transactionId}, made the simulated real's own answer to what it was
     * sent ({@link TransactionPlugin#simulateAnswerOf}: RADIUS re-signs it with the real's secret),
     * then taken as a live answer is ({@link #answer}).
     */
    public void answerAsCaptured(ByteBuf answer, RealServer real, int socket, long transactionId) {
        Pending request = pending.get(real.slot(), ids.pendingId(socket, transactionId));
        if (request != null) {
            try {
                plugin.simulateAnswerOf(answer, transactionId, real, request.context());
            } catch (DecodeException e) {
                refused(real, real.address(), e, "cannot be simulated");
                return;
            }
        }
        answer(answer, real.address(), socket);
    }

    /** An answer from a real on director socket {@code socket}: find its request, restore it for the client, relay it. */
    public void answer(ByteBuf answer, InetSocketAddress from, int socket) {
        RealServer[] candidates = known.at(from);
        if (candidates == null) {
            scope.metrics().unmatched("unknown-source");
            scope.log().warn("virtual server {}: datagram from {}, which is no real, dropped", scope.name(), from);
            return;
        }
        long id;
        try {
            id = plugin.responseTransactionId(answer);
        } catch (DecodeException e) {
            if (relayedFromReal(answer, from)) {
                return;
            }
            refused(candidates[0], from, e, "malformed");
            return;
        }
        id = ids.pendingId(socket, id);
        Pending request = null;
        for (int i = 0; i < candidates.length && request == null; i++) {
            request = pending.remove(candidates[i].slot(), id);
        }
        if (request == null) {
            if (!relayedFromReal(answer, from)) {
                scope.metrics().unmatched("late");
            }
            return;
        }
        settled(request);
        request.real().requestAnswered();
        if (request.fanOut() != null) {
            request.fanOut().answered = true;
        }
        if (request.fanOut() != null && request.fanOut().relayed && !request.acknowledged()) {
            request.release();
            scope.metrics().absorbed();
            return;
        }
        try {
            ResponseVerdict verdict = plugin.inspectResponse(answer, request.real(), request.context());
            if (verdict == ResponseVerdict.DROP) {
                scope.metrics().unmatched("dropped");
                scope.events().answerDropped(request.real());
                return;
            }
            if (verdict == ResponseVerdict.RETRY_ELSEWHERE && retryElsewhere(request)) {
                return;
            }
        } catch (DecodeException e) {
            refused(request.real(), from, e, "cannot be inspected");
            return;
        } finally {
            request.release();
        }
        ByteBuf relayed = withRoom(answer);
        try {
            try {
                plugin.prepareResponse(relayed, request.clientTransaction().id(), request.context());
            } catch (DecodeException e) {
                refused(request.real(), from, e, "cannot be relayed");
                return;
            }
            if (request.acknowledged()) {
                acks.absorbed(); // the client has the plug-in's own answer
                return;
            }
            if (request.fanOut() != null) {
                request.fanOut().relayed = true;
            }
            scope.metrics().relayed();
            clients.toClient(relayed.retain(), request.clientTransaction().client());
        } finally {
            if (relayed != answer) {
                relayed.release();
            }
        }
    }

    /** The answer, or a copy of it with the room the plug-in may grow it by ({@link TransactionPlugin#responseGrowth}). */
    private ByteBuf withRoom(ByteBuf answer) {
        int growth = plugin.responseGrowth();
        if (growth == 0 || answer.maxWritableBytes() >= growth) {
            return answer;
        }
        ByteBuf copy = answer.alloc().buffer(answer.readableBytes() + growth);
        // Read from the answer into the copy: memory to memory. The copy's writeBytes would go
        // through NIO views of the answer, two objects per answer.
        answer.getBytes(answer.readerIndex(), copy, answer.readableBytes());
        return copy;
    }

    /** An answer that is not relayed because it cannot be read: counted as malformed, logged, told. */
    private void refused(RealServer real, InetSocketAddress from, DecodeException e, String why) {
        scope.metrics().unmatched("malformed");
        scope.log().warn("virtual server {}: answer from {} {}: {}", scope.name(), from, why, e.getMessage());
        scope.events().answerRefused(real, e.reason());
    }

    /**
     * A datagram from a real that answers nothing pending, relayed from the virtual address if the
     * plug-in knows what it is ({@link TransactionPlugin#fromReal}: a real's own request, a Failure
     * Indication); false to count it as unmatched.
     */
    private boolean relayedFromReal(ByteBuf datagram, InetSocketAddress from) {
        Decision decision;
        try {
            decision = plugin.fromReal(datagram, from);
        } catch (DecodeException e) {
            return false;
        }
        if (decision == null) {
            return false;
        }
        Intake.relay(decision, datagram, from, scope, clients);
        return true;
    }

    /**
     * The real refused the request for lack of resources: fail it and resend the request to the real
     * the selector picks now. False when it cannot be resent (limit reached, nothing kept, no other
     * real): the refusal is then relayed.
     */
    private boolean retryElsewhere(Pending refused) {
        long now = scope.ticker().nanos();
        refused.real().failInBand(now, "refused a request for lack of resources");
        if (refused.retained() == null || refused.attempts() >= reassignLimit) {
            return false;
        }
        Decision.Direct decision = refused.decision();
        Selection next = scope.virtualServer().selector().afterRefusal(decision.placement(), decision.key(), now);
        if (next == null) {
            return false;
        }
        if (next.real() == refused.real()) {
            releaseClaim(next, null);
            return false;
        }
        if (!dispatch(refused.retained(), refused.clientTransaction(), refused.decision(), next,
                refused.attempts() + 1, null, now)) {
            return false;
        }
        scope.metrics().reassigned();
        scope.events().reassigned(refused.real(), next.real());
        return true;
    }

    private void expired(Pending request) {
        request.release();
        settled(request);
        request.real().requestUnanswered(request.clientTransaction().client().getAddress(), scope.ticker().nanos());
        Pending.FanOut group = request.fanOut();
        // Each real that leaves its copy unanswered counts against that real; the request, forwarded
        // once, expires once: when its last copy does and no real answered it.
        if (group == null || (group.legs.isEmpty() && !group.answered)) {
            scope.metrics().expired();
        }
    }

    /**
     * Expires overdue requests, retires sockets no longer needed, forgets old one-way requests; and
     * the virtual server's relayed requests (once a second, whichever lane comes first).
     */
    public void housekeep(long now) {
        pending.expire(now);
        RelayedRequests relayed = scope.virtualServer().relayedRequests();
        if (relayed != null) {
            relayed.housekeep(now, scope);
        }
        if (ids.several()) {
            ids.housekeep(now);
        }
        retransmissions.expire(now);
        known.housekeep(now);
    }

    /** Requests waiting for their answer in this lane. */
    public int inFlight() {
        return pending.size();
    }

    /** Lets go of every pending request. */
    public void close() {
        pending.drain(Pending::release);
        retransmissions.clear();
    }
}
