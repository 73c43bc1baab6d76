package io.switchboard.app;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A GGSN stand-in for the admin ITs, not a GGSN: on 127.0.0.1 (ephemeral port) it answers each GTPv1
 * Create PDP Context Request with cause 128 and TEID-C 0x00abcdef, and ignores everything else.
 */
final class GgsnStandIn implements AutoCloseable {

    private final DatagramSocket socket;
    private final Thread thread;

    GgsnStandIn() throws IOException {
        socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        thread = new Thread(this::serve, "ggsn-stand-in");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try {
                DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
                socket.receive(in);
                byte[] req = Arrays.copyOf(in.getData(), in.getLength());
                if (req.length < 12 || req[1] != 16) {
                    continue;
                }
                // TS 29.060 §7.3.2: header (type 17, TEID 0x2000, the request's sequence), Cause 128,
                // TEID Control Plane, GSN Address 10.9.8.7.
                ByteBuffer b = ByteBuffer.allocate(26);
                b.put((byte) 0x32).put((byte) 17).putShort((short) 18).putInt(0x2000).put(req[8]).put(req[9])
                        .put((byte) 0).put((byte) 0).put(new byte[] {1, (byte) 128}).put((byte) 17).putInt(0x00abcdef)
                        .put(new byte[] {(byte) 133, 0, 4, 10, 9, 8, 7});
                socket.send(new DatagramPacket(b.array(), 26, in.getSocketAddress()));
            } catch (IOException e) {
                // closed
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        thread.join(2000);
    }
}
