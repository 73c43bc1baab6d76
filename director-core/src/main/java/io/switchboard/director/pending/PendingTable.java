package io.switchboard.director.pending;

import io.netty.util.collection.LongObjectHashMap;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Requests forwarded to reals and not yet answered, keyed by (real slot, transaction id), bounded
 * and expiring. One table per event loop, used only from that loop, so it needs no locks. All
 * entries share one timeout, so insertion order is expiry order and expiry only looks at the head.
 *
 * <p>On the packet path every request is put, looked up and removed once: the keys are primitive
 * (Netty's open-addressing {@link LongObjectHashMap}, no boxing, no node per entry), and the
 * expiry order is a queue of the entries in insertion order in which an answered entry is only
 * marked, and skipped when it reaches the head.
 *
 * @param <T> what the director needs to finish the transaction (the client, the flow, ...)
 */
public final class PendingTable<T> {

    private final int capacity;
    private final long timeoutNanos;
    private final Consumer<T> onExpired;
    private final LongObjectHashMap<Entry<T>> entries = new LongObjectHashMap<>(1024);
    /** Every entry put, oldest first, answered ones included until they reach the head. */
    private final ArrayDeque<Entry<T>> byAge = new ArrayDeque<>();

    private static final class Entry<T> {
        final long key;
        final long deadlineNanos;
        /** Null once answered (or drained): the entry only waits to leave {@link #byAge}. */
        T value;

        Entry(long key, T value, long deadlineNanos) {
            this.key = key;
            this.value = value;
            this.deadlineNanos = deadlineNanos;
        }
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
        long key = key(realSlot, transactionId);
        if (entries.size() >= capacity || entries.containsKey(key)) {
            return false;
        }
        Entry<T> e = new Entry<>(key, value, nowNanos + timeoutNanos);
        entries.put(key, e);
        byAge.addLast(e);
        return true;
    }

    /** The pending request answered by this transaction, removed; null if none (late or unknown). */
    public T remove(int realSlot, long transactionId) {
        Entry<T> e = entries.remove(key(realSlot, transactionId));
        if (e == null) {
            return null;
        }
        T value = e.value;
        e.value = null;
        dropAnsweredHead();
        return value;
    }

    /** Answers mostly come in order: letting go of answered entries at the head keeps the queue short. */
    private void dropAnsweredHead() {
        Entry<T> head;
        while ((head = byAge.peekFirst()) != null && head.value == null) {
            byAge.pollFirst();
        }
    }

    /** The pending request of this transaction, left in the table; null if none. */
    public T get(int realSlot, long transactionId) {
        Entry<T> e = entries.get(key(realSlot, transactionId));
        return e == null ? null : e.value;
    }

    public boolean contains(int realSlot, long transactionId) {
        return entries.containsKey(key(realSlot, transactionId));
    }

    /** Removes every request whose answer is overdue and hands each to the expiry handler. */
    public int expire(long nowNanos) {
        int expired = 0;
        Entry<T> head;
        while ((head = byAge.peekFirst()) != null && (head.value == null || head.deadlineNanos - nowNanos <= 0)) {
            byAge.pollFirst();
            T value = head.value;
            if (value != null) {
                head.value = null;
                entries.remove(head.key);
                expired++;
                onExpired.accept(value);
            }
        }
        return expired;
    }

    /** Removes every pending request, handing each to {@code onRemoved} (on close, to release what they hold). */
    public void drain(Consumer<T> onRemoved) {
        Entry<T> e;
        while ((e = byAge.pollFirst()) != null) {
            T value = e.value;
            if (value != null) {
                e.value = null;
                entries.remove(e.key);
                onRemoved.accept(value);
            }
        }
    }

    public int size() {
        return entries.size();
    }

    public int capacity() {
        return capacity;
    }
}
