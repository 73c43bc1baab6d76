package io.switchboard.bench.gtp;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * A GTPv2-C load generator: Create Session Requests (TS 29.274 §7.2.1: IMSI of one of {@code imsis}
 * subscribers, sender F-TEID, APN) from {@code sockets} sockets, for {@code seconds} seconds after a
 * one-second warm-up. An answer counts when it is a Create Session Response carrying the sequence
 * number of an outstanding request of its socket.
 *
 * <ul>
 *   <li>Closed loop (default): {@code window} requests outstanding per socket; prints answers per
 *       second, bad answers, requests that timed out.</li>
 *   <li>Open loop ({@code --rate N}): N requests per second in all, spread over the sockets, each
 *       sent when the schedule says, whatever the answers do; the latency of an answer counts from
 *       the request's intended send time, so a generator or a path that falls behind shows up as
 *       latency (no coordinated omission). Prints the achieved rate, answered and lost requests and
 *       the latency percentiles. {@code window} is ignored.</li>
 * </ul>
 * {@code --from A.B.C.D} binds socket {@code s} to address A.B.C.(D+s), so that the sockets look like
 * distinct peers (MMEs, SGWs) to a proxy that balances by source address.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.gtp.GtpLoad HOST:PORT[,HOST:PORT...] SECONDS IMSIS SOCKETS WINDOW [--rate N] [--from ADDRESS]</pre>
 */
public final class GtpLoad {

    /** GTPv2 sequence numbers used: 16 bits, so that a per-socket table indexes them. */
    private static final int SEQUENCES = 1 << 16;
    private static final long WARMUP_NANOS = 1_000_000_000L;
    /** An open-loop answer later than this counts as lost. */
    private static final long TIMEOUT_NANOS = 1_000_000_000L;
    private static final int REQUEST_LENGTH = 12 + 12 + 13 + 13;

    private GtpLoad() {
    }

    public static void main(String[] args) throws Exception {
        List<InetSocketAddress> targets = new ArrayList<>();
        for (String t : args[0].split(",")) {
            int colon = t.lastIndexOf(':');
            targets.add(new InetSocketAddress(t.substring(0, colon), Integer.parseInt(t.substring(colon + 1))));
        }
        int seconds = Integer.parseInt(args[1]);
        int imsis = Integer.parseInt(args[2]);
        int sockets = Integer.parseInt(args[3]);
        int window = Integer.parseInt(args[4]);
        double rate = 0;
        InetAddress from = null;
        for (int i = 5; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rate" -> rate = Double.parseDouble(args[i + 1]);
                case "--from" -> from = InetAddress.getByName(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<Worker> workers = new ArrayList<>();
        long start = System.nanoTime();
        for (int s = 0; s < sockets; s++) {
            InetAddress local = from == null ? null : offset(from, s);
            workers.add(new Worker(targets.get(s % targets.size()), local, imsis, s, start, seconds, window,
                    rate / sockets));
        }
        for (Worker w : workers) {
            w.start();
        }
        Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        long answered = 0;
        long bad = 0;
        long timeouts = 0;
        long sent = 0;
        for (Worker w : workers) {
            w.join();
            latency.add(w.latency);
            answered += w.answered.sum();
            bad += w.bad.sum();
            timeouts += w.timeouts.sum();
            sent += w.sent;
        }
        if (rate > 0) {
            System.out.printf("rate=%.0f/s sent=%d answered=%d lost=%d bad=%d p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f "
                    + "p999_ms=%.3f max_ms=%.3f seconds=%d%n", sent / (double) seconds, sent, answered, sent - answered,
                    bad, ms(latency.getValueAtPercentile(50)), ms(latency.getValueAtPercentile(90)),
                    ms(latency.getValueAtPercentile(99)), ms(latency.getValueAtPercentile(99.9)),
                    ms(latency.getMaxValue()), seconds);
        } else {
            System.out.printf("rate=%.0f/s answered=%d bad=%d timeouts=%d seconds=%d%n", answered / (double) seconds,
                    answered, bad, timeouts, seconds);
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static InetAddress offset(InetAddress base, int by) throws Exception {
        byte[] a = base.getAddress();
        a[a.length - 1] = (byte) (a[a.length - 1] + by);
        return InetAddress.getByAddress(a);
    }

    /** One socket: its sender (this thread) and, in open loop, a receiver thread of its own. */
    private static final class Worker extends Thread {
        private final InetSocketAddress target;
        private final InetAddress local;
        private final int imsis;
        private final long warmupEnd;
        private final long end;
        private final int window;
        private final double rate;
        private final SplittableRandom random;
        final LongAdder answered = new LongAdder();
        final LongAdder bad = new LongAdder();
        final LongAdder timeouts = new LongAdder();
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        long sent;
        /** Open loop: when each outstanding sequence number was due, 0 when none is outstanding. */
        private final long[] dueAt = new long[SEQUENCES];
        /** Closed loop: which sequence numbers are outstanding. */
        private final boolean[] outstanding = new boolean[SEQUENCES];
        private final byte[] request = new byte[REQUEST_LENGTH];

        Worker(InetSocketAddress target, InetAddress local, int imsis, int seed, long start, int seconds, int window,
                double rate) {
            super("load-" + seed);
            this.target = target;
            this.local = local;
            this.imsis = imsis;
            this.warmupEnd = start + WARMUP_NANOS;
            this.end = warmupEnd + seconds * 1_000_000_000L;
            this.window = window;
            this.rate = rate;
            this.random = new SplittableRandom(seed * 7919L + 17);
        }

        @Override
        public void run() {
            try (DatagramSocket socket = new DatagramSocket(local == null ? null : new InetSocketAddress(local, 0))) {
                socket.setReceiveBufferSize(4 << 20);
                socket.setSendBufferSize(4 << 20);
                socket.connect(target);
                if (rate > 0) {
                    openLoop(socket);
                } else {
                    closedLoop(socket);
                }
            } catch (Exception e) {
                e.printStackTrace();
            }
        }

        private void closedLoop(DatagramSocket socket) throws Exception {
            socket.setSoTimeout(1000);
            int next = 0;
            for (int i = 0; i < window; i++) {
                send(socket, next);
                outstanding[next] = true;
                next = (next + 1) & 0xFFFF;
            }
            byte[] in = new byte[4096];
            DatagramPacket packet = new DatagramPacket(in, in.length);
            while (System.nanoTime() < end) {
                try {
                    packet.setData(in);
                    socket.receive(packet);
                } catch (SocketTimeoutException e) {
                    timeouts.add(window);
                    Arrays.fill(outstanding, false);
                    for (int i = 0; i < window; i++) {
                        send(socket, next);
                        outstanding[next] = true;
                        next = (next + 1) & 0xFFFF;
                    }
                    continue;
                }
                int sequence = sequenceOf(in, packet.getLength());
                if (sequence < 0 || !outstanding[sequence]) {
                    bad.increment();
                } else {
                    outstanding[sequence] = false;
                    if (System.nanoTime() > warmupEnd) {
                        answered.increment();
                    }
                }
                send(socket, next);
                outstanding[next] = true;
                next = (next + 1) & 0xFFFF;
            }
        }

        /**
         * Sends every request whose time has come, then sleeps until the next is due (no spinning: the
         * generator shares the cores with what it measures). Requests due during the warm-up are sent
         * but neither counted nor timed.
         */
        private void openLoop(DatagramSocket socket) throws Exception {
            double intervalNanos = 1e9 / rate;
            Thread receiver = new Thread(() -> receive(socket), getName() + "-receiver");
            receiver.setDaemon(true);
            receiver.start();
            long start = System.nanoTime();
            long index = 0;
            int next = 0;
            while (true) {
                long due = start + (long) (index * intervalNanos);
                if (due >= end) {
                    break;
                }
                long now = System.nanoTime();
                if (due > now) {
                    LockSupport.parkNanos(due - now);
                    continue;
                }
                synchronized (dueAt) {
                    // A sequence number still outstanding after a full turn (65,536 requests) is lost.
                    dueAt[next] = due > warmupEnd ? due : -1;
                }
                send(socket, next);
                if (due > warmupEnd) {
                    sent++;
                }
                next = (next + 1) & 0xFFFF;
                index++;
            }
            LockSupport.parkNanos(TIMEOUT_NANOS);
            socket.close();
            receiver.join();
        }

        private void receive(DatagramSocket socket) {
            byte[] in = new byte[4096];
            DatagramPacket packet = new DatagramPacket(in, in.length);
            while (!socket.isClosed()) {
                try {
                    packet.setData(in);
                    socket.receive(packet);
                } catch (Exception e) {
                    return; // closed
                }
                long now = System.nanoTime();
                int sequence = sequenceOf(in, packet.getLength());
                long due;
                synchronized (dueAt) {
                    due = sequence < 0 ? 0 : dueAt[sequence];
                    if (due != 0) {
                        dueAt[sequence] = 0;
                    }
                }
                if (due == 0) {
                    bad.increment();
                } else if (due > 0 && now - due <= TIMEOUT_NANOS) {
                    answered.increment();
                    latency.recordValue(Math.min(now - due, latency.getHighestTrackableValue()));
                }
            }
        }

        /** The sequence number of a Create Session Response, or -1. */
        private static int sequenceOf(byte[] in, int length) {
            if (length < 12 || in[1] != 33 || in[8] != 0) {
                return -1;
            }
            return (in[9] & 0xff) << 8 | (in[10] & 0xff);
        }

        /** A Create Session Request with {@code sequence} and a random subscriber's IMSI, written in place. */
        private void send(DatagramSocket socket, int sequence) throws Exception {
            byte[] b = request;
            int at = 0;
            b[at++] = 0x48;
            b[at++] = 32;
            b[at++] = 0;
            b[at++] = (byte) (REQUEST_LENGTH - 4);
            at += 4; // TEID 0
            b[at++] = 0;
            b[at++] = (byte) (sequence >> 8);
            b[at++] = (byte) sequence;
            b[at++] = 0;
            // IMSI IE (TS 29.274 §8.3): 26242 and ten digits of the subscriber number, TBCD, filler F.
            b[at++] = 1;
            b[at++] = 0;
            b[at++] = 8;
            b[at++] = 0;
            long subscriber = random.nextInt(imsis);
            int[] digits = new int[16];
            digits[0] = 2;
            digits[1] = 6;
            digits[2] = 2;
            digits[3] = 4;
            digits[4] = 2;
            for (int i = 14; i >= 5; i--) {
                digits[i] = (int) (subscriber % 10);
                subscriber /= 10;
            }
            digits[15] = 0xF;
            for (int i = 0; i < 16; i += 2) {
                b[at++] = (byte) (digits[i] | digits[i + 1] << 4);
            }
            // Sender F-TEID (§8.22): IPv4, interface 10 (S11 MME GTP-C), TEID = sequence, 127.0.0.1.
            byte[] fteid = {87, 0, 9, 0, (byte) 0x8a, 0, 0, (byte) (sequence >> 8), (byte) sequence, 127, 0, 0, 1};
            System.arraycopy(fteid, 0, b, at, fteid.length);
            at += fteid.length;
            byte[] apn = {71, 0, 9, 0, 8, 'i', 'n', 't', 'e', 'r', 'n', 'e', 't'};
            System.arraycopy(apn, 0, b, at, apn.length);
            socket.send(new DatagramPacket(b, REQUEST_LENGTH));
        }
    }
}
