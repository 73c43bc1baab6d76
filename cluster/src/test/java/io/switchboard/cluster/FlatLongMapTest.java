package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class FlatLongMapTest {

    /** One operation on both the map and a {@code HashMap} model. */
    record Op(int kind, long key, long value) {
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        // Few distinct keys, so that inserts, updates, removals and backward shifts meet in the same probe runs.
        Arbitrary<Long> keys = Arbitraries.longs().between(1, 3_000);
        Arbitrary<Long> values = Arbitraries.longs().between(1, 5);
        return Combinators.combine(Arbitraries.integers().between(0, 5), keys, values).as(Op::new)
                .list().ofMinSize(1).ofMaxSize(4_000);
    }

    @Property(tries = 200)
    void behavesAsAMapUnderAnyMixOfOperations(@ForAll("ops") List<Op> ops) {
        FlatLongMap map = new FlatLongMap();
        Map<Long, Long> model = new HashMap<>();
        for (Op op : ops) {
            switch (op.kind()) {
                case 0, 1 -> { // set
                    map.update(op.key(), current -> op.value());
                    model.put(op.key(), op.value());
                }
                case 2 -> { // remove
                    map.update(op.key(), current -> 0);
                    model.remove(op.key());
                }
                case 3 -> { // compare and set
                    long expected = model.getOrDefault(op.key(), 0L) == op.value() ? op.value() : op.value() + 1;
                    boolean set = map.compareAndSet(op.key(), expected, op.value() + 10);
                    boolean modelSet = model.getOrDefault(op.key(), 0L) == expected;
                    assertThat(set).isEqualTo(modelSet);
                    if (modelSet) {
                        model.put(op.key(), op.value() + 10);
                    }
                }
                case 4 -> { // removeIf on one value
                    int removed = map.removeIf(v -> v == op.value());
                    int before = model.size();
                    model.values().removeIf(v -> v == op.value());
                    assertThat(removed).isEqualTo(before - model.size());
                }
                default -> assertThat(map.get(op.key())).isEqualTo(model.getOrDefault(op.key(), 0L));
            }
        }
        assertThat(map.size()).isEqualTo(model.size());
        for (long key = 1; key <= 3_000; key++) {
            assertThat(map.get(key)).as("key %d", key).isEqualTo(model.getOrDefault(key, 0L));
        }
        Map<Long, Long> seen = new HashMap<>();
        map.forEach(seen::put);
        assertThat(seen).isEqualTo(model);
    }

    @Test
    void growsToAMillionKeysAndFindsEveryOne() {
        FlatLongMap map = new FlatLongMap();
        for (long i = 1; i <= 1_000_000; i++) {
            map.update(i * 7919, current -> current + 1);
        }
        assertThat(map.size()).isEqualTo(1_000_000);
        for (long i = 1; i <= 1_000_000; i++) {
            assertThat(map.get(i * 7919)).isEqualTo(1);
        }
        assertThat(map.get(7918)).isZero();
        assertThat(map.removeIf(v -> true)).isEqualTo(1_000_000);
        assertThat(map.size()).isZero();
        map.update(5, current -> 9);
        map.clear();
        assertThat(map.get(5)).isZero();
        assertThat(map.size()).isZero();
    }

    /**
     * Readers without a lock while a writer inserts, moves (backward shifts) and grows: a key that is
     * always present must always be found with a value its writer wrote, never 0 or another key's.
     * The stable keys (odd) and the churned ones (even) share their probe runs, so that every removal
     * of a churned key shifts stable ones back. A stress test: the windows a torn read needs are a
     * few nanoseconds wide, and a copy of {@code get} without the stamp's validation passed it in four
     * runs, so that validation rests on {@code StampedLock}'s documented optimistic-read pattern; what
     * this catches is a reader that throws, loops or reads the wrong segment while arrays grow and shift.
     */
    @Test
    void aLockFreeReaderNeverMissesAKeyThatIsAlwaysThere() throws Exception {
        FlatLongMap map = new FlatLongMap();
        int stable = 4_000;
        long base = 1L << 40; // stable values: base + writes; churned values: their key, far below
        for (long k = 1; k <= stable; k++) {
            map.update(2 * k - 1, current -> base);
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        AtomicLong reads = new AtomicLong();
        Thread writer = new Thread(() -> {
            for (int round = 0; round < 300 && wrong.get() == null; round++) {
                for (long k = 1; k <= stable; k++) {
                    long key = 2 * k;
                    map.update(key, current -> key);
                }
                for (long k = 1; k <= stable; k++) {
                    map.update(2 * k - 1, current -> current + 1);
                }
                for (long k = 1; k <= stable; k++) {
                    map.update(2 * k, current -> 0);
                }
            }
        });
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Thread reader = new Thread(() -> {
                while (!stop.get()) {
                    for (long k = 1; k <= stable; k++) {
                        long v = map.get(2 * k - 1);
                        if (v < base) {
                            wrong.compareAndSet(null, "key " + (2 * k - 1) + " read " + v);
                        }
                    }
                    reads.addAndGet(stable);
                }
            });
            readers.add(reader);
            reader.start();
        }
        writer.start();
        writer.join();
        stop.set(true);
        for (Thread reader : readers) {
            reader.join();
        }
        assertThat(wrong.get()).isNull();
        assertThat(reads.get()).isPositive();
        assertThat(map.size()).isEqualTo(stable);
    }
}
