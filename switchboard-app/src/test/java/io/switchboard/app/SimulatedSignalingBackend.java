package io.switchboard.app;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A SIMULATED PGW or AAA server for load tests: answers every GTPv2 Create Session Request with a
 * Create Session Response (cause 16 "request accepted", its own sender F-TEID, the request's
 * sequence), or every RADIUS Access-Request with an Access-Accept and Accounting-Request with an
 * Accounting-Response (signed with the shared secret), and counts the requests of each subscriber
 * key it received (IMSI; Calling-Station-Id), so that a test sees which real served whom. One
 * thread, no state but the counts.
 */
final class SimulatedSignalingBackend implements AutoCloseable {

    /** What the backend speaks. */
    enum Kind { PGW, AAA }

    private final Kind kind;
    private final byte[] secret;
    private final DatagramSocket socket;
    private final Map<String, AtomicInteger> keys = new ConcurrentHashMap<>();
    private final AtomicInteger teids = new AtomicInteger(1);
    private final Map<String, java.time.Instant> firstSeen = new ConcurrentHashMap<>();

    /** @param secret the RADIUS shared secret (AAA), ignored by a PGW */
    SimulatedSignalingBackend(Kind kind, InetSocketAddress address, String secret) throws IOException {
        this.kind = kind;
        this.secret = secret.getBytes(StandardCharsets.US_ASCII);
        this.socket = new DatagramSocket(address);
        socket.setReceiveBufferSize(1 << 20);
        Thread thread = new Thread(this::serve, "simulated-" + kind.name().toLowerCase() + "-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    /** Where the backend listens, as a real's name in bindings ({@code address:port}). */
    String real() {
        return socket.getLocalAddress().getHostAddress() + ":" + socket.getLocalPort();
    }

    int port() {
        return socket.getLocalPort();
    }

    /** The requests received per subscriber key. */
    Map<String, Integer> requestsByKey() {
        Map<String, Integer> copy = new java.util.TreeMap<>();
        keys.forEach((k, n) -> copy.put(k, n.get()));
        return copy;
    }

    /** Forgets the counts: what follows is counted afresh. */
    void resetCounts() {
        keys.clear();
        firstSeen.clear();
    }

    /** When the first request of {@code key} arrived here, or null. */
    java.time.Instant firstSeen(String key) {
        return firstSeen.get(key);
    }

    private void serve() {
        byte[] in = new byte[4096];
        while (!socket.isClosed()) {
            try {
                DatagramPacket packet = new DatagramPacket(in, in.length);
                socket.receive(packet);
                byte[] request = Arrays.copyOf(in, packet.getLength());
                String key = null;
                byte[] answer = null;
                if (kind == Kind.PGW && request.length >= 12 && (request[0] & 0xE8) == 0x48 && request[1] == 32) {
                    key = imsi(request);
                    answer = createSessionResponse(request);
                } else if (kind == Kind.AAA && request.length >= 20 && (request[0] == 1 || request[0] == 4)) {
                    key = radiusAttribute(request, 31);
                    answer = radiusAnswer(request);
                }
                if (answer == null) {
                    continue;
                }
                if (key != null) {
                    keys.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                    firstSeen.putIfAbsent(key, java.time.Instant.now());
                }
                socket.send(new DatagramPacket(answer, answer.length, packet.getSocketAddress()));
            } catch (IOException e) {
                // closed
            }
        }
    }

    /** TS 29.274 §7.2.2: header (T set, TEID 0, the request's sequence), Cause 16, sender F-TEID (S11/S4 SGW). */
    private byte[] createSessionResponse(byte[] request) {
        byte[] address = socket.getLocalAddress().getAddress();
        ByteBuffer b = ByteBuffer.allocate(12 + 6 + 13);
        b.put((byte) 0x48).put((byte) 33).putShort((short) (b.capacity() - 4)).putInt(0)
                .put(request[8]).put(request[9]).put(request[10]).put((byte) 0);
        b.put(new byte[] {2, 0, 2, 0, 16, 0});
        b.put(new byte[] {87, 0, 9, 0, (byte) 0x8b}).putInt(teids.getAndIncrement()).put(address);
        return b.array();
    }

    /** The IMSI IE's digits (TS 29.274 §8.3, TBCD, filler F), or null. */
    private static String imsi(byte[] p) {
        int end = Math.min(p.length, 4 + (((p[2] & 0xFF) << 8) | (p[3] & 0xFF)));
        for (int ie = 12; ie + 4 <= end; ie += 4 + (((p[ie + 1] & 0xFF) << 8) | (p[ie + 2] & 0xFF))) {
            if ((p[ie] & 0xFF) == 1) {
                int length = ((p[ie + 1] & 0xFF) << 8) | (p[ie + 2] & 0xFF);
                StringBuilder digits = new StringBuilder();
                for (int k = ie + 4; k < ie + 4 + length; k++) {
                    for (int nibble : new int[] {p[k] & 0x0F, (p[k] >> 4) & 0x0F}) {
                        if (nibble <= 9) {
                            digits.append(nibble);
                        }
                    }
                }
                return digits.toString();
            }
        }
        return null;
    }

    /** The text of the first attribute {@code type} (RFC 2865 §5), or null. */
    private static String radiusAttribute(byte[] p, int type) {
        int end = Math.min(p.length, ((p[2] & 0xFF) << 8) | (p[3] & 0xFF));
        for (int a = 20; a + 2 <= end && (p[a + 1] & 0xFF) >= 2; a += p[a + 1] & 0xFF) {
            if ((p[a] & 0xFF) == type) {
                return new String(p, a + 2, (p[a + 1] & 0xFF) - 2, StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /** RFC 2865 §3 / RFC 2866 §3: Access-Accept or Accounting-Response, Response Authenticator over the request's. */
    private byte[] radiusAnswer(byte[] request) {
        byte[] answer = {(byte) (request[0] == 1 ? 2 : 5), request[1], 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0};
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(answer, 0, 4);
            md5.update(request, 4, 16);
            md5.update(secret);
            System.arraycopy(md5.digest(), 0, answer, 4, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return answer;
    }

    @Override
    public void close() {
        socket.close();
    }
}
