package io.switchboard.director.gtp.demo;

import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.v2.DefaultGtpV2Message;
import io.switchboard.codec.gtp.v2.GtpV2Cause;
import io.switchboard.codec.gtp.v2.GtpV2Ie;
import io.switchboard.codec.gtp.v2.GtpV2Message;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;

/**
 * A SIMULATED SGW for the GTP demo, not a real one: it sends GTPv2-C Create Session Requests on S5/S8
 * (TS 29.274 §7.2.1) to the director's virtual address, one at a time, and later Delete Session
 * Requests (§7.2.9) to whatever control-plane address and TEID the answer named (with
 * {@code gtp-inspect}: the director's), and waits for each answer.
 */
final class SimulatedSgw implements AutoCloseable {

    /** TS 29.274 §8.22 Table 8.22-1: S5/S8 SGW GTP-C. */
    static final int S5_S8_SGW_GTP_C = 6;

    /**
     * A create's outcome: the cause, and for an accepted one the peer's control-plane endpoint that
     * later requests of the session go to, and how many answers arrived (a requester must see one).
     */
    record Session(String imsi, String apn, int ebi, long ownTeid, int cause, GtpControlEndpoint peer, int answers) {
        boolean accepted() {
            return answers > 0 && GtpV2Cause.of(cause).isAccepted();
        }
    }

    private final DatagramSocket socket;
    private final Inet4Address address;
    private final InetSocketAddress virtualServer;
    private final Duration timeout;
    private int sequence = 1;
    private long nextTeid = 0x5000;

    SimulatedSgw(Inet4Address address, InetSocketAddress virtualServer, Duration timeout) throws IOException {
        this.address = address;
        this.virtualServer = virtualServer;
        this.timeout = timeout;
        this.socket = new DatagramSocket(new InetSocketAddress(address, 0));
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** One Create Session Request for a PDN connection (APN, default bearer EBI); cause 0 when no answer came. */
    Session create(String imsi, String apn, int ebi) throws IOException {
        long teid = nextTeid++;
        int seq = sequence++;
        send(new DefaultGtpV2Message(GtpV2MessageType.CREATE_SESSION_REQUEST, 0, seq, List.of(
                new GtpV2Ie.Imsi(0, imsi),
                new GtpV2Ie.Fteid(0, S5_S8_SGW_GTP_C, teid, address, null),
                new GtpV2Ie.Apn(0, apn),
                new GtpV2Ie.BearerContext(0, List.of(new GtpV2Ie.Ebi(0, ebi))))), virtualServer);
        List<GtpV2Message> answers = answersTo(seq);
        if (answers.isEmpty()) {
            return new Session(imsi, apn, ebi, teid, 0, null, 0);
        }
        GtpV2Message answer = answers.get(0);
        return new Session(imsi, apn, ebi, teid, answer.cause().map(c -> c.value()).orElse(0),
                answer.senderControlPlane().orElse(null), answers.size());
    }

    /** A Delete Session Request for {@code session}, sent where its create's answer said; the cause, 0 on no answer. */
    int delete(Session session) throws IOException {
        int seq = sequence++;
        // Requests go to the peer's GTP-C address (TS 29.274 §4.2: port 2123); here the virtual server's port.
        InetSocketAddress to = new InetSocketAddress(session.peer().ipv4(), virtualServer.getPort());
        send(new DefaultGtpV2Message(GtpV2MessageType.DELETE_SESSION_REQUEST, session.peer().teid(), seq,
                List.of(new GtpV2Ie.Ebi(0, session.ebi()))), to); // Linked EPS Bearer ID, §7.2.9.1
        List<GtpV2Message> answers = answersTo(seq);
        return answers.isEmpty() ? 0 : answers.get(0).cause().map(c -> c.value()).orElse(0);
    }

    private void send(GtpV2Message message, InetSocketAddress to) throws IOException {
        byte[] bytes = GtpV2Datagrams.bytes(message);
        socket.send(new DatagramPacket(bytes, bytes.length, to));
    }

    /**
     * The answers with sequence {@code seq}: the first within the timeout, then any more that arrive
     * within a short grace period (a director that let a refused answer through would show here).
     */
    private List<GtpV2Message> answersTo(int seq) throws IOException {
        List<GtpV2Message> answers = new java.util.ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        long grace = Duration.ofMillis(100).toNanos();
        byte[] buffer = new byte[65_536];
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return answers;
            }
            socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
            DatagramPacket in = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(in);
            } catch (SocketTimeoutException e) {
                return answers;
            }
            try {
                GtpV2Message m = GtpV2Datagrams.decode(in);
                if (m.sequence() == seq) {
                    answers.add(m);
                    deadline = Math.min(deadline, System.nanoTime() + grace);
                }
            } catch (DecodeException e) {
                System.err.println("simulated SGW: undecodable answer: " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
