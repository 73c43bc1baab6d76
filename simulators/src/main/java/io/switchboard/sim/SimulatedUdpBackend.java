package io.switchboard.sim;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A SIMULATED backend for demos and tests, not a real server: a UDP socket that answers every
 * datagram with {@code NAME|} followed by the datagram's bytes, and counts what it received from
 * whom. It can be told to go silent (receive but not answer), which is how demos and tests make a
 * real fail in-band, or to hold its answers until released, which is how tests keep a request in
 * flight.
 */
public final class SimulatedUdpBackend implements AutoCloseable {

    private final String name;
    private final DatagramSocket socket;
    private final Thread thread;
    private final AtomicLong received = new AtomicLong();
    private final Map<InetSocketAddress, AtomicLong> receivedFrom = new ConcurrentHashMap<>();
    private volatile boolean silent;
    private volatile boolean hold;
    private final java.util.List<DatagramPacket> held = new java.util.concurrent.CopyOnWriteArrayList<>();

    public SimulatedUdpBackend(String name, InetSocketAddress bind) throws SocketException {
        this.name = name;
        this.socket = new DatagramSocket(bind);
        this.thread = new Thread(this::serve, "simulated-backend-" + name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void serve() {
        byte[] prefix = (name + "|").getBytes(StandardCharsets.UTF_8);
        byte[] buffer = new byte[65_536];
        while (!socket.isClosed()) {
            try {
                DatagramPacket in = new DatagramPacket(buffer, buffer.length);
                socket.receive(in);
                received.incrementAndGet();
                InetSocketAddress from = (InetSocketAddress) in.getSocketAddress();
                receivedFrom.computeIfAbsent(from, a -> new AtomicLong()).incrementAndGet();
                if (silent) {
                    continue;
                }
                byte[] out = new byte[prefix.length + in.getLength()];
                System.arraycopy(prefix, 0, out, 0, prefix.length);
                System.arraycopy(in.getData(), in.getOffset(), out, prefix.length, in.getLength());
                DatagramPacket answer = new DatagramPacket(out, out.length, from);
                if (hold) {
                    held.add(answer);
                } else {
                    socket.send(answer);
                }
            } catch (IOException e) {
                if (!socket.isClosed()) {
                    System.err.println("simulated backend " + name + ": " + e);
                }
            }
        }
    }

    public String name() {
        return name;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** Stop (true) or resume (false) answering. */
    public void silent(boolean silent) {
        this.silent = silent;
    }

    /** Keeps every answer from now on until {@link #release()}. */
    public void hold() {
        this.hold = true;
    }

    /** Sends the answers held back, and answers at once again. */
    public void release() throws IOException {
        hold = false;
        for (DatagramPacket answer : held) {
            socket.send(answer);
        }
        held.clear();
    }

    /** Answers held back by {@link #hold()}, not sent yet. */
    public int held() {
        return held.size();
    }

    public long received() {
        return received.get();
    }

    /** Datagrams received per source address (the director's flow sockets). */
    public Map<InetSocketAddress, AtomicLong> receivedFrom() {
        return Map.copyOf(receivedFrom);
    }

    @Override
    public void close() {
        socket.close();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
