package io.switchboard.director.transaction;

import io.switchboard.director.real.RealServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Requests a client sent to a real that the real answers not with a response but with a request of
 * its own or a failure indication, under the request's id (GTPv2 Commands, TS 29.274 §7.6: a Modify
 * Bearer Command is answered by an Update Bearer Request, or a Modify Bearer Failure Indication).
 * The engine forwards such a request one way ({@link io.switchboard.director.spi.Decision.Direct#triggers})
 * under a director id of this table and remembers it here until the real's answer comes, to a
 * director socket of any lane (where TS 29.274 §4.2.2 sends it: to the request's source) or to the
 * virtual address, or until the response timeout. A retransmission of the request goes to the same
 * real under the same id.
 *
 * <p>Per node and not shared, on purpose: the request leaves from this node's director socket, and
 * the real answers there. Shared by the virtual server's lanes, so thread-safe. Data structure: two
 * concurrent maps over the same entries, by the real's address and director id (the real's answer)
 * and by the client's transaction (its retransmission); ids from one counter, unique per real among
 * the entries.
 */
public final class TriggeringRequests {

    /**
     * A forwarded request the real has not answered yet.
     *
     * @param clientTransactionId the client's own id, restored in what goes back to it
     * @param context             what the plug-in's {@code prepareRequest} returned for it
     */
    public record Outstanding(RealServer real, InetSocketAddress client, long clientTransactionId, long id,
            Object context, long sinceNanos) {
    }

    private record ToReal(InetAddress real, long id) {
    }

    private record FromClient(InetSocketAddress client, long clientTransactionId) {
    }

    private final long idMask;
    private final long timeoutNanos;
    private final Map<ToReal, Outstanding> byReal = new ConcurrentHashMap<>();
    private final Map<FromClient, Outstanding> byClient = new ConcurrentHashMap<>();
    private final AtomicLong next = new AtomicLong();

    TriggeringRequests(int idBits, long timeoutNanos) {
        this.idMask = (1L << idBits) - 1;
        this.timeoutNanos = timeoutNanos;
    }

    /** The request the client sent under {@code clientTransactionId}, still outstanding: its retransmission. */
    Outstanding pending(InetSocketAddress client, long clientTransactionId) {
        return byClient.get(new FromClient(client, clientTransactionId));
    }

    /** An id for a request to {@code real} that no outstanding request to that real has. */
    long freeId(RealServer real) {
        InetAddress address = real.address().getAddress();
        long id = next.getAndIncrement() & idMask;
        for (long probe = 0; probe < idMask && byReal.containsKey(new ToReal(address, id)); probe++) {
            id = next.getAndIncrement() & idMask;
        }
        return id;
    }

    /** Remembers a forwarded request; one outstanding under the same id at that real is forgotten. */
    void put(Outstanding request) {
        Outstanding replaced = byReal.put(new ToReal(request.real().address().getAddress(), request.id()), request);
        if (replaced != null) {
            byClient.remove(new FromClient(replaced.client(), replaced.clientTransactionId()), replaced);
        }
        byClient.put(new FromClient(request.client(), request.clientTransactionId()), request);
    }

    /**
     * The request that a datagram from {@code real} under director id {@code id} answers, no longer
     * outstanding; or null (no such request: the real's datagram is its own).
     *
     * @param belongs whether the real's datagram is the answer of the request found (the plug-in's
     *                say: a triggered request answers only a Command of its own session)
     */
    Outstanding answered(InetAddress real, long id, Predicate<Outstanding> belongs) {
        if (byReal.isEmpty()) {
            return null;
        }
        ToReal key = new ToReal(real, id);
        Outstanding request = byReal.get(key);
        if (request == null || !belongs.test(request) || !byReal.remove(key, request)) {
            return null;
        }
        byClient.remove(new FromClient(request.client(), request.clientTransactionId()), request);
        return request;
    }

    /** Forgets requests forwarded longer than the response timeout ago; returns how many. */
    int expire(long now) {
        int expired = 0;
        for (Map.Entry<ToReal, Outstanding> e : byReal.entrySet()) {
            Outstanding request = e.getValue();
            if (now - request.sinceNanos() > timeoutNanos && byReal.remove(e.getKey(), request)) {
                byClient.remove(new FromClient(request.client(), request.clientTransactionId()), request);
                expired++;
            }
        }
        return expired;
    }

    /** Requests outstanding, for tests. */
    public int size() {
        return byReal.size();
    }
}
