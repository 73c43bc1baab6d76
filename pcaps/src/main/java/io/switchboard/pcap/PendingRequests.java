package io.switchboard.pcap;

import io.switchboard.director.real.RealServer;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests of one virtual server that an offline run's reals have not answered, as the live
 * upstream keeps them (TransactionUpstream's pending table and one-way entries): a request whose real
 * took it without answer (the capture has none) waits for its response timeout, and then counts as
 * unanswered at its real (in-band failure detection); a request forwarded one way is remembered as
 * long. Meanwhile the same client's request with the same transaction id is a retransmission: to the
 * same real, not balanced again. A fanned-out request has one entry per real it went to.
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

    private record Entry(Client client, Pending pending) {
    }

    private final long timeoutNanos;
    /** Oldest first: all share one timeout. */
    private final ArrayDeque<Entry> byAge = new ArrayDeque<>();
    private final Map<Client, List<Pending>> byClient = new HashMap<>();

    PendingRequests(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** The request of {@code client} with {@code transactionId} still pending at {@code nowNanos}, or null. */
    Pending find(InetSocketAddress client, long transactionId, long nowNanos) {
        List<Pending> legs = byClient.get(new Client(client, transactionId));
        return legs == null || legs.isEmpty() || legs.get(0).deadlineNanos() - nowNanos <= 0 ? null : legs.get(0);
    }

    void add(InetSocketAddress client, long transactionId, RealServer real, long directorId, Object context,
             boolean oneWay, long nowNanos) {
        Client key = new Client(client, transactionId);
        Pending pending = new Pending(real, nowNanos + timeoutNanos, directorId, context, oneWay);
        byClient.computeIfAbsent(key, k -> new ArrayList<>()).add(pending);
        byAge.addLast(new Entry(key, pending));
    }

    /**
     * Whether a request is pending at {@code real} under {@code directorId}: a plug-in that keeps the
     * client's ids (Mobile IP, R6) cannot send another one under it there ({@code pending-full}).
     */
    boolean pendingAt(RealServer real, long directorId, long nowNanos) {
        for (Entry e : byAge) {
            Pending p = e.pending();
            if (!p.oneWay() && p.real() == real && p.directorId() == directorId && p.deadlineNanos() - nowNanos > 0) {
                return true;
            }
        }
        return false;
    }

    /** The real of {@code answered} answered it at last (a retransmission's answer). */
    void answered(InetSocketAddress client, long transactionId, Pending answered) {
        List<Pending> legs = byClient.get(new Client(client, transactionId));
        if (legs != null) {
            legs.remove(answered);
        }
        byAge.removeIf(e -> e.pending() == answered);
    }

    /** Ends what waited for its timeout: an unanswered request counts at its real, as the live director counts it. */
    void expire(long nowNanos) {
        while (!byAge.isEmpty() && byAge.peekFirst().pending().deadlineNanos() - nowNanos <= 0) {
            Entry e = byAge.pollFirst();
            List<Pending> legs = byClient.get(e.client());
            legs.remove(e.pending());
            if (legs.isEmpty()) {
                byClient.remove(e.client());
            }
            if (!e.pending().oneWay()) {
                e.pending().real().requestUnanswered(e.client().address().getAddress(), nowNanos);
            }
        }
    }
}
