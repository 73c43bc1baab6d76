package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.Future;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Selection;
import io.switchboard.director.pending.PendingTable;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream for protocols with transaction ids: one director socket per lane toward every real,
 * director-allocated ids per real written into each request, and the client's own id restored in
 * the answer. For narrow ids (RADIUS's 8 bits) more sockets, each with its own id space toward
 * every real, are opened on demand, up to {@link TransactionPlugin#upstreamSockets()}
 * ({@link UpstreamSockets}: the sockets and their id spaces). A request the plug-in wants every real to see
 * ({@link TransactionPlugin#fanOut}) is sent to each real of the farm that serves; the first answer
 * is relayed and the others absorbed. A retransmission (same client, same client id) goes to the
 * same real with the same director id and is counted as such, not as a new request. Requests forwarded one way (the real
 * answers the client directly, or the request gets no answer) are remembered for the response
 * timeout too, so that a retransmission of one also goes to the same real. A plug-in may pin a
 * request to a real ({@link TransactionPlugin#route}) and, after inspecting an answer, have the
 * request resent to another real ({@link ResponseVerdict#RETRY_ELSEWHERE}); for that the request's
 * bytes are kept, with their own reference, until the answer.
 */
final class TransactionUpstream implements Upstream {

    static final int MAX_PENDING = 65_536;
    /** Every id toward a real is outstanding on every socket the lane may open. */
    static final DropReason IDS_EXHAUSTED = DropReason.of("ids-exhausted");
    private final LaneContext lane;
    private final TransactionPlugin plugin;
    private final Farms farms;
    private final int reassignLimit;
    private final Map<InetSocketAddress, RealServer[]> realsByAddress = new HashMap<>();
    private final long idMask;
    private final UpstreamSockets sockets;
    private final PendingTable<Pending> pending;
    private final Map<ClientTransaction, Pending> byClient = new HashMap<>();
    /** Requests forwarded one way, oldest first (all share one timeout), for retransmissions. */
    private final LinkedHashMap<ClientTransaction, OneWay> oneWay = new LinkedHashMap<>();
    private final long oneWayTimeoutNanos;

    private record ClientTransaction(InetSocketAddress client, long id) {
    }

    /**
     * @param retained the request's bytes for a resend ({@link TransactionPlugin#reassignLimit()} > 0),
     *                 owned by this entry, else null
     * @param attempts how many reals refused the request before this one
     */
    private record Pending(ClientTransaction clientTransaction, RealServer real, long id, Object context,
            StickyKey key, ByteBuf retained, int attempts, FanOut fanOut) {

        void release() {
            if (retained != null) {
                retained.release();
            }
        }
    }

    private record OneWay(RealServer real, long deadlineNanos) {
    }

    /** The requests of one fanned-out client request, one per real, while unanswered. */
    private static final class FanOut {
        final List<Pending> legs = new ArrayList<>(4);
        /** An answer was relayed since the client last (re)sent the request. */
        boolean relayed;
    }

    TransactionUpstream(LaneContext lane, TransactionPlugin plugin, Farms farms) {
        this.lane = lane;
        this.plugin = plugin;
        this.farms = farms;
        this.reassignLimit = plugin.reassignLimit();
        this.idMask = plugin.transactionIdBits() >= 40 ? 0xFF_FFFF_FFFFL : (1L << plugin.transactionIdBits()) - 1;
        int slots = 0;
        Map<InetSocketAddress, List<RealServer>> byAddress = new HashMap<>();
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                slots = Math.max(slots, real.slot() + 1);
                byAddress.computeIfAbsent(real.address(), a -> new ArrayList<>()).add(real);
            }
        }
        byAddress.forEach((address, reals) -> realsByAddress.put(address, reals.toArray(new RealServer[0])));
        this.oneWayTimeoutNanos = lane.virtualServer.config().responseTimeout().toNanos();
        this.pending = new PendingTable<>(MAX_PENDING, oneWayTimeoutNanos, this::expired);
        // Pending ids carry the socket index above the wire id; UpstreamSockets keeps them in 40 bits.
        this.sockets = new UpstreamSockets(lane, this::answer, pending::contains, idMask,
                plugin.rewritesTransactionId() ? Math.max(1, plugin.upstreamSockets()) : 1, slots, oneWayTimeoutNanos);
    }

    /** Opens the first socket; the others open when ids run out. */
    @Override
    public Future<?> start() {
        return sockets.start();
    }

    @Override
    public void forward(ByteBuf datagram, InetSocketAddress client, StickyKey key, long now) {
        ClientTransaction clientTransaction;
        try {
            clientTransaction = new ClientTransaction(client, plugin.clientTransactionId(datagram));
        } catch (DecodeException e) {
            lane.drop(e.reason(), client, e.getMessage());
            return;
        }
        Pending retransmitted = byClient.get(clientTransaction);
        if (retransmitted != null) {
            resend(datagram, retransmitted);
            return;
        }
        OneWay sentOneWay = oneWay.get(clientTransaction);
        if (sentOneWay != null && sentOneWay.deadlineNanos - now > 0) {
            resendOneWay(datagram, clientTransaction, sentOneWay.real);
            return;
        }
        StickyBinding pinned;
        try {
            if (plugin.rewritesTransactionId() && plugin.answersThroughDirector() && plugin.fanOut(datagram)) {
                fanOut(datagram, clientTransaction, key, now);
                return;
            }
            pinned = plugin.route(datagram);
        } catch (DecodeException e) {
            lane.drop(e.reason(), client, e.getMessage());
            return;
        }
        Selection selection;
        if (pinned != null) {
            // Whatever the holder's state: the session lives only there (a real failed for refusing new
            // work, or taken out of service, still holds it), and no other real could answer.
            selection = lane.virtualServer.selector().pinned(pinned);
            if (selection == null) {
                lane.drop(EngineDrops.NO_REAL_AVAILABLE, client, "the real " + pinned.real() + " of the request's session"
                        + " is not configured");
                return;
            }
        } else {
            selection = lane.virtualServer.selector().select(key, now);
        }
        if (selection == null) {
            lane.drop(EngineDrops.NO_REAL_AVAILABLE, client, null);
            return;
        }
        if (!plugin.answersThroughDirector() || !plugin.expectsAnswer(datagram)) {
            forwardOneWay(datagram, clientTransaction, selection, now);
            return;
        }
        if (dispatch(datagram, clientTransaction, key, selection.real(), 0, null, now)) {
            lane.metrics.forwarded(selection.reason());
        }
    }

    /**
     * A request every real of the farm must see: a copy, prepared for each real, to every real that
     * serves its bound clients. Counted once as forwarded; the first answer is relayed.
     */
    private void fanOut(ByteBuf datagram, ClientTransaction clientTransaction, StickyKey key, long now) {
        ServerFarm farm = farms.farm(lane.virtualServer.config().farm());
        FanOut group = new FanOut();
        for (RealServer real : farm.reals()) {
            if (real.servesBoundClients()) {
                ByteBuf copy = datagram.copy();
                try {
                    dispatch(copy, clientTransaction, key, real, 0, group, now);
                } finally {
                    copy.release();
                }
            }
        }
        if (group.legs.isEmpty()) {
            lane.drop(EngineDrops.NO_REAL_AVAILABLE, clientTransaction.client, "no real of " + farm.name() + " serves");
            return;
        }
        lane.metrics.forwarded(Selection.Reason.FAN_OUT);
    }

    /**
     * Sends a request to {@code real} under a fresh director id and remembers it. Borrows
     * {@code datagram} (retains what it sends and keeps). False, with the drop counted, when it could
     * not be sent.
     *
     * @param group the fanned-out request this is one copy of (the real was not claimed), or null
     */
    private boolean dispatch(ByteBuf datagram, ClientTransaction clientTransaction, StickyKey key, RealServer real,
            int attempts, FanOut group, long now) {
        InetSocketAddress client = clientTransaction.client;
        long id = plugin.rewritesTransactionId() ? sockets.freeId(real) : clientTransaction.id & idMask;
        if (id < 0) {
            releaseClaim(real, group);
            lane.drop(IDS_EXHAUSTED, client, "no free transaction id toward " + real.id());
            return false;
        }
        if (pending.contains(real.slot(), id)) {
            releaseClaim(real, group);
            lane.drop(EngineDrops.PENDING_FULL, client, "transaction id " + id + " is pending at " + real.id());
            return false;
        }
        Object context;
        try {
            context = plugin.prepareRequest(datagram, id & idMask, real, client);
        } catch (DecodeException e) {
            releaseClaim(real, group);
            lane.drop(e.reason(), client, e.getMessage());
            return false;
        }
        Pending request = new Pending(clientTransaction, real, id, context, key,
                reassignLimit > 0 ? datagram.retainedDuplicate() : null, attempts, group);
        if (!pending.put(real.slot(), id, request, now)) {
            request.release();
            releaseClaim(real, group);
            lane.drop(EngineDrops.PENDING_FULL, client, null);
            return false;
        }
        sockets.taken(real.slot(), id);
        byClient.putIfAbsent(clientTransaction, request);
        if (group != null) {
            group.legs.add(request);
        }
        real.requestForwarded();
        send(datagram.retain(), real, id);
        return true;
    }

    private static void releaseClaim(RealServer real, FanOut group) {
        if (group == null) {
            real.releaseClaim();
        }
    }

    /**
     * A pending request left the table (answered, expired): the counts, the client's retransmission
     * entry (handed to another copy of a fanned-out request while one is unanswered).
     */
    private void settled(Pending request) {
        sockets.settled(request.real.slot(), request.id);
        FanOut group = request.fanOut;
        if (group == null) {
            byClient.remove(request.clientTransaction, request);
            return;
        }
        group.legs.remove(request);
        if (byClient.get(request.clientTransaction) == request) {
            if (group.legs.isEmpty()) {
                byClient.remove(request.clientTransaction);
            } else {
                byClient.put(request.clientTransaction, group.legs.get(0));
            }
        }
    }

    /**
     * A request answered from the real to the client directly, or not at all: nothing waits for an
     * answer; only the real is remembered for retransmissions.
     */
    private void forwardOneWay(ByteBuf datagram, ClientTransaction clientTransaction, Selection selection, long now) {
        RealServer real = selection.real();
        try {
            plugin.prepareRequest(datagram, clientTransaction.id & idMask, real, clientTransaction.client);
        } catch (DecodeException e) {
            real.releaseClaim();
            lane.drop(e.reason(), clientTransaction.client, e.getMessage());
            return;
        }
        if (oneWay.size() < MAX_PENDING) {
            oneWay.remove(clientTransaction); // an expired entry: the new one goes to the end
            oneWay.put(clientTransaction, new OneWay(real, now + oneWayTimeoutNanos));
        }
        real.requestSentOneWay();
        if (selection.reason() != Selection.Reason.STICKY) {
            // Nothing will answer it, so it cannot be a READY_TO_TEST real's test request: hand the
            // claim back, or the real would stay TESTING for good.
            real.releaseClaim();
        }
        lane.metrics.forwarded(selection.reason());
        send(datagram.retain(), real, 0);
    }

    /** A retransmission of a request forwarded one way: to the same real, counted as a retransmission. */
    private void resendOneWay(ByteBuf datagram, ClientTransaction clientTransaction, RealServer real) {
        try {
            plugin.prepareRequest(datagram, clientTransaction.id & idMask, real, clientTransaction.client);
        } catch (DecodeException e) {
            lane.drop(e.reason(), clientTransaction.client, e.getMessage());
            return;
        }
        lane.metrics.retransmitted();
        send(datagram.retain(), real, 0);
    }

    /** The same director id again: the real sees a retransmission of what it already has. */
    private void resend(ByteBuf datagram, Pending original) {
        if (original.fanOut != null) {
            resendFanOut(datagram, original.fanOut);
            return;
        }
        try {
            plugin.prepareRequest(datagram, original.id & idMask, original.real, original.clientTransaction.client);
        } catch (DecodeException e) {
            lane.drop(e.reason(), original.clientTransaction.client, e.getMessage());
            return;
        }
        lane.metrics.retransmitted();
        send(datagram.retain(), original.real, original.id);
    }

    /** A retransmission of a fanned-out request: to every real that has not answered yet, same ids. */
    private void resendFanOut(ByteBuf datagram, FanOut group) {
        group.relayed = false; // the client may have lost the answer relayed: relay the next one
        lane.metrics.retransmitted();
        for (Pending leg : group.legs) {
            ByteBuf copy = datagram.copy();
            try {
                plugin.prepareRequest(copy, leg.id & idMask, leg.real, leg.clientTransaction.client);
            } catch (DecodeException e) {
                copy.release();
                lane.drop(e.reason(), leg.clientTransaction.client, e.getMessage());
                return;
            }
            send(copy, leg.real, leg.id);
        }
    }

    /** Sends on the socket that {@code pendingId} belongs to. */
    private void send(ByteBuf datagram, RealServer real, long pendingId) {
        sockets.send(datagram, real.address(), pendingId);
    }

    @Override
    public void flush() {
        sockets.flush();
    }

    /** An answer from a real: find its request, restore it for the client, relay it. */
    private void answer(DatagramPacket packet, long socketBits) {
        RealServer[] reals = realsByAddress.get(packet.sender());
        if (reals == null) {
            lane.metrics.unmatched("unknown-source");
            lane.log.warn("virtual server {}: datagram from {}, which is no real, dropped",
                    lane.virtualServer.name(), packet.sender());
            return;
        }
        ByteBuf answer = packet.content();
        long id;
        try {
            id = plugin.responseTransactionId(answer);
        } catch (DecodeException e) {
            if (relayedFromReal(packet)) {
                return;
            }
            lane.metrics.unmatched("malformed");
            lane.log.warn("virtual server {}: malformed answer from {}: {}", lane.virtualServer.name(),
                    packet.sender(), e.getMessage());
            return;
        }
        id = socketBits | (id & idMask);
        Pending request = null;
        for (int i = 0; i < reals.length && request == null; i++) {
            request = pending.remove(reals[i].slot(), id);
        }
        if (request == null) {
            if (!relayedFromReal(packet)) {
                lane.metrics.unmatched("late");
            }
            return;
        }
        settled(request);
        request.real.requestAnswered();
        if (request.fanOut != null && request.fanOut.relayed) {
            request.release();
            lane.metrics.absorbed();
            return;
        }
        try {
            ResponseVerdict verdict = plugin.inspectResponse(answer, request.real, request.context);
            if (verdict == ResponseVerdict.DROP) {
                lane.metrics.unmatched("dropped");
                return;
            }
            if (verdict == ResponseVerdict.RETRY_ELSEWHERE && retryElsewhere(request)) {
                return;
            }
        } catch (DecodeException e) {
            lane.metrics.unmatched("malformed");
            lane.log.warn("virtual server {}: answer from {} cannot be inspected: {}", lane.virtualServer.name(),
                    packet.sender(), e.getMessage());
            return;
        } finally {
            request.release();
        }
        try {
            plugin.prepareResponse(answer, request.clientTransaction.id, request.context);
        } catch (DecodeException e) {
            lane.metrics.unmatched("malformed");
            lane.log.warn("virtual server {}: answer from {} cannot be relayed: {}", lane.virtualServer.name(),
                    packet.sender(), e.getMessage());
            return;
        }
        if (request.fanOut != null) {
            request.fanOut.relayed = true;
        }
        lane.relay(answer.retain(), request.clientTransaction.client);
    }

    /**
     * A datagram from a real that answers nothing pending, relayed from the virtual address if the
     * plug-in knows where to ({@link PeerRelay#relayFromReal}); false to count it as unmatched.
     */
    private boolean relayedFromReal(DatagramPacket packet) {
        if (!(plugin instanceof PeerRelay relay)) {
            return false;
        }
        InetSocketAddress target;
        try {
            target = relay.relayFromReal(packet.content(), packet.sender());
        } catch (DecodeException e) {
            return false;
        }
        if (target == null) {
            return false;
        }
        lane.relay(packet.content().retain(), target);
        return true;
    }

    /**
     * The real refused the request for lack of resources: fail it and resend the request to the real
     * the selector picks now. False when it cannot be resent (limit reached, nothing kept, no other
     * real): the refusal is then relayed.
     */
    private boolean retryElsewhere(Pending refused) {
        long now = lane.ticker.nanos();
        refused.real.failInBand(now, "refused a request for lack of resources");
        if (refused.retained == null || refused.attempts >= reassignLimit) {
            return false;
        }
        Selection next;
        try {
            // The plug-in may choose elsewhere than the virtual server's farm (a GTP APN map).
            next = lane.virtualServer.selector().afterRefusal(plugin.route(refused.retained), refused.key, now);
        } catch (DecodeException e) {
            return false;
        }
        if (next == null) {
            return false;
        }
        if (next.real() == refused.real) {
            next.real().releaseClaim();
            return false;
        }
        if (!dispatch(refused.retained, refused.clientTransaction, refused.key, next.real(), refused.attempts + 1,
                null, now)) {
            return false;
        }
        lane.metrics.reassigned();
        return true;
    }

    private void expired(Pending request) {
        request.release();
        settled(request);
        request.real.requestUnanswered(request.clientTransaction.client.getAddress(), lane.ticker.nanos());
        lane.metrics.expired();
    }

    @Override
    public void housekeep(long now) {
        pending.expire(now);
        if (sockets.several()) {
            sockets.housekeep(now);
        }
        Iterator<OneWay> oldest = oneWay.values().iterator();
        while (oldest.hasNext()) {
            if (oldest.next().deadlineNanos - now > 0) {
                break;
            }
            oldest.remove();
        }
    }

    @Override
    public void close() {
        pending.drain(Pending::release);
        byClient.clear();
        sockets.close();
    }
}
