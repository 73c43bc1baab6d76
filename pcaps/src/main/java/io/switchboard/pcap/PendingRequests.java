package io.switchboard.pcap;

import io.switchboard.director.real.RealServer;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The requests of one virtual server that an offline run's reals have not answered, as the live
 * upstream keeps them (TransactionUpstream's pending table and one-way entries): a request whose real
 * took it without answer (the capture has none) waits for its response timeout, and then counts as
 * unanswered at its real (in-band failure detection); a request forwarded one way is remembered as
 * long. Meanwhile the same client's request with the same transaction id is a retransmission: to the
 * same real, not balanced again.
 */
final class PendingRequests {

    /**
     * @param directorId the transaction id it was forwarded under (a retransmission is forwarded under it again)
     * @param context what {@code prepareRequest} returned for it (an answer to a retransmission is read with it)
     * @param oneWay  forwarded one way: nothing waits for an answer, nothing counts at expiry
     */
    record Pending(RealServer real, long deadlineNanos, long directorId, Object context, boolean oneWay) {
    }

    private record Client(InetSocketAddress address, long transactionId) {
    }

    private final long timeoutNanos;
    /** Oldest first: all share one timeout. */
    private final LinkedHashMap<Client, Pending> pending = new LinkedHashMap<>();

    PendingRequests(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** The request of {@code client} with {@code transactionId} still pending at {@code nowNanos}, or null. */
    Pending find(InetSocketAddress client, long transactionId, long nowNanos) {
        Pending p = pending.get(new Client(client, transactionId));
        return p != null && p.deadlineNanos() - nowNanos > 0 ? p : null;
    }

    void add(InetSocketAddress client, long transactionId, RealServer real, long directorId, Object context,
             boolean oneWay, long nowNanos) {
        Client key = new Client(client, transactionId);
        pending.remove(key); // an expired one-way entry: the new one goes to the end
        pending.put(key, new Pending(real, nowNanos + timeoutNanos, directorId, context, oneWay));
    }

    /**
     * Whether a request is pending at {@code real} under {@code directorId}: a plug-in that keeps the
     * client's ids (Mobile IP, R6) cannot send another one under it there ({@code pending-full}).
     */
    boolean pendingAt(RealServer real, long directorId, long nowNanos) {
        for (Pending p : pending.values()) {
            if (!p.oneWay() && p.real() == real && p.directorId() == directorId && p.deadlineNanos() - nowNanos > 0) {
                return true;
            }
        }
        return false;
    }

    /** The real answered it at last (a retransmission's answer). */
    void answered(InetSocketAddress client, long transactionId) {
        pending.remove(new Client(client, transactionId));
    }

    /** Ends what waited for its timeout: an unanswered request counts at its real, as the live director counts it. */
    void expire(long nowNanos) {
        for (Iterator<Map.Entry<Client, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Client, Pending> e = it.next();
            Pending p = e.getValue();
            if (p.deadlineNanos() - nowNanos > 0) {
                return;
            }
            it.remove();
            if (!p.oneWay()) {
                p.real().requestUnanswered(e.getKey().address().getAddress(), nowNanos);
            }
        }
    }
}
