package io.switchboard.bench.gtp;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * A GTPv2-C load generator: Create Session Requests (TS 29.274 §7.2.1: IMSI of one of {@code imsis}
 * subscribers, sender F-TEID, APN) from {@code sockets} sockets with {@code window} requests
 * outstanding each, for {@code seconds} seconds after a one-second warm-up. An answer counts when it
 * is a Create Session Response carrying the sequence number of an outstanding request of its socket.
 * Prints one line: answers per second, bad answers, requests that timed out.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.gtp.GtpLoad HOST:PORT[,HOST:PORT...] SECONDS IMSIS SOCKETS WINDOW</pre>
 */
public final class GtpLoad {

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
        LongAdder answered = new LongAdder();
        LongAdder bad = new LongAdder();
        LongAdder timeouts = new LongAdder();
        long warmupEnd = System.nanoTime() + 1_000_000_000L;
        long end = warmupEnd + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < sockets; s++) {
            InetSocketAddress target = targets.get(s % targets.size());
            int seed = s;
            Thread t = new Thread(() -> {
                try {
                    run(target, imsis, window, seed, warmupEnd, end, answered, bad, timeouts);
                } catch (Exception e) {
                    e.printStackTrace();
                }
            }, "load-" + s);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.printf("rate=%.0f/s answered=%d bad=%d timeouts=%d seconds=%d%n", answered.sum() / (double) seconds,
                answered.sum(), bad.sum(), timeouts.sum(), seconds);
    }

    private static void run(InetSocketAddress target, int imsis, int window, int seed, long warmupEnd, long end,
            LongAdder answered, LongAdder bad, LongAdder timeouts) throws Exception {
        SplittableRandom random = new SplittableRandom(seed * 7919L + 17);
        boolean[] outstanding = new boolean[1 << 16];
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.setReceiveBufferSize(1 << 20);
            socket.setSoTimeout(1000);
            socket.connect(target);
            int next = 0;
            for (int i = 0; i < window; i++) {
                send(socket, next, imsis, random, outstanding);
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
                    java.util.Arrays.fill(outstanding, false);
                    for (int i = 0; i < window; i++) {
                        send(socket, next, imsis, random, outstanding);
                        next = (next + 1) & 0xFFFF;
                    }
                    continue;
                }
                int sequence = packet.getLength() >= 12 ? ((in[8] & 0xff) << 16 | (in[9] & 0xff) << 8 | (in[10] & 0xff)) : -1;
                if (packet.getLength() < 12 || in[1] != 33 || sequence > 0xFFFF || sequence < 0 || !outstanding[sequence]) {
                    bad.increment();
                } else {
                    outstanding[sequence] = false;
                    if (System.nanoTime() > warmupEnd) {
                        answered.increment();
                    }
                }
                send(socket, next, imsis, random, outstanding);
                next = (next + 1) & 0xFFFF;
            }
        }
    }

    private static void send(DatagramSocket socket, int sequence, int imsis, SplittableRandom random,
            boolean[] outstanding) throws Exception {
        String imsi = String.format("26242%010d", random.nextInt(imsis));
        byte[] tbcd = new byte[8];
        for (int i = 0; i < 16; i++) {
            int nibble = i < imsi.length() ? imsi.charAt(i) - '0' : 0xF;
            tbcd[i / 2] |= (byte) ((i & 1) == 0 ? nibble : nibble << 4);
        }
        ByteBuffer b = ByteBuffer.allocate(12 + 12 + 13 + 13);
        b.put((byte) 0x48).put((byte) 32).putShort((short) (8 + 12 + 13 + 13)).putInt(0)
                .put((byte) (sequence >> 16)).put((byte) (sequence >> 8)).put((byte) sequence).put((byte) 0);
        b.put(new byte[] {1, 0, 8, 0}).put(tbcd);                                  // IMSI
        b.put(new byte[] {87, 0, 9, 0, (byte) 0x8a}).putInt(sequence).put(new byte[] {127, 0, 0, 1}); // F-TEID
        b.put(new byte[] {71, 0, 9, 0, 8, 'i', 'n', 't', 'e', 'r', 'n', 'e', 't'});   // APN
        outstanding[sequence] = true;
        socket.send(new DatagramPacket(b.array(), b.position()));
    }
}
