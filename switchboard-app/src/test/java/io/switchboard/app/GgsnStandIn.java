package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

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

    /** A node's configuration: the admin API and a {@code gtp-inspect} virtual server {@code gtp-c} in front of this GGSN. */
    String inspectConfig() {
        return """
                admin: { listen: 127.0.0.1:0 }
                farms:
                  ggsn:
                    predictor: leastconns
                    reals:
                      - { address: 127.0.0.1, port: %d }
                virtual-servers:
                  gtp-c:
                    listen: 127.0.0.1:0
                    service: gtp-inspect
                    farm: ggsn
                    sticky: { key: imsi, idle: 1h }
                    gtp: { versions: [1, 2], reassign: 1, carrier-codes: ["26242"], recovery: 5 }
                """.formatted(port());
    }

    /**
     * The SGSN's side: a Create PDP Context Request (TS 29.060 §7.3.1, IMSI IE only) for IMSI 2624200000000NN, its
     * last octet {@code lastImsiOctet} ({@code 0xf1}: ...001), sent to {@code vip}; its answer must be a Create PDP
     * Context Response.
     */
    static void attach(InetSocketAddress vip, byte sequence, byte lastImsiOctet) throws IOException {
        byte[] create = {0x32, 16, 0, 13, 0, 0, 0, 0, 0x12, sequence, 0, 0,
            2, 0x62, 0x42, 0x02, 0, 0, 0, 0, lastImsiOctet};
        try (DatagramSocket sgsn = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            sgsn.setSoTimeout(5000);
            sgsn.send(new DatagramPacket(create, create.length, vip));
            DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
            sgsn.receive(in);
            assertThat(in.getData()[1]).as("Create PDP Context Response").isEqualTo((byte) 17);
        }
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
