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
    private final InetSocketAddress target;
    private final InetSocketAddress local;
    private final Replay.Recorder recorder;
    private final MessageDirection.TransactionIdReader ids;

    private final byte[] out = new byte[Template.MAX_LENGTH];
    private final ByteBuf outView = Unpooled.wrappedBuffer(out);
    private final ByteBuffer outBuffer = ByteBuffer.allocateDirect(Template.MAX_LENGTH);
    private final ByteBuffer inBuffer = ByteBuffer.allocateDirect(Template.MAX_LENGTH);
    private final ByteBuf inView = Unpooled.wrappedBuffer(inBuffer);

    // The lane's requests by number j (request index + j * lanes).
    private long[] sentAt = new long[1024];
    private long[] txid = new long[1024];
    private int[] nextInSlot = new int[1024];
    private byte[] state = new byte[1024];
    private final int[] head = new int[SLOTS + 1];
    private final int[] tail = new int[SLOTS + 1];
    private int sent;
    private int oldestOpen;
    private int inFlight;

    final Histogram latencies = new Histogram(TimeUnit.HOURS.toNanos(1), 3);
    int answered;
    int late;
    long lastSentNanos;
    long lastAnsweredNanos;
    IOException failure;
    IOException recordFailure;

    /**
     * @param schedule     offset from the start ({@link #begin}) at which request i is due (open loop), or
     *                     null to send as soon as the window allows (closed loop)
     * @param count        requests in the whole run (over all lanes)
     * @param window       most requests in flight on this lane; 0 for no bound
     */
    ReplayLane(int index, int lanes, int count, Source source, IntToLongFunction schedule, long timeoutNanos,
               int window, DatagramChannel channel, InetSocketAddress target, Replay.Recorder recorder,
               SignalingProtocol protocol) throws IOException {
        this.index = index;
        this.lanes = lanes;
        this.count = count;
        this.source = source;
        this.schedule = schedule;
        this.timeoutNanos = timeoutNanos;
        this.window = window;
        this.channel = channel;
        this.target = target;
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
                if (deadlineNanos != 0 && pastDeadline(due, now)) {
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
        return oldestOpen < sent ? sentAt[oldestOpen] + timeoutNanos : Long.MAX_VALUE;
    }

    private void send(int i, long due) throws IOException {
        int j = sent;
        int length = source.write(i, j, out);
        ensureCapacity(j + 1);
        outView.setIndex(0, length);
        long id = ids.read(outView);
        sentAt[j] = due;
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
        sent++;
        inFlight++;
        outBuffer.clear();
        outBuffer.put(out, 0, length).flip();
        try {
            channel.write(outBuffer);
        } catch (PortUnreachableException e) {
            // the peer is not listening (yet): the request is lost
        }
        lastSentNanos = System.nanoTime();
        if (recorder != null) {
            record(true, Arrays.copyOf(out, length));
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
            int length;
            try {
                length = channel.read(inBuffer);
            } catch (PortUnreachableException e) {
                continue; // an ICMP error for an earlier request
            }
            if (length <= 0) {
                return n;
            }
            n++;
            long now = System.nanoTime();
            inView.setIndex(0, length);
            answer(ids.read(inView), now);
            if (recorder != null) {
                byte[] copy = new byte[length];
                inView.getBytes(0, copy);
                record(false, copy);
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
        long latency = now - sentAt[j];
        if (state[j] == PENDING && latency <= timeoutNanos) {
            state[j] = ANSWERED;
            answered++;
            inFlight--;
            latencies.recordValue(Math.max(0, latency));
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
        for (int j = head[slot], previous = -1; j >= 0; previous = j, j = nextInSlot[j]) {
            if (slot != SLOTS && txid[j] != id) {
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
            return j;
        }
        return -1;
    }

    /** Requests past their timeout leave the window (an answer may still come, late). */
    private void expire(long now) {
        while (oldestOpen < sent && (state[oldestOpen] != PENDING || now - sentAt[oldestOpen] - timeoutNanos > 0)) {
            if (state[oldestOpen] == PENDING) {
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
        sentAt = Arrays.copyOf(sentAt, size);
        txid = Arrays.copyOf(txid, size);
        nextInSlot = Arrays.copyOf(nextInSlot, size);
        state = Arrays.copyOf(state, size);
    }

    private void record(boolean request, byte[] payload) {
        synchronized (recorder) {
            try {
                if (request) {
                    recorder.sent(local, target, payload);
                } else {
                    recorder.received(target, local, payload);
                }
            } catch (IOException e) {
                if (recordFailure == null) {
                    recordFailure = e;
                }
            }
        }
    }
}
