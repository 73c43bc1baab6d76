package io.switchboard.director.asn;

import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.director.testing.PcapFile;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in ASN gateway (Debian has none): records every R6 message it receives and answers an
 * MS_PreAttachment_Req with an MS_PreAttachment_Rsp (same MSID and transaction id, numbered per the
 * release) to the source of the request. Other messages get no answer.
 */
final class GatewayResponder implements AutoCloseable {

    record Received(byte[] bytes, InetSocketAddress sender) {
        long msid() {
            long m = 0;
            for (int i = 6; i < 12; i++) {
                m = (m << 8) | (bytes[i] & 0xff);
            }
            return m;
        }

        int messageType() {
            return bytes[3] & 0x1f;
        }

        int transactionId() {
            return ((bytes[16] & 0xff) << 8) | (bytes[17] & 0xff);
        }
    }

    final String name;
    final DatagramSocket socket;
    final List<Received> received = new CopyOnWriteArrayList<>();
    private final NwgRelease release;
    private final PcapFile capture;
    private final List<String> arrivals;
    private final Thread thread;

    GatewayResponder(String name, NwgRelease release, PcapFile capture, List<String> arrivals) throws IOException {
        this.name = name;
        this.release = release;
        this.capture = capture;
        this.arrivals = arrivals;
        socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        thread = new Thread(this::serve, "gateway-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    InetSocketAddress address() {
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
                Received r = new Received(bytes, sender);
                received.add(r);
                arrivals.add(name);
                if (bytes.length >= 20 && (bytes[2] & 0xff) == 9
                        && release.preAttachment(9, r.messageType()) == R6PreAttachment.REQUEST) {
                    byte[] rsp = R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, r.msid(), r.transactionId());
                    socket.send(new DatagramPacket(rsp, rsp.length, sender));
                }
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
