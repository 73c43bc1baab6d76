package io.switchboard.pcap;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntToLongFunction;
import org.HdrHistogram.Histogram;

/**
 * One socket of a replay and the thread that drives it: it sends requests {@code index},
 * {@code index + lanes}, ... when they are due (open loop) or when fewer than its window are in flight
 * (closed loop), and matches the answers that come back to that socket. Everything a lane touches is
 * its own — socket, buffers, pending requests, histogram — so lanes share nothing while they run and
 * nothing is locked; per request it allocates nothing but what the request's own bytes need.
 *
 * <p>Pending requests are kept in arrays indexed by the lane's request number, chained per
 * transaction-id slot, oldest first: an answer takes the oldest pending (or expired) request with
 * its id (first sent, first matched for equal ids); an answer without readable id, or with an id
 * never sent, takes the oldest request without readable id (arrival order, for protocols the codecs
 * do not know).
 *
 * <p>With retransmissions (a client of several directors), a request unanswered after the timeout is
 * sent again, the same bytes, to the next target, as a GGSN or NAS retries another director address:
 * the try becomes a new entry (so that entries stay in the order of their deadlines, which expiry
 * walks), taking over the request's number, transaction and first send time; the old entry is
 * unlinked, and any answer with the id, to either try, answers the request.
 */
final class ReplayLane implements Runnable {

    /** Writes request {@code i} with transaction number {@code transaction} into {@code into}; returns its length. */
    @FunctionalInterface
    interface Source {
        int write(int i, int transaction, byte[] into);
    }

    private static final byte PENDING = 0;
    private static final byte ANSWERED = 1;
    private static final byte LATE = 2;
    private static final byte EXPIRED = 3;
    /** Tried again as a newer entry, which carries the request on. */
    private static final byte RETRIED = 4;
    private static final int BURST = 64;
    private static final int SLOTS = 1 << 16;

    private final int index;
    private final int lanes;
    private final int count;
    private final Source source;
    private final IntToLongFunction schedule;
    private long startNanos;
    private long deadlineNanos;
    private final long timeoutNanos;
    private final int window;
    private final DatagramChannel channel;
    private final List<InetSocketAddress> targets;
    private final int retransmits;
    private final InetSocketAddress local;
    private final Replay.Recorder recorder;
    private final MessageDirection.TransactionIdReader ids;

    private final byte[] out = new byte[Template.MAX_LENGTH];
    private final ByteBuf outView = Unpooled.wrappedBuffer(out);
    private final ByteBuffer outBuffer = ByteBuffer.allocateDirect(Template.MAX_LENGTH);
    private final ByteBuffer inBuffer = ByteBuffer.allocateDirect(Template.MAX_LENGTH);
    private final ByteBuf inView = Unpooled.wrappedBuffer(inBuffer);

    // The lane's entries by number j, one per datagram sent: the request (its index in the run), its
    // transaction number, its try (0 first) and when its first try was due, this try's send time.
    private int[] request = new int[1024];
    private int[] transaction = new int[1024];
    private byte[] tries = new byte[1024];
    private long[] firstAt = new long[1024];
    private long[] sentAt = new long[1024];
    private long[] txid = new long[1024];
    private int[] nextInSlot = new int[1024];
    private byte[] state = new byte[1024];
    private final int[] head = new int[SLOTS + 1];
    private final int[] tail = new int[SLOTS + 1];
    private int entries;
    private int sent;
    private int oldestOpen;
    private int inFlight;
    private volatile boolean stopped;

    final Histogram latencies = new Histogram(TimeUnit.HOURS.toNanos(1), 3);
    int answered;
    int late;
    int retransmitted;
    int answeredAfterRetransmit;
    long lastSentNanos;
    long lastAnsweredNanos;
    IOException failure;
    IOException recordFailure;

    /**
     * @param schedule     offset from the start ({@link #begin}) at which request i is due (open loop), or
     *                     null to send as soon as the window allows (closed loop)
     * @param count        requests in the whole run (over all lanes)
     * @param window       most requests in flight on this lane; 0 for no bound
     * @param targets      where request i goes first ({@code i mod targets}) and, tried again, next
     * @param retransmits  how many times a request unanswered after the timeout is sent again
     * @param channel      connected to the target when there is one, else unconnected
     */
    ReplayLane(int index, int lanes, int count, Source source, IntToLongFunction schedule, long timeoutNanos,
               int window, DatagramChannel channel, List<InetSocketAddress> targets, int retransmits,
               Replay.Recorder recorder, SignalingProtocol protocol) throws IOException {
        this.index = index;
        this.lanes = lanes;
        this.count = count;
        this.source = source;
        this.schedule = schedule;
        this.timeoutNanos = timeoutNanos;
        this.window = window;
        this.channel = channel;
        this.targets = List.copyOf(targets);
        this.retransmits = retransmits;
        this.local = (InetSocketAddress) channel.getLocalAddress();
        this.recorder = recorder;
        this.ids = new MessageDirection.TransactionIdReader(protocol);
        Arrays.fill(head, -1);
        Arrays.fill(tail, -1);
    }

    /** When request 0 is due and when sending ends (0: when the count is sent); set before {@link #run}. */
    void begin(long startNanos, long deadlineNanos) {
        this.startNanos = startNanos;
        this.deadlineNanos = deadlineNanos;
    }

    /** Sends no more requests (see {@link Replay#stop}). */
    void stop() {
        stopped = true;
    }

    int sent() {
        return sent;
    }

    @Override
    public void run() {
        try (Selector selector = Selector.open()) {
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            loop(selector);
        } catch (IOException e) {
            failure = e;
        }
    }

    private void loop(Selector selector) throws IOException {
        int next = index; // the next request of this lane
        boolean sending = next < count;
        while (true) {
            long now = System.nanoTime();
            long wait = Long.MAX_VALUE; // until the next request is due
            for (int burst = 0; sending && burst < BURST; burst++) {
                long due = schedule == null ? now : startNanos + schedule.applyAsLong(next);
                if (stopped || deadlineNanos != 0 && pastDeadline(due, now)) {
                    sending = false;
                    break;
                }
                if (window > 0 && inFlight >= window) {
                    break;
                }
                if (due - now > 0) {
                    wait = due - now;
                    break;
                }
                send(next, schedule == null ? now : due);
                next += lanes;
                if (next >= count || next < 0) {
                    sending = false;
                }
                if (burst % 8 == 7) {
                    now = System.nanoTime();
                }
            }
            int received = receive();
            now = System.nanoTime();
            expire(now);
            if (!sending && (inFlight == 0 || now - lastSentNanos - timeoutNanos > 0)) {
                return;
            }
            if (received > 0 || (sending && wait == Long.MAX_VALUE && (window == 0 || inFlight < window))) {
                continue; // more to do right away
            }
            idle(selector, sending ? wait : Long.MAX_VALUE, now);
        }
    }

    /**
     * Whether the run's duration is over for a request due at {@code due}. In open loop the run is
     * the requests due within the duration: one this thread is late for (starved by a loaded machine)
     * is still sent, its latency counted from when it was due, so a late sender does not shorten the
     * run. Paced by a window or as fast as it goes, the run ends on the clock.
     */
    private boolean pastDeadline(long due, long now) {
        return schedule != null && window == 0 ? due - deadlineNanos >= 0 : now - deadlineNanos >= 0;
    }

    /**
     * Nothing to send for {@code wait} ns: sleep in the selector, woken by an answer; below a
     * millisecond (the selector's resolution), park for the rest.
     */
    private void idle(Selector selector, long wait, long now) throws IOException {
        long cap = inFlight > 0 ? Math.max(1, oldestDeadline() - now) : TimeUnit.MILLISECONDS.toNanos(10);
        long nanos = Math.min(Math.min(wait, cap), TimeUnit.MILLISECONDS.toNanos(10));
        if (nanos >= 2_000_000) {
            selector.select(nanos / 1_000_000 - 1);
            selector.selectedKeys().clear();
        } else if (selector.selectNow() > 0) {
            selector.selectedKeys().clear();
        } else if (nanos > 0) {
            LockSupport.parkNanos(nanos);
        }
    }

    private long oldestDeadline() {
        return oldestOpen < entries ? sentAt[oldestOpen] + timeoutNanos : Long.MAX_VALUE;
    }

    private void send(int i, long due) throws IOException {
        sent++;
        inFlight++;
        transmit(i, entries, 0, due, due);
    }

    /** Entry {@code j}'s request sent again as a new entry, to the next target. */
    private void retransmit(int j, long now) throws IOException {
        unlink(slot(txid[j]), j);
        state[j] = RETRIED;
        retransmitted++;
        transmit(request[j], transaction[j], tries[j] + 1, firstAt[j], now);
    }

    /** Writes request {@code i} as a new entry (try {@code attempt}) and sends it to its target. */
    private void transmit(int i, int tx, int attempt, long first, long at) throws IOException {
        int j = entries++;
        int length = source.write(i, tx, out);
        ensureCapacity(j + 1);
        outView.setIndex(0, length);
        long id = ids.read(outView);
        request[j] = i;
        transaction[j] = tx;
        tries[j] = (byte) attempt;
        firstAt[j] = first;
        sentAt[j] = at;
        txid[j] = id;
        state[j] = PENDING;
        nextInSlot[j] = -1;
        int slot = slot(id);
        if (tail[slot] < 0) {
            head[slot] = j;
        } else {
            nextInSlot[tail[slot]] = j;
        }
        tail[slot] = j;
        outBuffer.clear();
        outBuffer.put(out, 0, length).flip();
        InetSocketAddress to = targets.get(Math.floorMod(i + attempt, targets.size()));
        try {
            if (channel.isConnected()) {
                channel.write(outBuffer);
            } else {
                channel.send(outBuffer, to);
            }
        } catch (PortUnreachableException e) {
            // the peer is not listening (yet): the request is lost
        }
        lastSentNanos = System.nanoTime();
        if (recorder != null) {
            record(true, to, Arrays.copyOf(out, length));
        }
    }

    private static int slot(long id) {
        return id < 0 ? SLOTS : (int) (id & (SLOTS - 1));
    }

    /** Reads every answer waiting on the socket; returns how many. */
    private int receive() throws IOException {
        int n = 0;
        while (true) {
            inBuffer.clear();
            InetSocketAddress from;
            try {
                from = (InetSocketAddress) channel.receive(inBuffer);
            } catch (PortUnreachableException e) {
                continue; // an ICMP error for an earlier request
            }
            int length = inBuffer.position();
            if (from == null || length == 0) {
                return n;
            }
            n++;
            long now = System.nanoTime();
            inView.setIndex(0, length);
            answer(ids.read(inView), now);
            if (recorder != null) {
                byte[] copy = new byte[length];
                inView.getBytes(0, copy);
                record(false, from, copy);
            }
        }
    }

    private void answer(long id, long now) {
        int j = take(slot(id), id);
        if (j < 0 && id >= 0) {
            j = take(SLOTS, -1); // an id never sent: arrival order, when such requests exist
        }
        if (j < 0) {
            return;
        }
        // In time for this try, or before the client gave up on it (expiry has not tried it again yet).
        if (state[j] == PENDING && (now - sentAt[j] <= timeoutNanos || tries[j] < retransmits)) {
            state[j] = ANSWERED;
            answered++;
            if (tries[j] > 0) {
                answeredAfterRetransmit++;
            }
            inFlight--;
            latencies.recordValue(Math.max(0, now - firstAt[j])); // over every try
            lastAnsweredNanos = now;
        } else {
            if (state[j] == PENDING) {
                inFlight--;
            }
            state[j] = LATE;
            late++;
        }
    }

    /** Unlinks and returns the oldest open request of {@code slot} with {@code id} (any id for arrival order), or -1. */
    private int take(int slot, long id) {
        for (int j = head[slot]; j >= 0; j = nextInSlot[j]) {
            if (slot == SLOTS || txid[j] == id) {
                unlink(slot, j);
                return j;
            }
        }
        return -1;
    }

    /** Unlinks entry {@code j} from the chain of {@code slot}. */
    private void unlink(int slot, int j) {
        for (int k = head[slot], previous = -1; k >= 0; previous = k, k = nextInSlot[k]) {
            if (k != j) {
                continue;
            }
            if (previous < 0) {
                head[slot] = nextInSlot[j];
            } else {
                nextInSlot[previous] = nextInSlot[j];
            }
            if (tail[slot] == j) {
                tail[slot] = previous;
            }
            return;
        }
    }

    /**
     * Requests past their timeout are tried again while they have tries left; else they leave the
     * window (an answer may still come, late).
     */
    private void expire(long now) throws IOException {
        while (oldestOpen < entries
                && (state[oldestOpen] != PENDING || now - sentAt[oldestOpen] - timeoutNanos > 0)) {
            if (state[oldestOpen] == PENDING && tries[oldestOpen] < retransmits) {
                retransmit(oldestOpen, now);
            } else if (state[oldestOpen] == PENDING) {
                state[oldestOpen] = EXPIRED;
                inFlight--;
            }
            oldestOpen++;
        }
    }

    private void ensureCapacity(int n) {
        if (n <= sentAt.length) {
            return;
        }
        int size = Math.max(n, sentAt.length * 2);
        request = Arrays.copyOf(request, size);
        transaction = Arrays.copyOf(transaction, size);
        tries = Arrays.copyOf(tries, size);
        firstAt = Arrays.copyOf(firstAt, size);
        sentAt = Arrays.copyOf(sentAt, size);
        txid = Arrays.copyOf(txid, size);
        nextInSlot = Arrays.copyOf(nextInSlot, size);
        state = Arrays.copyOf(state, size);
    }

    private void record(boolean outgoing, InetSocketAddress peer, byte[] payload) {
        synchronized (recorder) {
            try {
                if (outgoing) {
                    recorder.sent(local, peer, payload);
                } else {
                    recorder.received(peer, local, payload);
                }
            } catch (IOException e) {
                if (recordFailure == null) {
                    recordFailure = e;
                }
            }
        }
    }
}
