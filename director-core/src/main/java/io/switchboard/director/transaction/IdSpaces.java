package io.switchboard.director.transaction;

/**
 * The transaction ids a lane allocates toward the reals, over the director sockets it may open. Each
 * socket has an id space of its own toward every real: a pending id holds the socket's index above
 * the wire id ({@code index << idBits | wire id}), so an answer is matched by the socket it came in
 * on and its wire id. For narrow ids (RADIUS's 8 bits) more sockets open on demand, when every id
 * toward a real is outstanding on the sockets in use; a socket beyond the first is retired again
 * once a whole response timeout went by in which the others would have sufficed with room to spare,
 * and closed when nothing is pending on it any more.
 *
 * <p>No sockets here: the {@link RealSide} opens and closes them (Netty channels for a live lane, nothing
 * for what-if), so that both allocate the same ids by the same rule. Counts what is pending per
 * (real, socket) to know when to widen and shrink; the engine tells it ({@link #taken},
 * {@link #settled}). Confined to one thread.
 */
final class IdSpaces {

    /** How many ids to try before a real counts as having no free id. */
    private static final int MAX_ID_PROBES = 1024;

    /** Whether an id toward a real (by slot) is pending. */
    interface PendingIds {
        boolean contains(int slot, long id);
    }

    private final RealSide sockets;
    private final PendingIds pending;
    private final long idMask;
    private final int idBits;
    private final long windowNanos;
    /** How many sockets the lane may open. */
    private final int bound;
    /** {@code [0, open)} are open; ids are allocated on {@code [0, active)}; those between are retired. */
    private int open;
    private int active;
    private long[] nextId;
    /** Pending requests per (real slot, socket): {@code [slot * bound + socket]}. The per-slot arrays grow with {@link #cover}. */
    private int[] pendingPerSocket;
    /** Pending requests per real slot on the active sockets. */
    private int[] pendingActive;
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
    IdSpaces(RealSide sockets, PendingIds pending, long idMask, int wanted, int slots, long windowNanos) {
        this.sockets = sockets;
        this.pending = pending;
        this.idMask = idMask;
        this.idBits = Long.bitCount(idMask);
        this.windowNanos = windowNanos;
        this.bound = idBits + 32 - Integer.numberOfLeadingZeros(wanted - 1) <= 40 ? wanted : 1;
        this.pendingOnSocket = new int[bound];
        this.nextId = new long[slots];
        this.pendingPerSocket = new int[slots * bound];
        this.pendingActive = new int[slots];
    }

    /** Opens the first socket; the others open when ids run out. */
    void start() {
        open = 1;
        active = 1;
        sockets.open(0);
    }

    /** The socket a pending id belongs to. */
    int socketOf(long pendingId) {
        return (int) (pendingId >>> idBits);
    }

    /** The pending id of wire id {@code id} on socket {@code socket}. */
    long pendingId(int socket, long id) {
        return ((long) socket << idBits) | (id & idMask);
    }

    /** Whether the lane may open more than one socket (the sockets then shrink with {@link #housekeep}). */
    boolean several() {
        return bound > 1;
    }

    /**
     * A free pending id toward the real of {@code slot}, the socket index above the wire id; -1 when
     * every id of every socket the lane may open is pending there.
     */
    long freeId(int slot) {
        cover(slot);
        if (bound == 1) {
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
        cover(slot);
        int socket = socketOf(id);
        pendingPerSocket[slot * bound + socket]++;
        pendingOnSocket[socket]++;
        if (socket < active && ++pendingActive[slot] > windowPeak) {
            windowPeak = pendingActive[slot];
        }
    }

    /** Counts a pending request gone (answered, expired). */
    void settled(int slot, long id) {
        int socket = socketOf(id);
        pendingPerSocket[slot * bound + socket]--;
        pendingOnSocket[socket]--;
        if (socket < active) {
            pendingActive[slot]--;
        }
    }

    /**
     * Makes room for a real added by a reload after the lane started (slots only grow: {@code Farms});
     * a compare per request, an allocation only when a reload added reals.
     */
    private void cover(int slot) {
        if (slot < nextId.length) {
            return;
        }
        int slots = Math.max(slot + 1, nextId.length * 2);
        nextId = java.util.Arrays.copyOf(nextId, slots);
        pendingPerSocket = java.util.Arrays.copyOf(pendingPerSocket, slots * bound);
        pendingActive = java.util.Arrays.copyOf(pendingActive, slots);
    }

    /** One more socket to allocate on: a retired one back, else a new one. False at the bound. */
    private boolean widen() {
        if (active == open) {
            if (open == bound) {
                return false;
            }
            sockets.open(open++);
        }
        int socket = active++;
        for (int slot = 0; slot < pendingActive.length; slot++) {
            pendingActive[slot] += pendingPerSocket[slot * bound + socket];
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
                pendingActive[slot] -= pendingPerSocket[slot * bound + socket];
            }
        }
        while (open > active && pendingOnSocket[open - 1] == 0 && sockets.closable(open - 1)) {
            sockets.close(--open);
        }
        windowStart = now;
        windowPeak = 0;
        for (int count : pendingActive) {
            windowPeak = Math.max(windowPeak, count);
        }
    }
}
