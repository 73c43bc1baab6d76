package io.switchboard.director.gtp;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A lossy, duplicating, reordering UDP path in front of {@code target}, for the tests that netem would
 * serve where the kernel has it (this one has not: docs/overload.md). Each sender gets a socket of its
 * own toward the target, so the target sees one source per sender, as without the link; what the
 * target answers there goes back to that sender from the link's address. Every datagram in either
 * direction is dropped with probability {@code loss}, sent twice with {@code duplicate}, and held back
 * {@code 5..40 ms} (so that later ones overtake it) with {@code reorder}. Counts what it did.
 */
final class ImpairedLink implements AutoCloseable {

    private final DatagramSocket front;
    private final InetSocketAddress target;
    private final double loss;
    private final double duplicate;
    private final double reorder;
    private final SplittableRandom random = new SplittableRandom();
    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "impaired-link-delay");
        t.setDaemon(true);
        return t;
    });
    private final Map<SocketAddress, DatagramSocket> upstream = new ConcurrentHashMap<>();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong duplicated = new AtomicLong();
    final AtomicLong delayed = new AtomicLong();
    final AtomicLong passed = new AtomicLong();

    ImpairedLink(String address, InetSocketAddress target, double loss, double duplicate, double reorder)
            throws IOException {
        this.front = new DatagramSocket(new InetSocketAddress(address, 0));
        this.target = target;
        this.loss = loss;
        this.duplicate = duplicate;
        this.reorder = reorder;
        daemon("impaired-link-front", () -> {
            DatagramPacket in = new DatagramPacket(new byte[65535], 65535);
            front.receive(in);
            SocketAddress sender = in.getSocketAddress();
            DatagramSocket toTarget = upstream.computeIfAbsent(sender, this::open);
            impair(toTarget, Arrays.copyOf(in.getData(), in.getLength()), target);
        }, front);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) front.getLocalSocketAddress();
    }

    private DatagramSocket open(SocketAddress sender) {
        try {
            DatagramSocket socket = new DatagramSocket(new InetSocketAddress(address().getAddress(), 0));
            daemon("impaired-link-back", () -> {
                DatagramPacket in = new DatagramPacket(new byte[65535], 65535);
                socket.receive(in);
                impair(front, Arrays.copyOf(in.getData(), in.getLength()), sender);
            }, socket);
            return socket;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void impair(DatagramSocket from, byte[] datagram, SocketAddress to) throws IOException {
        double dice;
        synchronized (random) {
            dice = random.nextDouble();
        }
        if (dice < loss) {
            dropped.incrementAndGet();
            return;
        }
        int copies = dice < loss + duplicate ? 2 : 1;
        if (copies == 2) {
            duplicated.incrementAndGet();
        }
        for (int i = 0; i < copies; i++) {
            double again;
            synchronized (random) {
                again = random.nextDouble();
            }
            if (again < reorder) {
                delayed.incrementAndGet();
                later.schedule(() -> send(from, datagram, to), 5 + (long) (again / reorder * 35), TimeUnit.MILLISECONDS);
            } else {
                send(from, datagram, to);
            }
        }
    }

    private void send(DatagramSocket from, byte[] datagram, SocketAddress to) {
        try {
            from.send(new DatagramPacket(datagram, datagram.length, to));
            passed.incrementAndGet();
        } catch (IOException e) {
            // closed
        }
    }

    private interface Loop {
        void once() throws IOException;
    }

    private static void daemon(String name, Loop loop, DatagramSocket socket) {
        Thread t = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    loop.once();
                } catch (IOException e) {
                    // closed
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        later.shutdownNow();
        front.close();
        upstream.values().forEach(DatagramSocket::close);
    }
}
