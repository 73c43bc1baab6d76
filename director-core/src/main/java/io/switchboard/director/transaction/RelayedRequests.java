package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.Pace;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.RealRequests;
import io.switchboard.director.spi.ResponseVerdict;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests reals sent to peers through one virtual server, waiting for the peers' answers: the
 * other direction of a transaction ({@link Decision.RealRequest}). Each goes to its peer from the
 * virtual address under a director id of its id space (each side's numbering stays its own), and is
 * found again by that id when the peer answers, or by the real's own numbering when the real
 * retransmits. Shared by the virtual server's lanes (a real's request and the peer's answer may reach
 * different event loops), so thread-safe.
 *
 * <p>In a cluster every node relays from the same director address, so a peer sees the nodes as one:
 * director ids carry the node's slot in their top bits ({@link NodeSlot#compose}), and two nodes
 * never relay two requests under one id, which the peer would take for a retransmission. The answer
 * may reach another node than the one that relayed the request, so each relayed request is also
 * written to a table the nodes share, by space and director id: a node that does not know an
 * answer's id takes the request from there. Reals' requests are rare next to their answers (a
 * network-initiated Update / Delete), so one write and one removal per request is cheap. An answer
 * that arrives before the write reached its node is dropped; the real's retransmission, relayed again
 * by the first node under the same id, gets the peer's answer again.
 *
 * <p>Data structure: two concurrent maps over the same entries, by director id (answers, expiry) and
 * by the real's transaction (retransmissions), plus the shared table; the ids come from one counter
 * per node, skipping ids still pending.
 */
public final class RelayedRequests {

    /** The plug-in could not prepare a real's request or its answer. */
    static final DropReason CANNOT_RELAY = DropReason.of("cannot-relay");

    /** A relayed request this node sent. */
    private record Relayed(InetSocketAddress realSender, int space, long realId, long id, Object context,
            long sentNanos) {
    }

    /** What another node needs to complete a relayed request: the shared table's value. */
    record Shared(InetSocketAddress realSender, int space, long realId, byte[] context, long sentMillis) {
    }

    /** A real's request as the real numbered it: its retransmission is the same triple. */
    private record RealTransaction(InetSocketAddress realSender, int space, long realId) {
    }

    private final RealRequests<Object> plugin;
    private final TriggeringRequests triggering;
    private final Codec<Object> contexts;
    private final NodeSlot slot;
    private final SharedTable<Long, Shared> shared;
    private final long timeoutNanos;
    /** Epoch nanoseconds minus the engine's clock: the shared table's times are the cluster's. */
    private final long epochOffsetNanos;
    private final Map<Long, Relayed> byId = new ConcurrentHashMap<>();
    private final Map<RealTransaction, Relayed> byReal = new ConcurrentHashMap<>();
    private final AtomicLong next = new AtomicLong();
    private final Pace housekeeping = new Pace(Duration.ofSeconds(1));

    /**
     * @param name           names the shared table (the virtual server's)
     * @param triggeringBits width of the director ids of requests the reals answer with requests
     *                       ({@link TriggeringRequests}): the plug-in's ids toward reals
     * @param nowNanos       the engine's clock now, to relate it to the cluster's
     */
    @SuppressWarnings("unchecked")
    public RelayedRequests(RealRequests<?> plugin, NodeSlot slot, SharedTables tables, String name,
            long timeoutNanos, int triggeringBits, long nowNanos) {
        this.plugin = (RealRequests<Object>) plugin;
        this.triggering = new TriggeringRequests(triggeringBits, timeoutNanos);
        this.contexts = this.plugin.codec();
        this.slot = slot;
        this.shared = tables.openTransient("relayed/" + name, KEY, new SharedCodec());
        this.timeoutNanos = timeoutNanos;
        this.epochOffsetNanos = System.currentTimeMillis() * 1_000_000L - nowNanos;
    }

    /**
     * A real's request: prepared under its director id (the one it had, for a retransmission) and
     * sent to the peer from the virtual address. Borrows {@code request}.
     */
    public void request(ByteBuf request, InetSocketAddress realSender, Decision.RealRequest decision, EngineScope scope,
            ClientSide out) {
        long now = scope.ticker().nanos();
        RealTransaction transaction = new RealTransaction(realSender, decision.space(), decision.realId());
        Relayed relayed = byReal.get(transaction);
        boolean retransmitted = relayed != null;
        if (relayed == null) {
            long requested = -1;
            TriggeringRequests.Outstanding answered = decision.answers() < 0 ? null
                    : triggering.answered(realSender.getAddress(), decision.answers(),
                            outstanding -> plugin.answers(outstanding.context(), decision.context()));
            if (answered != null) {
                // The peer matches it to its own request by that request's id (TS 29.274 §7.6).
                requested = plugin.idAnswering(answered.clientTransactionId());
                scope.metrics().realRequestTriggered();
            }
            relayed = new Relayed(realSender, decision.space(), decision.realId(), id(decision.space(), requested),
                    decision.context(), now);
            remember(transaction, relayed, now);
        }
        try {
            plugin.prepareRequest(request, relayed.id(), relayed.context());
        } catch (DecodeException e) {
            if (!retransmitted) {
                forget(relayed);
            }
            scope.drop(e.reason(), realSender, e.getMessage());
            return;
        }
        if (retransmitted) {
            scope.metrics().realRequestRetransmitted();
        } else {
            scope.metrics().realRequestRelayed();
        }
        scope.events().relayedToPeer();
        out.toClient(request.retain(), decision.peer());
    }

    /**
     * A peer's answer to a relayed request: restored for the real and sent back to it from the
     * virtual address; counted as unmatched when no request of any node waits for it.
     */
    public void answer(ByteBuf answer, InetSocketAddress peer, Decision.PeerAnswer decision, EngineScope scope,
            ClientSide out) {
        long key = key(decision.space(), decision.directorId());
        InetSocketAddress realSender;
        long realId;
        Object context;
        Relayed relayed = byId.remove(key);
        if (relayed != null) {
            byReal.remove(new RealTransaction(relayed.realSender(), relayed.space(), relayed.realId()), relayed);
            shared.remove(key);
            realSender = relayed.realSender();
            realId = relayed.realId();
            context = relayed.context();
        } else {
            Shared other = shared.get(key);
            if (other == null || other.space() != decision.space() || !shared.remove(key)) {
                scope.drop(EngineDrops.NO_RELAYED_REQUEST, peer, null);
                return;
            }
            realSender = other.realSender();
            realId = other.realId();
            try {
                context = contexts.decode(other.context());
            } catch (IllegalArgumentException e) {
                scope.drop(CANNOT_RELAY, peer, "another node's relayed request: " + e.getMessage());
                return;
            }
        }
        try {
            plugin.prepareAnswer(answer, realId, context);
        } catch (DecodeException e) {
            scope.drop(e.reason(), peer, e.getMessage());
            return;
        }
        scope.metrics().relayed();
        scope.events().relayedToPeer();
        out.toClient(answer.retain(), realSender);
    }

    /**
     * A real's failure indication for a request forwarded with {@code triggers}: relayed to the client
     * of that request as its answer (the plug-in inspects and restores it as any answer); dropped as
     * answering nothing when that request is not outstanding here.
     */
    public void triggeredAnswer(ByteBuf answer, InetSocketAddress real, Decision.TriggeredAnswer decision,
            EngineScope scope, ClientSide out) {
        TriggeringRequests.Outstanding request = triggering.answered(real.getAddress(), decision.directorId(), outstanding -> true);
        if (request == null) {
            scope.drop(EngineDrops.NO_RELAYED_REQUEST, real, "no request outstanding under " + decision.directorId());
            return;
        }
        @SuppressWarnings("unchecked")
        TransactionPlugin<Object> transactions = (TransactionPlugin<Object>) scope.virtualServer().plugin();
        try {
            if (transactions.inspectResponse(answer, request.real(), request.context()) == ResponseVerdict.DROP) {
                scope.metrics().unmatched("dropped");
                scope.events().answerDropped(request.real());
                return;
            }
            transactions.prepareResponse(answer, request.clientTransactionId(), request.context());
        } catch (DecodeException e) {
            scope.drop(e.reason(), real, e.getMessage());
            return;
        }
        scope.metrics().relayed();
        scope.events().relayedToPeer();
        out.toClient(answer.retain(), request.client());
    }

    /** The requests forwarded to reals that the reals answer with requests of their own. */
    public TriggeringRequests triggering() {
        return triggering;
    }

    /**
     * At most once a second, whichever lane comes first: forgets requests sent longer than the
     * response timeout ago (counted as expired: their peer did not answer through this node), and
     * other nodes' requests older than twice that (their node died before it could forget them); and
     * triggering requests the real did not answer in that time (counted as expired requests).
     */
    public void housekeep(long now, EngineScope scope) {
        if (!housekeeping.due(now)) {
            return;
        }
        for (Relayed relayed : byId.values()) {
            long key = key(relayed.space(), relayed.id());
            if (now - relayed.sentNanos() > timeoutNanos && byId.remove(key, relayed)) {
                byReal.remove(new RealTransaction(relayed.realSender(), relayed.space(), relayed.realId()), relayed);
                if (shared.remove(key)) {
                    scope.metrics().realRequestExpired(); // not when another node saw it answered
                }
            }
        }
        for (int i = triggering.expire(now); i > 0; i--) {
            scope.metrics().expired();
        }
        if (shared.sharedWithOtherNodes()) {
            long oldest = millis(now) - 2 * timeoutNanos / 1_000_000;
            List<Long> stale = new ArrayList<>();
            shared.forEach((key, request) -> {
                if (request.sentMillis() < oldest) {
                    stale.add(key);
                }
            });
            stale.forEach(shared::remove);
        }
    }

    /** Relayed requests this node waits for, for tests. */
    int size() {
        return byId.size();
    }

    public void close() {
        shared.close();
    }

    private void remember(RealTransaction transaction, Relayed relayed, long now) {
        long key = key(relayed.space(), relayed.id());
        byId.put(key, relayed);
        byReal.put(transaction, relayed);
        shared.put(key, new Shared(relayed.realSender(), relayed.space(), relayed.realId(),
                contexts.encode(relayed.context()), millis(now)));
    }

    private void forget(Relayed relayed) {
        long key = key(relayed.space(), relayed.id());
        byId.remove(key, relayed);
        byReal.remove(new RealTransaction(relayed.realSender(), relayed.space(), relayed.realId()), relayed);
        shared.remove(key);
    }

    /**
     * The director id for a new relayed request: {@code requested} (when not -1) if no relayed request
     * of any node has it, else one not pending here, this node's slot in its top bits. When the whole space
     * is pending the next id is reused (its request is the oldest).
     */
    private long id(int space, long requested) {
        if (requested >= 0) {
            long key = key(space, requested);
            if (!byId.containsKey(key) && shared.get(key) == null) {
                return requested;
            }
        }
        int width = plugin.directorIdBits(space);
        NodeSlot node = slot;
        long room = node.localSpace(width);
        for (long i = 0; i < room; i++) {
            long id = node.compose(next.getAndIncrement(), width);
            if (!byId.containsKey(key(space, id))) {
                return id;
            }
        }
        return node.compose(next.getAndIncrement(), width);
    }

    private long millis(long nowNanos) {
        return (nowNanos + epochOffsetNanos) / 1_000_000L;
    }

    /** Space in the top byte, the id (at most 48 bits) below. */
    private static long key(int space, long id) {
        return ((long) space << 48) | (id & 0xFFFF_FFFF_FFFFL);
    }

    /** Keys as 8 bytes, big-endian. */
    private static final Codec<Long> KEY = Codec.int64("relayed request's key");

    /**
     * {@link Shared} as bytes (a wire constant between nodes): format (1) = 1 | space (1) | real's id
     * (8) | sent, epoch ms (8) | real's address length (1) | address | port (2) | context length (2) |
     * the plug-in's context.
     */
    static final class SharedCodec implements Codec<Shared> {

        private static final int FORMAT = 1;

        @Override
        public byte[] encode(Shared r) {
            byte[] address = r.realSender().getAddress().getAddress();
            return ByteBuffer.allocate(23 + address.length + r.context().length).put((byte) FORMAT)
                    .put((byte) r.space()).putLong(r.realId()).putLong(r.sentMillis()).put((byte) address.length)
                    .put(address).putShort((short) r.realSender().getPort()).putShort((short) r.context().length)
                    .put(r.context()).array();
        }

        @Override
        public Shared decode(byte[] bytes) {
            try {
                ByteBuffer in = ByteBuffer.wrap(bytes);
                if (in.get() != FORMAT) {
                    throw new IllegalArgumentException("relayed request format " + bytes[0] + ", this node reads " + FORMAT);
                }
                int space = in.get() & 0xFF;
                long realId = in.getLong();
                long sent = in.getLong();
                byte[] address = new byte[in.get() & 0xFF];
                in.get(address);
                InetSocketAddress sender = new InetSocketAddress(InetAddress.getByAddress(address), in.getShort() & 0xFFFF);
                byte[] context = new byte[in.getShort() & 0xFFFF];
                in.get(context);
                return new Shared(sender, space, realId, context, sent);
            } catch (BufferUnderflowException | UnknownHostException e) {
                throw new IllegalArgumentException("truncated or bad relayed request: " + e, e);
            }
        }
    }
}
