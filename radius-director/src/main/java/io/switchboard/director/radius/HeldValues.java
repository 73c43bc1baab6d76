package io.switchboard.director.radius;

import io.switchboard.director.Ticker;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Values the plug-in holds for a while — the VSA seen in a subscriber's authentication, the
 * conversation of an Access-Challenge's State — in a {@link SharedTable}, so that in a cluster the
 * node that needs a value need not be the node that saw it. Reads are local; a put is one
 * asynchronous cluster write; lapsed values are swept every few thousand puts.
 *
 * <p>Deadlines are wall-clock milliseconds, comparable on every node: this node's wall clock when the
 * table was opened, moved on by the engine's ticker (so tests drive the hold with the ticker).
 */
final class HeldValues<K> {

    private static final int SWEEP_EVERY = 4096;

    /** A held value and when it lapses. */
    record Held(byte[] value, long deadlineMillis) {
    }

    private final SharedTable<K, Held> values;
    private final Ticker ticker;
    private final long wallMillisAtStart;
    private final long tickerAtStart;
    private final AtomicInteger puts = new AtomicInteger();

    private HeldValues(SharedTable<K, Held> values, Ticker ticker) {
        this.values = values;
        this.ticker = ticker;
        this.wallMillisAtStart = System.currentTimeMillis();
        this.tickerAtStart = ticker.nanos();
    }

    /** Opens (or joins, in a cluster) the table {@code name}; blocks while it catches up: attach only. */
    static <K> HeldValues<K> open(SharedTables tables, String name, Codec<K> keys, Ticker ticker) {
        return new HeldValues<>(tables.open(name, keys, HELD), ticker);
    }

    /** Holds {@code value} for {@code key} for {@code holdNanos} from now. */
    void put(K key, byte[] value, long holdNanos) {
        long now = nowMillis();
        values.put(key, new Held(value, now + TimeUnit.NANOSECONDS.toMillis(holdNanos)));
        if (puts.incrementAndGet() % SWEEP_EVERY == 0) {
            values.forEach((k, held) -> {
                if (held.deadlineMillis - now <= 0) {
                    values.remove(k);
                }
            });
        }
    }

    /** Lets go of {@code key}'s value before it lapses (an ended session); one asynchronous cluster write. */
    void remove(K key) {
        values.remove(key);
    }

    /** The value held for {@code key}, or null (none, or lapsed). */
    byte[] get(K key) {
        Held held = values.get(key);
        return held == null || held.deadlineMillis - nowMillis() <= 0 ? null : held.value;
    }

    /** Values in this node's copy, lapsed ones not yet swept included (walks the copy: not per packet). */
    long size() {
        return values.size();
    }

    private long nowMillis() {
        return wallMillisAtStart + TimeUnit.NANOSECONDS.toMillis(ticker.nanos() - tickerAtStart);
    }

    /** A held value between nodes: its deadline (8 octets, epoch milliseconds), then the value's bytes. */
    static final Codec<Held> HELD = new Codec<>() {
        @Override
        public byte[] encode(Held held) {
            return ByteBuffer.allocate(8 + held.value.length).putLong(held.deadlineMillis).put(held.value).array();
        }

        @Override
        public Held decode(byte[] bytes) {
            if (bytes.length < 8) {
                throw new IllegalArgumentException("held value of " + bytes.length + " bytes is truncated");
            }
            return new Held(Arrays.copyOfRange(bytes, 8, bytes.length), ByteBuffer.wrap(bytes).getLong());
        }
    };

    /** Octets as they are (a State attribute's value); the buffer is read from 0 to its limit. */
    static final Codec<ByteBuffer> OCTETS = new Codec<>() {
        @Override
        public byte[] encode(ByteBuffer octets) {
            byte[] bytes = new byte[octets.remaining()];
            octets.duplicate().get(bytes);
            return bytes;
        }

        @Override
        public ByteBuffer decode(byte[] bytes) {
            return ByteBuffer.wrap(bytes);
        }
    };
}
