package io.switchboard.director.transaction;

import io.switchboard.director.real.RealServer;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What makes a retransmission recognisable: the client's transaction of every request still
 * pending, and of every request forwarded one way within the response timeout (the real answers the
 * client directly, or nothing answers), with the real it went to. A retransmission goes there again,
 * not to a real balanced anew. A fanned-out request is found by its first unanswered copy.
 */
final class Retransmissions {

    private record OneWay(RealServer real, long deadlineNanos) {
    }

    private final int capacity;
    private final long timeoutNanos;
    private final Map<Pending.ClientTransaction, Pending> pending = new HashMap<>();
    /** Oldest first: all share one timeout, so the head is the next to go. */
    private final LinkedHashMap<Pending.ClientTransaction, OneWay> oneWay = new LinkedHashMap<>();

    Retransmissions(int capacity, long timeoutNanos) {
        this.capacity = capacity;
        this.timeoutNanos = timeoutNanos;
    }

    /** The pending request the client's transaction is a retransmission of, or null. */
    Pending pending(Pending.ClientTransaction transaction) {
        return pending.get(transaction);
    }

    /** The real a request of the client's transaction went to one way within the timeout, or null. */
    RealServer sentOneWay(Pending.ClientTransaction transaction, long now) {
        OneWay sent = oneWay.get(transaction);
        return sent != null && sent.deadlineNanos - now > 0 ? sent.real : null;
    }

    /** A request just made pending (the first copy of a fanned-out request is the one found). */
    void pending(Pending request) {
        pending.putIfAbsent(request.clientTransaction(), request);
        if (request.fanOut() != null) {
            request.fanOut().legs.add(request);
        }
    }

    /** A request sent one way to {@code real}. */
    void sentOneWay(Pending.ClientTransaction transaction, RealServer real, long now) {
        if (oneWay.size() < capacity) {
            oneWay.remove(transaction); // an expired entry: the new one goes to the end
            oneWay.put(transaction, new OneWay(real, now + timeoutNanos));
        }
    }

    /**
     * A pending request left the table (answered, expired); a fanned-out request's entry is handed to
     * another copy while one is unanswered.
     */
    void settled(Pending request) {
        Pending.FanOut group = request.fanOut();
        if (group == null) {
            pending.remove(request.clientTransaction(), request);
            return;
        }
        group.legs.remove(request);
        if (pending.get(request.clientTransaction()) == request) {
            if (group.legs.isEmpty()) {
                pending.remove(request.clientTransaction());
            } else {
                pending.put(request.clientTransaction(), group.legs.get(0));
            }
        }
    }

    /** Forgets the requests sent one way whose timeout passed. */
    void expire(long now) {
        Iterator<OneWay> oldest = oneWay.values().iterator();
        while (oldest.hasNext()) {
            if (oldest.next().deadlineNanos - now > 0) {
                break;
            }
            oldest.remove();
        }
    }

    void clear() {
        pending.clear();
        oneWay.clear();
    }
}
