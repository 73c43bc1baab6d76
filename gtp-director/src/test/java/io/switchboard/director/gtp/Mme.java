package io.switchboard.director.gtp;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.gtp.GtpMessageView;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An MME stand-in for the impairment tests ({@link GtpImpairmentIT} in this JVM, {@link
 * GtpNetnsImpairmentIT} in a network namespace of its own through {@link #main}): on a socket of its
 * own, one subscriber at a time attaches, attaches again (the second create replaces the first, TS
 * 29.274 §7.2.1) and detaches, every request retransmitted as TS 29.274 §7.6 has it (T3-RESPONSE,
 * up to N3-REQUESTS times, the same message with the same sequence number).
 */
final class Mme {

    /** TS 29.274 leaves T3-RESPONSE to the operator (3 s is common); 1 s keeps the tests short on a loaded machine. */
    static final Duration T3 = Duration.ofSeconds(1);
    static final int N3 = 4;

    private final DatagramSocket socket;
    private final InetSocketAddress to;
    private final byte[] address;
    private int sequence = 1;

    Mme(InetAddress local, InetSocketAddress to) throws IOException {
        this.to = to;
        this.socket = new DatagramSocket(new InetSocketAddress(local, 0));
        this.address = local.getAddress();
    }

    static String imsi(int i) {
        return "26242" + (1_000_000_000L + i);
    }

    /**
     * {@code requesters} MMEs on {@code local}, each with {@code each} subscribers of its own, against
     * {@code to}. Returns {detached subscribers, exchanges that failed after N3 retransmissions}.
     */
    static int[] run(InetAddress local, InetSocketAddress to, int requesters, int each) throws Exception {
        ExecutorService mmes = Executors.newFixedThreadPool(requesters);
        try {
            List<Future<int[]>> runs = new ArrayList<>();
            for (int m = 0; m < requesters; m++) {
                int first = m * each;
                runs.add(mmes.submit(() -> new Mme(local, to).attachAndDetach(first, each)));
            }
            int[] total = new int[2];
            for (Future<int[]> run : runs) {
                int[] r = run.get();
                total[0] += r[0];
                total[1] += r[1];
            }
            return total;
        } finally {
            mmes.shutdownNow();
        }
    }

    /**
     * In a namespace: {@code LOCAL DIRECTOR_ADDRESS DIRECTOR_PORT REQUESTERS EACH}; prints
     * {@code result DETACHED FAILED} when every subscriber has had its turn.
     */
    public static void main(String[] args) throws Exception {
        // The codec's first use before the first request's T3 runs (as SessionKeepingPgw#main does).
        new GtpMessageView().wrap(Unpooled.wrappedBuffer(GtpMessages.v2CreateRequest(imsi(0), 1, 1,
                new byte[] {127, 0, 0, 1}, null, "internet", 5))).imsi();
        int[] r = run(InetAddress.getByName(args[0]), new InetSocketAddress(args[1], Integer.parseInt(args[2])),
                Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        System.out.println("result " + r[0] + " " + r[1]);
    }

    /** Returns {detached subscribers, exchanges that failed after N3 retransmissions}. */
    int[] attachAndDetach(int first, int count) throws IOException {
        AtomicInteger failed = new AtomicInteger();
        int detached = 0;
        try (socket) {
            for (int i = first; i < first + count; i++) {
                long mmeTeid = 0x4000 + i;
                byte[] attach = exchange(GtpMessages.v2CreateRequest(imsi(i), sequence++, mmeTeid, address, null,
                        "internet", 5), failed);
                byte[] again = exchange(GtpMessages.v2CreateRequest(imsi(i), sequence++, mmeTeid, address, null,
                        "internet", 5), failed);
                byte[] created = again != null ? again : attach;
                if (created == null) {
                    continue;
                }
                long directorTeid = senderTeid(created);
                byte[] deleted = exchange(GtpMessages.v2(36, directorTeid, sequence++, new byte[] {73, 0, 1, 0, 5}),
                        failed);
                if (deleted != null) {
                    detached++;
                }
            }
        }
        return new int[] {detached, failed.get()};
    }

    /** The answer to {@code request}, retransmitted every T3 up to N3 times; null if none came. */
    private byte[] exchange(byte[] request, AtomicInteger failed) throws IOException {
        int wanted = (request[8] & 0xff) << 16 | (request[9] & 0xff) << 8 | (request[10] & 0xff);
        for (int attempt = 0; attempt <= N3; attempt++) {
            socket.send(new DatagramPacket(request, request.length, to));
            long deadline = System.nanoTime() + T3.toNanos();
            while (System.nanoTime() < deadline) {
                socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                try {
                    socket.receive(in);
                } catch (SocketTimeoutException e) {
                    break;
                }
                byte[] answer = Arrays.copyOf(in.getData(), in.getLength());
                int got = (answer[8] & 0xff) << 16 | (answer[9] & 0xff) << 8 | (answer[10] & 0xff);
                if (got == wanted) {
                    return answer; // an earlier exchange's late or duplicated answer is skipped
                }
            }
        }
        failed.incrementAndGet();
        System.out.printf("impairment: no answer to type %d sequence %d after %d sendings%n", request[1], wanted, N3 + 1);
        return null;
    }

    private static long senderTeid(byte[] createResponse) {
        try {
            return new GtpMessageView().wrap(Unpooled.wrappedBuffer(createResponse)).senderControlPlane().teid();
        } catch (io.switchboard.codec.DecodeException e) {
            throw new AssertionError("the director's Create Session Response", e);
        }
    }
}
