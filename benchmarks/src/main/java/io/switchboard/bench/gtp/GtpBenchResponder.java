package io.switchboard.bench.gtp;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A minimal PGW stand-in for load tests: answers every GTPv2 Create Session Request with a Create
 * Session Response (cause 16, its own sender F-TEID) carrying the request's sequence number, and
 * every Delete Session Request with a Delete Session Response (cause 16; the soak's detaches,
 * TS 29.274 §7.2.9). One thread, no state.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.gtp.GtpBenchResponder ADDRESS PORT</pre>
 */
public final class GtpBenchResponder {

    private GtpBenchResponder() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress local = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        byte[] address = local.getAddress().getAddress();
        try (DatagramSocket socket = new DatagramSocket(local)) {
            socket.setReceiveBufferSize(4 << 20);
            socket.setSendBufferSize(4 << 20);
            byte[] in = new byte[4096];
            byte[] out = new byte[12 + 6 + 13];
            byte[] deleted = new byte[12 + 6];
            DatagramPacket packet = new DatagramPacket(in, in.length);
            int teid = 1;
            System.out.println("responder ready on " + local);
            while (true) {
                packet.setData(in);
                socket.receive(packet);
                if (packet.getLength() < 12 || (in[0] & 0xE0) != 0x40 || (in[0] & 0x08) == 0) {
                    continue;
                }
                if (in[1] == 36) {
                    // Delete Session Response: header (TEID 0: this stand-in keeps no peer TEIDs) and Cause.
                    ByteBuffer d = ByteBuffer.wrap(deleted);
                    d.put((byte) 0x48).put((byte) 37).putShort((short) (deleted.length - 4)).putInt(0)
                            .put(in[8]).put(in[9]).put(in[10]).put((byte) 0);
                    d.put(new byte[] {2, 0, 2, 0, 16, 0});
                    packet.setData(deleted, 0, deleted.length);
                    socket.send(packet);
                    continue;
                }
                if (in[1] != 32) {
                    continue;
                }
                ByteBuffer b = ByteBuffer.wrap(out);
                b.put((byte) 0x48).put((byte) 33).putShort((short) (out.length - 4)).putInt(0)
                        .put(in[8]).put(in[9]).put(in[10]).put((byte) 0);
                b.put(new byte[] {2, 0, 2, 0, 16, 0});
                b.put(new byte[] {87, 0, 9, 0, (byte) 0x8b}).putInt(teid++).put(address);
                packet.setData(out, 0, out.length);
                socket.send(packet);
            }
        }
    }
}
