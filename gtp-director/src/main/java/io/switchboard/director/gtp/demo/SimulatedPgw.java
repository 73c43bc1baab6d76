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
import java.net.SocketException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A SIMULATED PGW for the GTP demo, not a real one: a GTPv2-C responder on S5/S8 that keeps a context
 * per accepted Create Session Request (TS 29.274 §7.2.1/§7.2.2) under a TEID of its own, ends it on a
 * Delete Session Request for that TEID (§7.2.9/§7.2.10; an unknown TEID gets Context Not Found), and
 * answers Echo Requests. It can be told to run out of resources: creates are then refused with cause
 * 73, No resources available, which {@code gtp-inspect} treats as a resource cause.
 */
final class SimulatedPgw implements AutoCloseable {

    /** TS 29.274 §8.22 Table 8.22-1: S5/S8 PGW GTP-C. */
    static final int S5_S8_PGW_GTP_C = 7;

    /** A session's context: whose, which PDN connection, and the requester's TEID-C for the answers. */
    record Context(String imsi, String apn, int ebi, long requesterTeid) {
    }

    private final String name;
    private final DatagramSocket socket;
    private final Inet4Address address;
    private final Thread thread;
    private final Map<Long, Context> contexts = new ConcurrentHashMap<>();
    private final AtomicInteger creates = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger deletes = new AtomicInteger();
    private final AtomicInteger nextTeid = new AtomicInteger(0x1000);
    private volatile boolean outOfResources;

    SimulatedPgw(String name, Inet4Address address) throws SocketException {
        this.name = name;
        this.address = address;
        this.socket = new DatagramSocket(new InetSocketAddress(address, 0));
        this.thread = new Thread(this::serve, "simulated-pgw-" + name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void serve() {
        byte[] buffer = new byte[65_536];
        while (!socket.isClosed()) {
            try {
                DatagramPacket in = new DatagramPacket(buffer, buffer.length);
                socket.receive(in);
                GtpV2Message answer = answer(GtpV2Datagrams.decode(in));
                if (answer != null) {
                    byte[] bytes = GtpV2Datagrams.bytes(answer);
                    socket.send(new DatagramPacket(bytes, bytes.length, in.getSocketAddress()));
                }
            } catch (DecodeException e) {
                System.err.println("simulated PGW " + name + ": undecodable datagram: " + e.getMessage());
            } catch (IOException e) {
                if (!socket.isClosed()) {
                    System.err.println("simulated PGW " + name + ": " + e);
                }
            }
        }
    }

    private GtpV2Message answer(GtpV2Message request) {
        GtpV2MessageType type = request.type();
        if (type.equals(GtpV2MessageType.ECHO_REQUEST)) {
            return new DefaultGtpV2Message(GtpV2MessageType.ECHO_RESPONSE, request.sequence(),
                    List.of(new GtpV2Ie.Recovery(0, 1)));
        }
        if (type.equals(GtpV2MessageType.CREATE_SESSION_REQUEST)) {
            return create(request);
        }
        if (type.equals(GtpV2MessageType.DELETE_SESSION_REQUEST)) {
            return delete(request);
        }
        return null; // nothing else is simulated
    }

    private GtpV2Message create(GtpV2Message request) {
        creates.incrementAndGet();
        // The response goes to the TEID the requester named in its sender F-TEID (§5.5.2).
        long requesterTeid = request.senderControlPlane().map(GtpControlEndpoint::teid).orElse(0L);
        int ebi = request.bearerContexts().stream().flatMap(b -> b.ies().stream())
                .filter(GtpV2Ie.Ebi.class::isInstance).map(e -> ((GtpV2Ie.Ebi) e).ebi()).findFirst().orElse(5);
        if (outOfResources) {
            refused.incrementAndGet();
            return new DefaultGtpV2Message(GtpV2MessageType.CREATE_SESSION_RESPONSE, requesterTeid, request.sequence(),
                    List.of(cause(GtpV2Cause.NO_RESOURCES_AVAILABLE)));
        }
        long teid = nextTeid.getAndIncrement();
        contexts.put(teid, new Context(request.imsi().orElse("?"),
                request.first(GtpV2Ie.Apn.class, 0).map(GtpV2Ie.Apn::name).orElse("?"), ebi, requesterTeid));
        return new DefaultGtpV2Message(GtpV2MessageType.CREATE_SESSION_RESPONSE, requesterTeid, request.sequence(),
                List.of(cause(GtpV2Cause.REQUEST_ACCEPTED),
                        new GtpV2Ie.Fteid(0, S5_S8_PGW_GTP_C, teid, address, null),
                        new GtpV2Ie.BearerContext(0, List.of(new GtpV2Ie.Ebi(0, ebi), cause(GtpV2Cause.REQUEST_ACCEPTED)))));
    }

    private GtpV2Message delete(GtpV2Message request) {
        deletes.incrementAndGet();
        Context gone = contexts.remove(request.teid());
        return new DefaultGtpV2Message(GtpV2MessageType.DELETE_SESSION_RESPONSE, gone == null ? 0 : gone.requesterTeid(),
                request.sequence(), List.of(cause(gone == null ? GtpV2Cause.CONTEXT_NOT_FOUND : GtpV2Cause.REQUEST_ACCEPTED)));
    }

    private static GtpV2Ie.Cause cause(GtpV2Cause cause) {
        return new GtpV2Ie.Cause(0, cause.value(), 0, new byte[0]);
    }

    String name() {
        return name;
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** Refuse (true) or accept (false) new sessions. */
    void outOfResources(boolean out) {
        this.outOfResources = out;
    }

    /** The contexts held now, by TEID. */
    Map<Long, Context> contexts() {
        return new TreeMap<>(contexts);
    }

    int creates() {
        return creates.get();
    }

    int refused() {
        return refused.get();
    }

    int deletes() {
        return deletes.get();
    }

    @Override
    public void close() {
        socket.close();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
