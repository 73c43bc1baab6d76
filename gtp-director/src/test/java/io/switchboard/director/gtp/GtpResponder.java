package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small GGSN/PGW stand-in on 127.0.0.1: answers every Create (v0, v1, v2) with a Create response
 * carrying the request's sequence number and {@code cause}, and records what it received (IMSI and
 * the sequence number the director wrote).
 */
final class GtpResponder implements AutoCloseable {

    record Received(int version, int type, long teid, String imsi, int sequence, InetSocketAddress from,
            byte[] bytes) {
    }

    final DatagramSocket socket;
    final List<Received> received = new CopyOnWriteArrayList<>();
    volatile int cause;
    volatile int v2Cause;
    /** The cause of Delete answers (v1; v2 answers 16 unless this is 192, then 64). */
    volatile int deleteCause = 128;
    /** Answer every request twice: the second answer matches no pending request at the director. */
    volatile boolean answerTwice;
    /** Send this datagram before each answer (garbage from a real). */
    volatile byte[] junkBeforeAnswer;
    private final GtpV0TidOrder tidOrder;
    private final Thread thread;

    GtpResponder(GtpV0TidOrder tidOrder) throws IOException {
        this(tidOrder, "127.0.0.1");
    }

    /** A responder on {@code address} (an ephemeral port). */
    GtpResponder(GtpV0TidOrder tidOrder, String address) throws IOException {
        this.tidOrder = tidOrder;
        this.cause = 128;
        this.v2Cause = 16;
        socket = new DatagramSocket(new InetSocketAddress(address, 0));
        thread = new Thread(this::serve, "gtp-responder-" + socket.getLocalPort());
        thread.setDaemon(true);
        thread.start();
    }

    GtpResponder() throws IOException {
        this(GtpV0TidOrder.GSM_09_60);
    }

    /** The control-plane address this responder puts in its Create responses (only bytes: nothing is sent there). */
    static final byte[] ADDRESS = {10, 9, 8, 7};

    /** The TEID-C this responder allocates for every session. */
    long teid() {
        return 0x7000 + port();
    }

    int port() {
        return socket.getLocalPort();
    }

    List<String> imsis() {
        return received.stream().map(Received::imsi).toList();
    }

    private void serve() {
        GtpMessageView view = new GtpMessageView(tidOrder);
        while (!socket.isClosed()) {
            try {
                DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                socket.receive(in);
                ByteBuf buf = Unpooled.wrappedBuffer(Arrays.copyOf(in.getData(), in.getLength()));
                byte[] answer;
                try {
                    view.wrap(buf);
                    received.add(new Received(view.version(), view.messageTypeValue(), view.teid(), view.imsi(),
                            view.sequence(), (InetSocketAddress) in.getSocketAddress(),
                            Arrays.copyOf(in.getData(), in.getLength())));
                    if (view.version() == 1 && view.messageTypeValue() == 20) {
                        answer = GtpMessages.v1(21, 0x2000, view.sequence(), new byte[] {1, (byte) deleteCause});
                    } else if (view.version() == 0 && view.messageTypeValue() == 20) {
                        answer = GtpMessages.v0(21, view.sequence(), view.v0().tid(), new byte[] {1, (byte) 128});
                    } else if (view.version() == 1 && view.messageTypeValue() == 18) {
                        // TS 29.060 §7.3.4: accepted, with a new TEID-C (teid() + 1) and the same address.
                        answer = GtpMessages.v1CreateResponse(view.sequence(), 128, 0x2000, teid() + 1, ADDRESS);
                        answer[1] = 19;
                    } else if (view.version() == 2 && view.messageTypeValue() == 34) {
                        // TS 29.274 §7.2.8: accepted, with a new sender F-TEID (teid() + 1).
                        answer = GtpMessages.v2CreateResponse(view.sequence(), 16, 0x3000, teid() + 1, ADDRESS);
                        answer[1] = 35;
                    } else if (view.version() == 2 && view.messageTypeValue() == 36) {
                        answer = GtpMessages.v2(37, 0x3000, view.sequence(),
                                new byte[] {2, 0, 2, 0, (byte) (deleteCause == 192 ? 64 : 16), 0});
                    } else if (!view.createsTunnel()) {
                        continue;
                    } else {
                        answer = switch (view.version()) {
                            case 0 -> GtpMessages.v0CreateResponse(view.sequence(), view.v0().tid(), cause);
                            case 1 -> GtpMessages.v1CreateResponse(view.sequence(), cause, 0x2000, teid(),
                                    ADDRESS);
                            default -> GtpMessages.v2CreateResponse(view.sequence(), v2Cause, 0x3000, teid(),
                                    ADDRESS);
                        };
                    }
                } catch (DecodeException e) {
                    continue;
                } finally {
                    buf.release();
                }
                byte[] junk = junkBeforeAnswer;
                if (junk != null) {
                    socket.send(new DatagramPacket(junk, junk.length, in.getSocketAddress()));
                }
                socket.send(new DatagramPacket(answer, answer.length, in.getSocketAddress()));
                if (answerTwice) {
                    socket.send(new DatagramPacket(answer, answer.length, in.getSocketAddress()));
                }
            } catch (IOException e) {
                // closed
            }
        }
    }

    /** Sends a request of this real's own (GGSN/PGW-initiated) from its socket. */
    void send(byte[] request, InetSocketAddress to) throws IOException {
        socket.send(new DatagramPacket(request, request.length, to));
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        thread.join(2000);
    }
}
