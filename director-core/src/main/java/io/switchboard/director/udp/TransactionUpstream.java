package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.Future;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
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
 * Upstream for protocols with transaction ids: one director socket per lane toward every real (or
 * {@link TransactionPlugin#upstreamSockets()} of them, each with its own id space, for narrow ids),
 * director-allocated ids per real written into each request, and the client's own id restored in
 * the answer. A retransmission (same client, same client id) goes to the same real with the same
 * director id and is counted as such, not as a new request. Requests forwarded one way (the real
 * answers the client directly, or the request gets no answer) are remembered for the response
 * timeout too, so that a retransmission of one also goes to the same real. A plug-in may pin a
 * request to a real ({@link TransactionPlugin#route}) and, after inspecting an answer, have the
 * request resent to another real ({@link ResponseVerdict#RETRY_ELSEWHERE}); for that the request's
 * bytes are kept, with their own reference, until the answer.
 */
final class TransactionUpstream implements Upstream {

    static final int MAX_PENDING = 65_536;
    /** How many ids to try before a real counts as having no free id. */
    private static final int MAX_ID_PROBES = 1024;

    private final LaneContext lane;
    private final TransactionPlugin plugin;
    private final Farms farms;
    private final int reassignLimit;
    private final Map<InetSocketAddress, RealServer[]> realsByAddress = new HashMap<>();
    private final long idMask;
    private final int idBits;
    /** Director sockets of this lane; each has an id space of its own toward every real. */
    private final Channel[] sockets;
    /** Which sockets have writes waiting for the end of the read burst. */
    private final boolean[] queued;
    private boolean anyQueued;
    /** Ids to try before a real counts as having no free id: the whole space when it is small. */
    private final long probes;
    private final long[] nextId;
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
            StickyKey key, ByteBuf retained, int attempts) {

        void release() {
            if (retained != null) {
                retained.release();
            }
        }
    }

    private record OneWay(RealServer real, long deadlineNanos) {
    }

    TransactionUpstream(LaneContext lane, TransactionPlugin plugin, Farms farms) {
        this.lane = lane;
        this.plugin = plugin;
        this.farms = farms;
        this.reassignLimit = plugin.reassignLimit();
        this.idMask = plugin.transactionIdBits() >= 40 ? 0xFF_FFFF_FFFFL : (1L << plugin.transactionIdBits()) - 1;
        this.idBits = Long.bitCount(idMask);
        // Pending ids carry the socket index above the wire id; they must fit the table's 40 bits.
        int wanted = plugin.rewritesTransactionId() ? Math.max(1, plugin.upstreamSockets()) : 1;
        this.sockets = new Channel[idBits + 32 - Integer.numberOfLeadingZeros(wanted - 1) <= 40 ? wanted : 1];
        this.queued = new boolean[sockets.length];
        long space = (idMask + 1) * sockets.length;
        this.probes = sockets.length > 1 ? space : MAX_ID_PROBES;
        int slots = 0;
        Map<InetSocketAddress, List<RealServer>> byAddress = new HashMap<>();
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                slots = Math.max(slots, real.slot() + 1);
                byAddress.computeIfAbsent(real.address(), a -> new ArrayList<>()).add(real);
            }
        }
        byAddress.forEach((address, reals) -> realsByAddress.put(address, reals.toArray(new RealServer[0])));
        this.nextId = new long[slots];
        this.oneWayTimeoutNanos = lane.virtualServer.config().responseTimeout().toNanos();
        this.pending = new PendingTable<>(MAX_PENDING, oneWayTimeoutNanos, this::expired);
    }

    @Override
    public Future<?> start() {
        io.netty.util.concurrent.Promise<Void> all = lane.loop.newPromise();
        java.util.concurrent.atomic.AtomicInteger remaining = new java.util.concurrent.atomic.AtomicInteger(sockets.length);
        for (int i = 0; i < sockets.length; i++) {
            int index = i;
            bind(index).addListener(f -> {
                if (!f.isSuccess()) {
                    all.tryFailure(f.cause());
                } else if (remaining.decrementAndGet() == 0) {
                    all.trySuccess(null);
                }
            });
        }
        return all;
    }

    private ChannelFuture bind(int index) {
        long socketBits = (long) index << idBits;
        ChannelFuture bound = lane.bootstrap.get()
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        lane.tapIn(packet.sender(), ctx.channel(), packet.content());
                        answer(packet, socketBits);
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        // Answers relayed, and requests resent elsewhere after a refusal.
                        lane.flushRelays();
                        flush();
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        lane.log.warn("virtual server {}: socket toward the reals failed: {}",
                                lane.virtualServer.name(), cause.toString());
                    }
                })
                .bind(0);
        bound.addListener(f -> sockets[index] = bound.channel());
        return bound;
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
            pinned = plugin.route(datagram);
        } catch (DecodeException e) {
            lane.drop(e.reason(), client, e.getMessage());
            return;
        }
        Selection selection;
        if (pinned != null) {
            RealServer holder = farms.real(pinned.farm(), pinned.real());
            if (holder == null || !holder.servesBoundClients()) {
                lane.drop(DropReason.NO_REAL_AVAILABLE, client, "the real " + pinned.real() + " of the request's session"
                        + (holder == null ? " is unknown" : " is " + holder.state()));
                return;
            }
            selection = new Selection(holder, Selection.Reason.STICKY);
        } else {
            selection = lane.virtualServer.selector().select(key, now);
        }
        if (selection == null) {
            lane.drop(DropReason.NO_REAL_AVAILABLE, client, null);
            return;
        }
        if (!plugin.answersThroughDirector() || !plugin.expectsAnswer(datagram)) {
            forwardOneWay(datagram, clientTransaction, selection, now);
            return;
        }
        if (dispatch(datagram, clientTransaction, key, selection.real(), 0, now)) {
            lane.metrics.forwarded(selection.reason());
        }
    }

    /**
     * Sends a request to {@code real} under a fresh director id and remembers it. Borrows
     * {@code datagram} (retains what it sends and keeps). False, with the drop counted, when it could
     * not be sent.
     */
    private boolean dispatch(ByteBuf datagram, ClientTransaction clientTransaction, StickyKey key, RealServer real,
            int attempts, long now) {
        InetSocketAddress client = clientTransaction.client;
        long id = plugin.rewritesTransactionId() ? freeId(real) : clientTransaction.id & idMask;
        if (id < 0 || pending.contains(real.slot(), id)) {
            real.releaseClaim();
            lane.drop(DropReason.PENDING_FULL, client, "no free transaction id toward " + real.id());
            return false;
        }
        Object context;
        try {
            context = plugin.prepareRequest(datagram, id & idMask, real, client);
        } catch (DecodeException e) {
            real.releaseClaim();
            lane.drop(e.reason(), client, e.getMessage());
            return false;
        }
        Pending request = new Pending(clientTransaction, real, id, context, key,
                reassignLimit > 0 ? datagram.retainedDuplicate() : null, attempts);
        if (!pending.put(real.slot(), id, request, now)) {
            request.release();
            real.releaseClaim();
            lane.drop(DropReason.PENDING_FULL, client, null);
            return false;
        }
        byClient.put(clientTransaction, request);
        real.requestForwarded();
        send(datagram.retain(), real, id);
        return true;
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
        try {
            plugin.prepareRequest(datagram, original.id & idMask, original.real, original.clientTransaction.client);
        } catch (DecodeException e) {
            lane.drop(e.reason(), original.clientTransaction.client, e.getMessage());
            return;
        }
        lane.metrics.retransmitted();
        send(datagram.retain(), original.real, original.id);
    }

    /** A free pending id toward {@code real}: the socket index above the wire id. */
    private long freeId(RealServer real) {
        int slot = real.slot();
        long space = sockets.length == 1 ? idMask + 1 : (idMask + 1) * sockets.length;
        for (long probe = 0; probe < probes; probe++) {
            long id = sockets.length == 1 ? nextId[slot]++ & idMask : Math.floorMod(nextId[slot]++, space);
            if (!pending.contains(slot, id)) {
                return id;
            }
        }
        return -1;
    }

    /** Sends on the socket that {@code pendingId} belongs to. */
    private void send(ByteBuf datagram, RealServer real, long pendingId) {
        int index = (int) (pendingId >>> idBits);
        Channel socket = sockets[index];
        lane.tapOut(socket, real.address(), datagram);
        socket.write(new DatagramPacket(datagram, real.address()), socket.voidPromise());
        if (!queued[index]) {
            queued[index] = true;
            anyQueued = true;
        }
    }

    @Override
    public void flush() {
        if (!anyQueued) {
            return;
        }
        anyQueued = false;
        for (int i = 0; i < sockets.length; i++) {
            if (queued[i]) {
                queued[i] = false;
                sockets[i].flush();
            }
        }
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
            lane.metrics.unmatched("late");
            return;
        }
        byClient.remove(request.clientTransaction, request);
        request.real.requestAnswered();
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
        lane.relay(answer.retain(), request.clientTransaction.client);
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
            StickyBinding routed = plugin.route(refused.retained);
            RealServer holder = routed == null ? null : farms.real(routed.farm(), routed.real());
            next = routed == null ? lane.virtualServer.selector().select(refused.key, now)
                    : holder == null || !holder.servesBoundClients() ? null
                    : new Selection(holder, Selection.Reason.STICKY);
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
                now)) {
            return false;
        }
        lane.metrics.reassigned();
        return true;
    }

    private void expired(Pending request) {
        request.release();
        byClient.remove(request.clientTransaction, request);
        request.real.requestUnanswered(request.clientTransaction.client.getAddress(), lane.ticker.nanos());
        lane.metrics.expired();
    }

    @Override
    public void housekeep(long now) {
        pending.expire(now);
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
        for (Channel socket : sockets) {
            if (socket != null) {
                socket.close();
            }
        }
    }
}
