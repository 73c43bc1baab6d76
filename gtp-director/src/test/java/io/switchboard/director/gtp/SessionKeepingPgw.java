package io.switchboard.director.gtp;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A PGW stand-in that keeps sessions, for the impairment test: GTPv2 only, one bearer per subscriber.
 * A Create Session Request opens a session under a TEID of its own, replacing the subscriber's
 * session if it has one (TS 29.274 §7.2.1: a colliding create is a new session, the old one deleted
 * locally); a Delete Session Request for its TEID ends it (cause 16), for an unknown TEID answers 64
 * "Context Not Found". A retransmitted request (same source, same sequence) is not processed again:
 * the answer sent before goes again (TS 29.274 §7.6). Not a real PGW: the test's count of what the
 * network holds. {@link #main} runs some in a network namespace of their own for {@link
 * GtpNetnsImpairmentIT}.
 */
final class SessionKeepingPgw implements AutoCloseable {

    private final DatagramSocket socket;
    private final AtomicLong nextTeid = new AtomicLong(0x10_0000);
    /** Open sessions: IMSI → this PGW's TEID. */
    final Map<String, Long> sessions = new ConcurrentHashMap<>();
    /** This PGW's TEID → the subscriber and the peer's TEID-C (the header TEID of what goes to it). */
    private final Map<Long, Session> byTeid = new ConcurrentHashMap<>();

    private record Session(String imsi, long peerTeid) {
    }
    /** Answers by (source, sequence), for retransmissions. */
    private final Map<String, byte[]> answered = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> createsByImsi = new ConcurrentHashMap<>();
    final AtomicInteger retransmissions = new AtomicInteger();

    SessionKeepingPgw() throws IOException {
        this(InetAddress.getByName("127.0.0.1"));
    }

    SessionKeepingPgw(InetAddress local) throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(local, 0));
        Thread t = new Thread(this::serve, "session-keeping-pgw-" + socket.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    /**
     * One PGW on each address of {@code args}; prints {@code pgw ADDRESS PORT} for each, then answers
     * {@code state} on standard input with {@code state SESSIONS RETRANSMISSIONS IMSI=CREATES...} per
     * PGW (in the order of the arguments) and {@code end}; stops at the end of the input.
     */
    public static void main(String[] args) throws IOException {
        // A create and a Delete through a PGW of its own first: a JVM just started on a loaded machine can
        // take seconds over its first message (class loading, the codec's first use), longer than the
        // MMEs' T3 × N3, and the test is about the network, not about a cold stand-in.
        try (SessionKeepingPgw warm = new SessionKeepingPgw()) {
            GtpMessageView view = new GtpMessageView();
            InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", 9);
            byte[] created = warm.answer(view, GtpMessages.v2CreateRequest("001010000000001", 1, 1,
                    new byte[] {127, 0, 0, 1}, null, "internet", 5), nobody);
            long teid = new GtpMessageView().wrap(Unpooled.wrappedBuffer(created)).senderControlPlane().teid();
            warm.answer(view, GtpMessages.v2(36, teid, 2, new byte[] {73, 0, 1, 0, 5}), nobody);
        } catch (DecodeException e) {
            throw new IllegalStateException("the warm-up create's answer", e);
        }
        List<SessionKeepingPgw> pgws = new ArrayList<>();
        for (String a : args) {
            SessionKeepingPgw pgw = new SessionKeepingPgw(InetAddress.getByName(a));
            pgws.add(pgw);
            System.out.println("pgw " + a + " " + pgw.address().getPort());
        }
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("state")) {
                for (SessionKeepingPgw p : pgws) {
                    StringBuilder out = new StringBuilder("state " + p.sessions.size() + " " + p.retransmissions.get());
                    p.createsByImsi.forEach((imsi, n) -> out.append(' ').append(imsi).append('=').append(n.get()));
                    System.out.println(out);
                }
                System.out.println("end");
                System.out.flush();
            }
        }
        pgws.forEach(SessionKeepingPgw::close);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    private void serve() {
        GtpMessageView view = new GtpMessageView();
        while (!socket.isClosed()) {
            try {
                DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                socket.receive(in);
                byte[] bytes = Arrays.copyOf(in.getData(), in.getLength());
                byte[] answer = answer(view, bytes, in.getSocketAddress());
                if (answer != null) {
                    socket.send(new DatagramPacket(answer, answer.length, in.getSocketAddress()));
                }
            } catch (IOException e) {
                // closed
            }
        }
    }

    private byte[] answer(GtpMessageView view, byte[] bytes, SocketAddress from) {
        try {
            view.wrap(Unpooled.wrappedBuffer(bytes));
            if (view.version() != 2 || !view.isRequest()) {
                return null;
            }
            String transaction = from + "/" + view.sequence();
            byte[] before = answered.get(transaction);
            if (before != null) {
                retransmissions.incrementAndGet();
                return before;
            }
            byte[] answer;
            if (view.messageTypeValue() == 32) {
                String imsi = view.imsi();
                long requesterTeid = view.senderControlPlane().teid();
                long teid = nextTeid.incrementAndGet();
                Long replaced = sessions.put(imsi, teid);
                if (replaced != null) {
                    byTeid.remove(replaced);
                }
                byTeid.put(teid, new Session(imsi, requesterTeid));
                createsByImsi.computeIfAbsent(imsi, i -> new AtomicInteger()).incrementAndGet();
                answer = GtpMessages.v2CreateResponse(view.sequence(), 16, requesterTeid, teid, GtpResponder.ADDRESS);
            } else if (view.messageTypeValue() == 36) {
                Session session = byTeid.remove(view.teid());
                boolean known = session != null && sessions.remove(session.imsi(), view.teid());
                // TS 29.274 §5.5.2: the peer's TEID-C in the header; 0 when the context is not found.
                answer = GtpMessages.v2(37, known ? session.peerTeid() : 0, view.sequence(),
                        new byte[] {2, 0, 2, 0, (byte) (known ? 16 : 64), 0});
            } else {
                return null;
            }
            answered.put(transaction, answer);
            return answer;
        } catch (DecodeException e) {
            return null;
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
