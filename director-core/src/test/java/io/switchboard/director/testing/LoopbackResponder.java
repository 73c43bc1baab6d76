package io.switchboard.director.testing;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in peer for plug-in integration tests (a home agent, an ASN gateway): a UDP socket on
 * 127.0.0.1 and a thread that writes every datagram it receives to the test's capture, appends its
 * name to the shared arrival list, and sends what {@link #answer} returns to the datagram's source —
 * or keeps it until {@link #release()} while {@link #hold} is set. Subclasses call {@link #start()}
 * at the end of their constructor, once their own fields are set.
 */
public abstract class LoopbackResponder implements AutoCloseable {

    public final String name;
    /** Set to keep answers back until {@link #release()}. */
    public volatile boolean hold;
    private final List<DatagramPacket> held = new CopyOnWriteArrayList<>();
    private final PcapFile capture;
    private final List<String> arrivals;
    private final DatagramSocket socket;
    private final Thread thread;

    /** @param arrivals shared by the responders of a test: each appends its name when a datagram arrives */
    protected LoopbackResponder(String name, PcapFile capture, List<String> arrivals) throws IOException {
        this.name = name;
        this.capture = capture;
        this.arrivals = arrivals;
        this.socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        this.thread = new Thread(this::serve, getClass().getSimpleName() + "-" + name);
        this.thread.setDaemon(true);
    }

    protected final void start() {
        thread.start();
    }

    /** Records {@code request} as the subclass needs it; the answer to send back, or null for none. */
    protected abstract byte[] answer(byte[] request, InetSocketAddress sender);

    public int port() {
        return socket.getLocalPort();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(socket.getLocalAddress(), port());
    }

    private void serve() {
        while (!socket.isClosed()) {
            try {
                DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                socket.receive(in);
                byte[] bytes = Arrays.copyOf(in.getData(), in.getLength());
                InetSocketAddress sender = (InetSocketAddress) in.getSocketAddress();
                capture.add(sender, address(), bytes);
                byte[] reply = answer(bytes, sender);
                arrivals.add(name);
                if (reply != null) {
                    DatagramPacket out = new DatagramPacket(reply, reply.length, sender);
                    if (hold) {
                        held.add(out);
                    } else {
                        socket.send(out);
                    }
                }
            } catch (IOException e) {
                // closed
            }
        }
    }

    /** Sends the answers kept back while {@link #hold} was set, in order. */
    public void release() throws IOException {
        for (DatagramPacket p : held) {
            socket.send(p);
        }
        held.clear();
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        thread.join(2000);
    }
}
