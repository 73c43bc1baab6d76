package io.switchboard.bench;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The hostile generator of the flood benchmark (benchmarks/flood/run.sh): malformed and
 * unauthenticated datagrams at a fixed rate, half to a GTP-C virtual server and half to a RADIUS one,
 * from its own source address (so that RADIUS sees an unknown client when that address is not in
 * {@code clients}). Every kind is one the director must drop and count, none is one it may forward:
 * <ul>
 *   <li>GTP: a truncated header (3 octets), version 3 (TS 29.274 §5.1 knows 0..2: Version Not
 *       Supported is answered), a GTPv2 header whose length runs past the datagram, a GTPv2 response
 *       sent to the virtual address, a Create Session Request without IMSI;</li>
 *   <li>RADIUS: a header shorter than 20 octets (RFC 2865 §3), a Length field larger than the
 *       datagram, an Access-Request and an Accounting-Request with random authenticators (which do not
 *       verify, RFC 2866 §3, or come from an unknown client).</li>
 * </ul>
 * Prints one line: {@code sent=N seconds=S rate=R}.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.Flood SOURCE[,SOURCE...] GTP_HOST:PORT RADIUS_HOST:PORT RATE SECONDS</pre>
 */
public final class Flood {

    private Flood() {
    }

    static List<byte[]> gtp() {
        List<byte[]> out = new ArrayList<>();
        out.add(new byte[] {0x48, 32, 0});                                              // truncated header
        out.add(new byte[] {0x68, 32, 0, 8, 0, 0, 0, 0, 0, 0, 1, 0});                   // version 3
        out.add(new byte[] {0x48, 32, 0x10, 0, 0, 0, 0, 0, 0, 0, 2, 0});                // length past the end
        out.add(new byte[] {0x48, 33, 0, 8, 0, 0, 0x30, 0, 0, 0, 3, 0});                // a response to the VIP
        out.add(new byte[] {0x48, 32, 0, 8, 0, 0, 0, 0, 0, 0, 4, 0});                   // a create without IMSI
        return out;
    }

    static List<byte[]> radius() {
        List<byte[]> out = new ArrayList<>();
        out.add(new byte[] {1, 1, 0, 19});                                               // shorter than a header
        byte[] longer = new byte[20];
        longer[0] = 1;
        longer[3] = (byte) 200;                                                          // Length past the end
        out.add(longer);
        // RFC 2869 §5.14: an Access-Request whose Message-Authenticator does not verify; RFC 2866 §3: an
        // Accounting-Request whose Request Authenticator does not. Random bytes verify with no secret.
        for (int code : new int[] {1, 4}) {
            byte[] p = new byte[20 + 7 + (code == 1 ? 18 : 0)];
            p[0] = (byte) code;
            p[1] = 7;
            p[3] = (byte) p.length;
            for (int i = 4; i < 20; i++) {
                p[i] = (byte) ThreadLocalRandom.current().nextInt();
            }
            System.arraycopy(new byte[] {1, 7, 'f', 'l', 'o', 'o', 'd'}, 0, p, 20, 7);  // User-Name
            if (code == 1) {
                p[27] = 80;
                p[28] = 18;
                for (int i = 29; i < 45; i++) {
                    p[i] = (byte) ThreadLocalRandom.current().nextInt();
                }
            }
            out.add(p);
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        String[] sources = args[0].split(",");
        InetSocketAddress gtp = address(args[1]);
        InetSocketAddress radius = address(args[2]);
        int rate = Integer.parseInt(args[3]);
        double seconds = Double.parseDouble(args[4]);
        List<ByteBuffer> gtpKinds = gtp().stream().map(ByteBuffer::wrap).toList();
        List<ByteBuffer> radiusKinds = radius().stream().map(ByteBuffer::wrap).toList();
        DatagramChannel[] channels = new DatagramChannel[sources.length];
        for (int i = 0; i < sources.length; i++) {
            channels[i] = DatagramChannel.open();
            channels[i].bind(new InetSocketAddress(sources[i], 0));
        }
        {
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            long interval = 1_000_000_000L / Math.max(1, rate);
            long sent = 0;
            long next = start;
            while (true) {
                long now = System.nanoTime();
                if (now >= end) {
                    break;
                }
                // Open loop: every datagram due by now is sent; a late generator catches up in a burst.
                while (next <= now) {
                    boolean toGtp = (sent & 1) == 0;
                    List<ByteBuffer> kinds = toGtp ? gtpKinds : radiusKinds;
                    ByteBuffer datagram = kinds.get((int) ((sent >> 1) % kinds.size())).duplicate();
                    // Each source in turn: a known client's bad authenticators, an unknown client's requests.
                    // (every kind from every source: the source turns once per round of the kinds).
                    long round = (sent >> 1) / kinds.size();
                    channels[(int) (round % channels.length)].send(datagram, toGtp ? gtp : radius);
                    sent++;
                    next += interval;
                }
                LockSupport.parkNanos(Math.max(10_000, next - System.nanoTime()));
            }
            double took = (System.nanoTime() - start) / 1e9;
            System.out.printf("sent=%d seconds=%.2f rate=%.0f%n", sent, took, sent / took);
        }
        for (DatagramChannel channel : channels) {
            channel.close();
        }
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }
}
