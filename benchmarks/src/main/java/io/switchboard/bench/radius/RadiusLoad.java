package io.switchboard.bench.radius;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * A RADIUS load generator: Access-Requests (User-Name, hidden User-Password, Calling-Station-Id of
 * one of {@code subscribers} subscribers, Message-Authenticator) from {@code sockets} sockets with
 * {@code window} requests outstanding each, for {@code seconds} seconds after a one-second warm-up;
 * every answer's Response Authenticator is verified. A request unanswered for a second counts as
 * timed out and is replaced by a new one, so that a lost datagram costs one request, not the socket's
 * window. Prints one line: requests per second, answers that failed verification, requests that
 * timed out.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.radius.RadiusLoad HOST:PORT[,HOST:PORT...] SECRET
 *     SECONDS SUBSCRIBERS SOCKETS WINDOW</pre>
 *
 * With several targets, each socket sends to one of them (socket i to target i mod n).
 */
public final class RadiusLoad {

    private RadiusLoad() {
    }

    public static void main(String[] args) throws Exception {
        List<InetSocketAddress> targets = new ArrayList<>();
        for (String t : args[0].split(",")) {
            int colon = t.lastIndexOf(':');
            targets.add(new InetSocketAddress(t.substring(0, colon), Integer.parseInt(t.substring(colon + 1))));
        }
        byte[] secret = args[1].getBytes(StandardCharsets.UTF_8);
        int seconds = Integer.parseInt(args[2]);
        int subscribers = Integer.parseInt(args[3]);
        int sockets = Integer.parseInt(args[4]);
        int window = Integer.parseInt(args[5]);

        LongAdder answered = new LongAdder();
        LongAdder badAnswers = new LongAdder();
        LongAdder timeouts = new LongAdder();
        long warmupEnd = System.nanoTime() + 1_000_000_000L;
        long end = warmupEnd + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        long[] counted = new long[1];
        for (int s = 0; s < sockets; s++) {
            InetSocketAddress target = targets.get(s % targets.size());
            int seed = s;
            Thread t = new Thread(() -> {
                try {
                    run(target, secret, subscribers, window, seed, warmupEnd, end, answered, badAnswers, timeouts);
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
        counted[0] = answered.sum();
        System.out.printf("rate=%.0f/s answered=%d bad=%d timeouts=%d seconds=%d%n", counted[0] / (double) seconds,
                counted[0], badAnswers.sum(), timeouts.sum(), seconds);
    }

    private static void run(InetSocketAddress target, byte[] secret, int subscribers, int window, int seed,
            long warmupEnd, long end, LongAdder answered, LongAdder bad, LongAdder timeouts) throws Exception {
        SplittableRandom random = new SplittableRandom(seed * 7919L + 17);
        byte[][] authenticators = new byte[256][];
        long[] sentAt = new long[256];
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.setReceiveBufferSize(1 << 20);
            socket.setSoTimeout(100);
            socket.connect(target);
            int nextId = 0;
            for (int i = 0; i < window; i++) {
                sentAt[nextId] = System.nanoTime();
                send(socket, nextId, secret, subscribers, random, authenticators);
                nextId = (nextId + 1) & 0xff;
            }
            byte[] in = new byte[4096];
            ByteBuf buf = Unpooled.wrappedBuffer(in);
            DatagramPacket packet = new DatagramPacket(in, in.length);
            long nextScan = System.nanoTime() + 100_000_000L;
            while (System.nanoTime() < end) {
                long now = System.nanoTime();
                if (now - nextScan > 0) {
                    // Requests lost on the way: count each and put a new one in its place.
                    nextScan = now + 100_000_000L;
                    for (int id = 0; id < 256; id++) {
                        if (authenticators[id] != null && now - sentAt[id] > 1_000_000_000L) {
                            authenticators[id] = null;
                            timeouts.increment();
                            sentAt[nextId] = now;
                            send(socket, nextId, secret, subscribers, random, authenticators);
                            nextId = (nextId + 1) & 0xff;
                        }
                    }
                }
                try {
                    packet.setData(in);
                    socket.receive(packet);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                buf.setIndex(0, packet.getLength());
                try {
                    RadiusView view = RadiusView.wrap(buf);
                    byte[] requestAuthenticator = authenticators[view.identifier()];
                    if (requestAuthenticator == null) {
                        continue; // the answer to a request already counted as timed out and replaced
                    }
                    if (!RadiusAuthenticators.verifyResponse(view, requestAuthenticator, secret)) {
                        bad.increment();
                    } else if (System.nanoTime() > warmupEnd) {
                        answered.increment();
                    }
                    authenticators[view.identifier()] = null;
                } catch (DecodeException e) {
                    bad.increment();
                }
                sentAt[nextId] = System.nanoTime();
                send(socket, nextId, secret, subscribers, random, authenticators);
                nextId = (nextId + 1) & 0xff;
            }
        }
    }

    private static void send(DatagramSocket socket, int id, byte[] secret, int subscribers, SplittableRandom random,
            byte[][] authenticators) throws Exception {
        byte[] authenticator = new byte[16];
        for (int i = 0; i < 16; i++) {
            authenticator[i] = (byte) random.nextInt(256);
        }
        int subscriber = random.nextInt(subscribers);
        List<RadiusAttribute> attributes = List.of(
                RadiusAttribute.text(RadiusAttributeType.USER_NAME, "user" + subscriber),
                new RadiusAttribute(RadiusAttributeType.USER_PASSWORD.value(),
                        RadiusAuthenticators.hideUserPassword("password".getBytes(StandardCharsets.US_ASCII), secret,
                                authenticator)),
                RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, String.format("4915%09d", subscriber)),
                new RadiusAttribute(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value(), new byte[16]));
        ByteBuf buf = Unpooled.buffer(128);
        new DefaultRadiusPacket(RadiusCode.ACCESS_REQUEST, id, authenticator, attributes).encode(buf);
        RadiusAuthenticators.signRequest(RadiusView.wrap(buf), secret);
        authenticators[id] = authenticator;
        socket.send(new DatagramPacket(buf.array(), buf.arrayOffset() + buf.readerIndex(), buf.readableBytes()));
    }
}
