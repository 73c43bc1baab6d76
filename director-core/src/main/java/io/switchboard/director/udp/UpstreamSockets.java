package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.Future;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.real.RealServer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A lane's director sockets toward the reals and the transaction ids they carry. Each socket has an
 * id space of its own toward every real: a pending id holds the socket's index above the wire id
 * ({@code index << idBits | wire id}), so an answer is matched by the socket it came in on and its
 * wire id. For narrow ids (RADIUS's 8 bits) more sockets open on demand, when every id toward a real
 * is outstanding on the sockets in use; a socket beyond the first is retired again once a whole
 * response timeout went by in which the others would have sufficed with room to spare, and closed
 * when nothing is pending on it any more. Writes are flushed once per read burst.
 *
 * <p>Counts what is pending per (real, socket) to know when to widen and shrink; the upstream tells
 * it ({@link #taken}, {@link #settled}). Used on the lane's event loop only.
 */
final class UpstreamSockets {

    /** How many ids to try before a real counts as having no free id. */
    private static final int MAX_ID_PROBES = 1024;

    /** What the sockets hand over: an answer, with the socket's bits to complete its pending id. */
    interface Receiver {
        void answer(DatagramPacket packet, long socketBits);
    }

    /** Whether an id toward a real (by slot) is pending. */
    interface PendingIds {
        boolean contains(int slot, long id);
    }

    private final LaneContext lane;
    private final Receiver receiver;
    private final PendingIds pending;
    private final long idMask;
    private final int idBits;
    private final long windowNanos;
    /**
     * At most {@link TransactionPlugin#upstreamSockets()}; {@code [0, open)} are open (or binding),
     * ids are allocated on {@code [0, active)}; those between are retired and close when nothing is
     * pending on them.
     */
    private final Channel[] sockets;
    private int open;
    private int active;
    /** Datagrams written to a socket that is still binding (null once it is bound). */
    private final List<List<DatagramPacket>> binding = new ArrayList<>();
    /** Which sockets have writes waiting for the end of the read burst. */
    private final boolean[] queued;
    private boolean anyQueued;
    private final long[] nextId;
    /** Pending requests per (real slot, socket): {@code [slot * sockets.length + socket]}. */
    private final int[] pendingPerSocket;
    /** Pending requests per real slot on the active sockets. */
    private final int[] pendingActive;
    /** Pending requests per socket, over every real. */
    private final int[] pendingOnSocket;
    /** The most requests pending on the active sockets toward one real since {@link #windowStart}. */
    private int windowPeak;
    private long windowStart;

    /**
     * @param wanted      how many sockets the plug-in may use; one when the pending ids (socket index
     *                    above the wire id) would not fit the pending table's 40 bits
     * @param slots       how many real slots the farms have
     * @param windowNanos how long a socket must have been unneeded before it is retired (the response timeout)
     */
    UpstreamSockets(LaneContext lane, Receiver receiver, PendingIds pending, long idMask, int wanted, int slots,
            long windowNanos) {
        this.lane = lane;
        this.receiver = receiver;
        this.pending = pending;
        this.idMask = idMask;
        this.idBits = Long.bitCount(idMask);
        this.windowNanos = windowNanos;
        this.sockets = new Channel[idBits + 32 - Integer.numberOfLeadingZeros(wanted - 1) <= 40 ? wanted : 1];
        this.queued = new boolean[sockets.length];
        this.pendingOnSocket = new int[sockets.length];
        this.nextId = new long[slots];
        this.pendingPerSocket = new int[slots * sockets.length];
        this.pendingActive = new int[slots];
    }

    /** Opens the first socket; the others open when ids run out. */
    Future<?> start() {
        open = 1;
        active = 1;
        binding.add(null);
        ChannelFuture bound = bind(0);
        sockets[0] = bound.channel();
        bound.addListener(f -> {
            if (f.isSuccess()) {
                lane.metrics.upstreamSockets(1, false);
            }
        });
        return bound;
    }

    /**
     * Opens socket {@code open} on the lane's loop. Until it is bound, what is sent on it waits in
     * {@link #binding}; a socket that cannot be bound drops what waited and takes nothing more.
     */
    private void openSocket() {
        int index = open++;
        List<DatagramPacket> waiting = new ArrayList<>();
        if (binding.size() <= index) {
            binding.add(waiting);
        } else {
            binding.set(index, waiting);
        }
        ChannelFuture bound = bind(index);
        sockets[index] = bound.channel();
        bound.addListener(f -> {
            binding.set(index, null);
            if (!f.isSuccess()) {
                lane.log.warn("virtual server {}: director socket {} toward the reals cannot be bound: {}",
                        lane.virtualServer.name(), index, f.cause().toString());
                for (DatagramPacket packet : waiting) {
                    packet.release();
                    lane.metrics.dropped(EngineDrops.SEND_FAILED);
                }
                return;
            }
            lane.metrics.upstreamSockets(1, true);
            Channel socket = sockets[index];
            for (DatagramPacket packet : waiting) {
                lane.tapOut(socket, packet.recipient(), packet.content());
                socket.write(packet, socket.voidPromise());
            }
            socket.flush();
        });
    }

    private ChannelFuture bind(int index) {
        long socketBits = (long) index << idBits;
        return lane.bootstrap.get()
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        lane.tapIn(packet.sender(), ctx.channel(), packet.content());
                        receiver.answer(packet, socketBits);
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
    }

    /** Whether the lane may open more than one socket (the sockets then shrink with {@link #housekeep}). */
    boolean several() {
        return sockets.length > 1;
    }

    /**
     * A free pending id toward {@code real}, the socket index above the wire id; -1 when every id of
     * every socket the lane may open is pending there.
     */
    long freeId(RealServer real) {
        int slot = real.slot();
        if (sockets.length == 1) {
            for (int probe = 0; probe < MAX_ID_PROBES; probe++) {
                long id = nextId[slot]++ & idMask;
                if (!pending.contains(slot, id)) {
                    return id;
                }
            }
            return -1;
        }
        long perSocket = idMask + 1;
        while (pendingActive[slot] >= perSocket * active) {
            if (!widen()) {
                return -1;
            }
        }
        // A free id exists on the active sockets: cycle through all of them, so that an id is used
        // again as late as possible (a late answer then finds nothing rather than another request).
        long space = perSocket * active;
        for (long probe = 0; probe < space; probe++) {
            long id = Math.floorMod(nextId[slot]++, space);
            if (!pending.contains(slot, id)) {
                return id;
            }
        }
        return -1;
    }

    /** Counts a request just made pending under {@code id} toward the real of {@code slot}. */
    void taken(int slot, long id) {
        int socket = (int) (id >>> idBits);
        pendingPerSocket[slot * sockets.length + socket]++;
        pendingOnSocket[socket]++;
        if (socket < active && ++pendingActive[slot] > windowPeak) {
            windowPeak = pendingActive[slot];
        }
    }

    /** Counts a pending request gone (answered, expired). */
    void settled(int slot, long id) {
        int socket = (int) (id >>> idBits);
        pendingPerSocket[slot * sockets.length + socket]--;
        pendingOnSocket[socket]--;
        if (socket < active) {
            pendingActive[slot]--;
        }
    }

    /** One more socket to allocate on: a retired one back, else a new one. False at the bound. */
    private boolean widen() {
        if (active == open) {
            if (open == sockets.length) {
                return false;
            }
            openSocket();
        }
        int socket = active++;
        for (int slot = 0; slot < pendingActive.length; slot++) {
            pendingActive[slot] += pendingPerSocket[slot * sockets.length + socket];
        }
        return true;
    }

    /**
     * Once per response timeout: retires the last active sockets while the others would have held the
     * window's peak twice over, and closes retired sockets with nothing pending.
     */
    void housekeep(long now) {
        if (now - windowStart < windowNanos) {
            return;
        }
        while (active > 1 && windowPeak * 2L <= (idMask + 1) * (active - 1)) {
            int socket = --active;
            for (int slot = 0; slot < pendingActive.length; slot++) {
                pendingActive[slot] -= pendingPerSocket[slot * sockets.length + socket];
            }
        }
        while (open > active && pendingOnSocket[open - 1] == 0 && binding.get(open - 1) == null) {
            int socket = --open;
            if (sockets[socket].isActive()) {
                lane.metrics.upstreamSockets(-1, true);
            }
            sockets[socket].close();
            sockets[socket] = null;
            queued[socket] = false;
        }
        windowStart = now;
        windowPeak = 0;
        for (int count : pendingActive) {
            windowPeak = Math.max(windowPeak, count);
        }
    }

    /** Sends on the socket that {@code pendingId} belongs to; takes {@code datagram}. */
    void send(ByteBuf datagram, InetSocketAddress to, long pendingId) {
        int index = (int) (pendingId >>> idBits);
        Channel socket = sockets[index];
        List<DatagramPacket> waiting = binding.get(index);
        if (waiting != null) {
            waiting.add(new DatagramPacket(datagram, to));
            return;
        }
        if (!socket.isOpen()) {
            datagram.release();
            lane.metrics.dropped(EngineDrops.SEND_FAILED);
            return;
        }
        lane.tapOut(socket, to, datagram);
        socket.write(new DatagramPacket(datagram, to), socket.voidPromise());
        if (!queued[index]) {
            queued[index] = true;
            anyQueued = true;
        }
    }

    void flush() {
        if (!anyQueued) {
            return;
        }
        anyQueued = false;
        for (int i = 0; i < open; i++) {
            if (queued[i]) {
                queued[i] = false;
                sockets[i].flush();
            }
        }
    }

    /** Closes every socket and releases what waited for one to bind. */
    void close() {
        for (int i = 0; i < sockets.length; i++) {
            if (sockets[i] != null) {
                if (sockets[i].isActive()) {
                    lane.metrics.upstreamSockets(-1, false);
                }
                sockets[i].close();
                sockets[i] = null;
            }
            if (i < binding.size() && binding.get(i) != null) {
                binding.get(i).forEach(DatagramPacket::release);
                binding.set(i, null);
            }
        }
    }
}
