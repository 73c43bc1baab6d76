package io.switchboard.director.gtp;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in GTP peer for probe tests, written from TS 29.060 §7.2.2 and TS 29.274 §7.1.2 rather
 * than with the codecs under test: it answers a GTPv1 or GTPv2 Echo Request with an Echo Response of
 * the same version and sequence number carrying {@link #recovery}; {@link #silent} keeps it quiet,
 * {@link #wrongSequence} makes it answer another sequence number.
 */
public final class GtpEchoResponder implements AutoCloseable {

    public volatile int recovery;
    public volatile boolean silent;
    public volatile boolean wrongSequence;
    public final AtomicInteger requests = new AtomicInteger();
    private final DatagramSocket socket;
    private final Thread thread;

    public GtpEchoResponder(String address, int recovery) throws IOException {
        this.recovery = recovery;
        this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        this.thread = new Thread(this::serve, "gtp-echo-responder-" + address);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(socket.getLocalAddress(), socket.getLocalPort());
    }

    private void serve() {
        byte[] in = new byte[2048];
        while (!socket.isClosed()) {
            try {
                DatagramPacket packet = new DatagramPacket(in, in.length);
                socket.receive(packet);
                int version = (in[0] >> 5) & 0x07;
                if (packet.getLength() < 8 || in[1] != 1) {
                    continue; // not an Echo Request
                }
                requests.incrementAndGet();
                if (silent) {
                    continue;
                }
                int bump = wrongSequence ? 1 : 0;
                byte[] out;
                if (version == 1) {
                    // flags, type 2, length 6, TEID 0, sequence, N-PDU, next extension, Recovery (14) TV.
                    out = new byte[] {0x32, 2, 0, 6, 0, 0, 0, 0, in[8], (byte) (in[9] + bump), 0, 0, 14, (byte) recovery};
                } else {
                    // flags, type 2, length 9, sequence (3), spare, Recovery IE (type 3, length 1, instance 0).
                    out = new byte[] {0x40, 2, 0, 9, in[4], in[5], (byte) (in[6] + bump), 0, 3, 0, 1, 0, (byte) recovery};
                }
                socket.send(new DatagramPacket(out, out.length, packet.getSocketAddress()));
            } catch (IOException e) {
                // closed
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        thread.join(5000);
    }
}
