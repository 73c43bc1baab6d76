package io.switchboard.director.radius;

import io.switchboard.director.Ticker;
import io.switchboard.director.config.StickyKind;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Correlated VSA values by subscriber, with a deadline each. The virtual servers of one sticky group
 * share one store (found through their shared sticky table), so what the auth virtual server saw is
 * injected by the acct virtual server; and the store is a {@link SharedTable}, so that in a cluster an
 * Accounting-Start reaching another node than the subscriber's Access-Request (the GGSN and the NAS
 * are different clients, which ECMP spreads over different nodes) still gets the value.
 *
 * <p>Deadlines are wall-clock milliseconds, comparable on every node: this node's wall clock when the
 * store was made, moved on by the engine's ticker (so tests drive the hold with the ticker).
 */
final class VsaStore {

    private static final Map<StickyTable, VsaStore> BY_TABLE = Collections.synchronizedMap(new WeakHashMap<>());
    private static final int SWEEP_EVERY = 4096;

    /** A held value and when it lapses. */
    record Held(byte[] value, long deadlineMillis) {
    }

    private final SharedTable<StickyKey, Held> values;
    private final Ticker ticker;
    private final long wallMillisAtStart;
    private final long tickerAtStart;
    private final AtomicInteger inserts = new AtomicInteger();

    VsaStore(SharedTable<StickyKey, Held> values, Ticker ticker) {
        this.values = values;
        this.ticker = ticker;
        this.wallMillisAtStart = System.currentTimeMillis();
        this.tickerAtStart = ticker.nanos();
    }

    /**
     * The store of the virtual servers sharing {@code sticky} (one per sticky group on this node), or
     * one of {@code virtualServer}'s own without a sticky table; its shared table is named after the
     * group or the virtual server, so every node's virtual servers of that name share it.
     */
    static VsaStore of(StickyTable sticky, SharedTables tables, String groupOrVirtualServer, Ticker ticker) {
        if (sticky == null) {
            return open(tables, groupOrVirtualServer, ticker);
        }
        return BY_TABLE.computeIfAbsent(sticky, t -> open(tables, groupOrVirtualServer, ticker));
    }

    private static VsaStore open(SharedTables tables, String name, Ticker ticker) {
        return new VsaStore(tables.open("radius/vsa/" + name, KEYS, VALUES), ticker);
    }

    /** Holds {@code value} for {@code subscriber} until {@code hold} from now. */
    void put(StickyKey subscriber, byte[] value, long holdNanos) {
        long now = nowMillis();
        values.put(subscriber, new Held(value, now + TimeUnit.NANOSECONDS.toMillis(holdNanos)));
        if (inserts.incrementAndGet() % SWEEP_EVERY == 0) {
            values.forEach((k, held) -> {
                if (held.deadlineMillis - now <= 0) {
                    values.remove(k);
                }
            });
        }
    }

    /** The live value for {@code subscriber}, or null. */
    byte[] get(StickyKey subscriber) {
        Held held = values.get(subscriber);
        return held == null || held.deadlineMillis - nowMillis() <= 0 ? null : held.value;
    }

    long size() {
        return values.size();
    }

    private long nowMillis() {
        return wallMillisAtStart + TimeUnit.NANOSECONDS.toMillis(ticker.nanos() - tickerAtStart);
    }

    /**
     * A subscriber key between nodes: the kind's configuration name (length-prefixed, so the wire
     * does not depend on the enum's order), then the key's bytes.
     */
    static final Codec<StickyKey> KEYS = new Codec<>() {
        @Override
        public byte[] encode(StickyKey key) {
            byte[] kind = key.kind().configName().getBytes(StandardCharsets.US_ASCII);
            byte[] value = key.value();
            return ByteBuffer.allocate(1 + kind.length + value.length).put((byte) kind.length).put(kind).put(value)
                    .array();
        }

        @Override
        public StickyKey decode(byte[] bytes) {
            if (bytes.length < 1 || bytes.length < 1 + bytes[0]) {
                throw new IllegalArgumentException("VSA store key of " + bytes.length + " bytes is truncated");
            }
            String name = new String(bytes, 1, bytes[0], StandardCharsets.US_ASCII);
            StickyKind kind = StickyKind.fromConfigName(name)
                    .orElseThrow(() -> new IllegalArgumentException("unknown sticky kind '" + name + "'"));
            return StickyKey.of(kind, Arrays.copyOfRange(bytes, 1 + bytes[0], bytes.length));
        }
    };

    /** A held value between nodes: its deadline (8 octets, epoch milliseconds), then the VSA's value. */
    static final Codec<Held> VALUES = new Codec<>() {
        @Override
        public byte[] encode(Held held) {
            return ByteBuffer.allocate(8 + held.value.length).putLong(held.deadlineMillis).put(held.value).array();
        }

        @Override
        public Held decode(byte[] bytes) {
            if (bytes.length < 8) {
                throw new IllegalArgumentException("VSA store value of " + bytes.length + " bytes is truncated");
            }
            return new Held(Arrays.copyOfRange(bytes, 8, bytes.length), ByteBuffer.wrap(bytes).getLong());
        }
    };
}
