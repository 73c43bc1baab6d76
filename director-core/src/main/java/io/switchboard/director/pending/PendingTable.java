package io.switchboard.director.pending;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.function.Consumer;

/**
 * Requests forwarded to reals and not yet answered, keyed by (real slot, transaction id), bounded
 * and expiring. One table per event loop, used only from that loop, so it needs no locks. All
 * entries share one timeout, so insertion order is expiry order and expiry only looks at the head.
 *
 * @param <T> what the director needs to finish the transaction (the client, the flow, ...)
 */
public final class PendingTable<T> {

    private final int capacity;
    private final long timeoutNanos;
    private final Consumer<T> onExpired;
    private final LinkedHashMap<Long, Entry<T>> entries = new LinkedHashMap<>();

    private record Entry<T>(T value, long deadlineNanos) {
    }

    public PendingTable(int capacity, long timeoutNanos, Consumer<T> onExpired) {
        if (capacity < 1 || timeoutNanos <= 0) {
            throw new IllegalArgumentException("capacity and timeout must be positive");
        }
        this.capacity = capacity;
        this.timeoutNanos = timeoutNanos;
        this.onExpired = onExpired;
    }

    /** Transaction ids use the low 40 bits; the real's slot the bits above. */
    static long key(int realSlot, long transactionId) {
        return ((long) realSlot << 40) | (transactionId & 0xFF_FFFF_FFFFL);
    }

    /**
     * Remembers a forwarded request.
     *
     * @return false when the table is full or the key is already pending (nothing stored)
     */
    public boolean put(int realSlot, long transactionId, T value, long nowNanos) {
        if (entries.size() >= capacity) {
            return false;
        }
        return entries.putIfAbsent(key(realSlot, transactionId), new Entry<>(value, nowNanos + timeoutNanos)) == null;
    }

    /** The pending request answered by this transaction, removed; null if none (late or unknown). */
    public T remove(int realSlot, long transactionId) {
        Entry<T> e = entries.remove(key(realSlot, transactionId));
        return e == null ? null : e.value;
    }

    public boolean contains(int realSlot, long transactionId) {
        return entries.containsKey(key(realSlot, transactionId));
    }

    /** Removes every request whose answer is overdue and hands each to the expiry handler. */
    public int expire(long nowNanos) {
        int expired = 0;
        for (Iterator<Entry<T>> it = entries.values().iterator(); it.hasNext(); ) {
            Entry<T> e = it.next();
            if (e.deadlineNanos - nowNanos > 0) {
                break;
            }
            it.remove();
            expired++;
            onExpired.accept(e.value);
        }
        return expired;
    }

    /** Removes every pending request, handing each to {@code onRemoved} (on close, to release what they hold). */
    public void drain(Consumer<T> onRemoved) {
        for (Iterator<Entry<T>> it = entries.values().iterator(); it.hasNext(); ) {
            Entry<T> e = it.next();
            it.remove();
            onRemoved.accept(e.value);
        }
    }

    public int size() {
        return entries.size();
    }

    public int capacity() {
        return capacity;
    }
}
