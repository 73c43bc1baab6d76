package io.switchboard.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A SIMULATED client for demos and tests: a UDP socket on its own (loopback) address that sends
 * text requests to a virtual server and reads the answers.
 */
public final class SimulatedUdpClient implements AutoCloseable {

    private final DatagramSocket socket;
    private final InetSocketAddress target;

    public SimulatedUdpClient(InetSocketAddress bind, InetSocketAddress target) throws IOException {
        this.socket = new DatagramSocket(bind);
        this.target = target;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    public void send(String payload) {
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        try {
            socket.send(new DatagramPacket(bytes, bytes.length, target));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends and waits up to {@code timeout} for the answer; null when none came. */
    public String ask(String payload, Duration timeout) {
        send(payload);
        return receive(timeout);
    }

    /** The next answer, waiting up to {@code timeout}; null when none came. */
    public String receive(Duration timeout) {
        byte[] buf = new byte[65_536];
        DatagramPacket in = new DatagramPacket(buf, buf.length);
        try {
            socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
            socket.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new String(in.getData(), 0, in.getLength(), StandardCharsets.UTF_8);
    }

    /** Discards answers already queued (late answers to earlier requests). */
    public void drain() {
        while (receive(Duration.ofMillis(50)) != null) {
            // discard
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
