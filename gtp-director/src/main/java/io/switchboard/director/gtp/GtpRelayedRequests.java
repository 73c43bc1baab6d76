package io.switchboard.director.gtp;

import io.switchboard.director.NodeSlot;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * The reals' own requests that {@code gtp-inspect} relayed to requesters and that wait for their
 * answers. Each went out under a sequence number of the director's own space toward requesters
 * (each side's space stays its own) and is found again by it when the answer comes, or by the real's
 * numbering when the real retransmits. Shared by the event loops of a virtual server.
 *
 * <p>In a cluster every node relays from the same director address (its port 2123), so a requester
 * sees the nodes as one peer: their sequence numbers carry the node's slot in their top bits
 * ({@link NodeSlot#compose}) and two nodes never relay two requests under one number, which the
 * requester would take for a retransmission. That leaves 2^(16 - slot bits) pending relayed requests
 * per node for v0/v1 (1024 with 64 slots), 2^(23 - slot bits) for v2.
 *
 * <p>The requester's answer may reach another node than the one that relayed the request (the
 * nodes share the director address), so each relayed request is also written to a shared table
 * ({@link Shared}, by version and director sequence): a node that does not know an answer's
 * sequence takes the request from there. Real-initiated requests are rare (network-initiated
 * Update / Delete), so one write and one removal per request is cheap. An answer that arrives
 * before the write reached its node is dropped; the real's retransmission, relayed again by the
 * first node under the same sequence, gets the requester's answer again.
 */
final class GtpRelayedRequests {

    /**
     * A relayed request.
     *
     * @param realSender   where the real sent it from (its answer goes back there)
     * @param realSequence the real's own sequence number, restored in the answer
     * @param sequence     the director's sequence number toward the requester
     * @param delete       whether an accepted answer ends the session
     */
    record Relayed(InetSocketAddress realSender, int version, int realSequence, int sequence, GtpSession session,
            boolean delete, long sentNanos) {
    }

    /**
     * What another node needs to complete a relayed request: the value of the shared table.
     *
     * @param session    the session's key (director TEID, v0 TID)
     * @param sentMillis the cluster clock when it was relayed, for the sweep of a dead node's requests
     */
    record Shared(InetSocketAddress realSender, int version, int realSequence, long session, boolean delete,
            long sentMillis) {
    }

    /** A real's request as the real numbered it: its retransmission is the same triple. */
    private record RealTransaction(InetSocketAddress realSender, int version, int sequence) {
    }

    private final Map<Long, Relayed> bySequence = new ConcurrentHashMap<>();
    private final Map<RealTransaction, Relayed> byReal = new ConcurrentHashMap<>();
    private final AtomicInteger nextSequence = new AtomicInteger();
    private volatile NodeSlot slot = NodeSlot.SINGLE;
    private volatile SharedTable<Long, Shared> shared = SharedTables.IN_MEMORY.open("relayed", null, null);

    /** This node's slot (the top bits of every sequence number from now on) and the shared table. */
    void share(NodeSlot slot, SharedTables tables, String name) {
        this.slot = slot;
        this.shared = tables.open(name, GtpSessionCodec.TID, new SharedCodec());
    }

    /** The request pending under the real's own numbering (a retransmission), or null. */
    Relayed pending(InetSocketAddress realSender, int version, int realSequence) {
        return byReal.get(new RealTransaction(realSender, version, realSequence));
    }

    /** Remembers a new relayed request under a director sequence number not pending. */
    Relayed add(InetSocketAddress realSender, int version, int realSequence, GtpSession session, boolean delete,
            long nowNanos, long nowMillis) {
        return remember(new Relayed(realSender, version, realSequence, freeSequence(version), session, delete,
                nowNanos), nowMillis);
    }

    /**
     * Remembers a request triggered by a requester's Command under that Command's own sequence number
     * (TS 29.274 §7.6: the requester matches it to its Command by it, and answers under it too); null,
     * with nothing remembered, when a relayed request is pending under that number already (this node's
     * or another's: e.g. another requester's Command of the same number).
     */
    Relayed addTriggered(InetSocketAddress realSender, int version, int realSequence, int commandSequence,
            GtpSession session, boolean delete, long nowNanos, long nowMillis) {
        long key = key(version, commandSequence);
        if (bySequence.containsKey(key) || shared.get(key) != null) {
            return null;
        }
        return remember(new Relayed(realSender, version, realSequence, commandSequence, session, delete, nowNanos),
                nowMillis);
    }

    private Relayed remember(Relayed relayed, long nowMillis) {
        InetSocketAddress realSender = relayed.realSender();
        int version = relayed.version();
        int realSequence = relayed.realSequence();
        GtpSession session = relayed.session();
        boolean delete = relayed.delete();
        long key = key(version, relayed.sequence());
        bySequence.put(key, relayed);
        byReal.put(new RealTransaction(realSender, version, realSequence), relayed);
        shared.put(key, new Shared(realSender, version, realSequence, session.directorTeid(), delete, nowMillis));
        return relayed;
    }

    /**
     * The request an answer with this director sequence completes, no longer pending; or null. A
     * request another node relayed comes with its session as {@code sessions} finds it by version
     * and key (null if it ended meanwhile).
     */
    Relayed answered(int version, int sequence, BiFunction<Integer, Long, GtpSession> sessions) {
        long key = key(version, sequence);
        Relayed relayed = bySequence.remove(key);
        if (relayed != null) {
            forget(relayed);
            shared.remove(key);
            return relayed;
        }
        Shared other = shared.get(key);
        if (other == null || other.version() != version || !shared.remove(key)) {
            return null;
        }
        GtpSession session = sessions.apply(version, other.session());
        return session == null ? null : new Relayed(other.realSender(), version, other.realSequence(), sequence,
                session, other.delete(), 0);
    }

    /**
     * Forgets requests sent longer than {@code timeoutNanos} ago; returns how many went unanswered
     * (not those another node saw answered). Requests of other nodes older than twice the timeout
     * (their node died before it could forget them) leave the shared table.
     */
    int expire(long nowNanos, long timeoutNanos, long nowMillis) {
        int expired = 0;
        for (Relayed relayed : bySequence.values()) {
            long key = key(relayed.version(), relayed.sequence());
            if (nowNanos - relayed.sentNanos() > timeoutNanos && bySequence.remove(key, relayed)) {
                forget(relayed);
                if (shared.remove(key)) {
                    expired++;
                }
            }
        }
        long oldest = nowMillis - 2 * timeoutNanos / 1_000_000;
        List<Long> stale = new ArrayList<>();
        shared.forEach((key, request) -> {
            if (request.sentMillis() < oldest) {
                stale.add(key);
            }
        });
        stale.forEach(shared::remove);
        return expired;
    }

    private void forget(Relayed relayed) {
        byReal.remove(new RealTransaction(relayed.realSender(), relayed.version(), relayed.realSequence()), relayed);
    }

    private static long key(int version, int sequence) {
        return ((long) version << 32) | (sequence & 0xFFFF_FFFFL);
    }

    /**
     * A sequence number not pending, this node's slot in its top bits: 16 bits (v0, v1), 23 bits for
     * v2 (TS 29.274 §7.6 reserves the top bit for Command-triggered messages).
     */
    private int freeSequence(int version) {
        int width = version == 2 ? 23 : 16;
        NodeSlot node = slot;
        long space = node.localSpace(width);
        for (long i = 0; i < space; i++) {
            int sequence = (int) node.compose(nextSequence.getAndIncrement(), width);
            if (!bySequence.containsKey(key(version, sequence))) {
                return sequence;
            }
        }
        return (int) node.compose(nextSequence.getAndIncrement(), width); // the whole space pending: reuse the oldest
    }

    /**
     * {@link Shared} as bytes (a wire constant between nodes): format (1) = 1 | version (1) | real's
     * sequence (4) | session key (8) | delete (1) | sent, epoch ms (8) | real's address length (1)
     * | address | port (2).
     */
    static final class SharedCodec implements Codec<Shared> {

        private static final int FORMAT = 1;

        @Override
        public byte[] encode(Shared r) {
            byte[] address = r.realSender().getAddress().getAddress();
            return ByteBuffer.allocate(26 + address.length).put((byte) FORMAT).put((byte) r.version())
                    .putInt(r.realSequence()).putLong(r.session()).put((byte) (r.delete() ? 1 : 0))
                    .putLong(r.sentMillis()).put((byte) address.length).put(address)
                    .putShort((short) r.realSender().getPort()).array();
        }

        @Override
        public Shared decode(byte[] bytes) {
            try {
                ByteBuffer in = ByteBuffer.wrap(bytes);
                if (in.get() != FORMAT) {
                    throw new IllegalArgumentException("relayed request format " + bytes[0] + ", this node reads " + FORMAT);
                }
                int version = in.get();
                int realSequence = in.getInt();
                long session = in.getLong();
                boolean delete = in.get() != 0;
                long sent = in.getLong();
                byte[] address = new byte[in.get() & 0xFF];
                in.get(address);
                InetSocketAddress sender = new InetSocketAddress(InetAddress.getByAddress(address), in.getShort() & 0xFFFF);
                return new Shared(sender, version, realSequence, session, delete, sent);
            } catch (BufferUnderflowException | UnknownHostException e) {
                throw new IllegalArgumentException("truncated or bad relayed request: " + e, e);
            }
        }
    }
}
