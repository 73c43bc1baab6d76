package io.switchboard.director.pending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.testing.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingTableTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final ManualTicker ticker = new ManualTicker();
    private final List<String> expired = new ArrayList<>();
    private final PendingTable<String> table = new PendingTable<>(4, TIMEOUT.toNanos(), expired::add);

    @Test
    void aRequestIsFoundAndRemovedOnceByItsRealAndTransaction() {
        assertThat(table.put(3, 0x1234, "req-1", ticker.nanos())).isTrue();
        assertThat(table.contains(3, 0x1234)).isTrue();
        assertThat(table.size()).isEqualTo(1);

        assertThat(table.remove(3, 0x1234)).isEqualTo("req-1");
        assertThat(table.remove(3, 0x1234)).as("a second answer").isNull();
        assertThat(table.contains(3, 0x1234)).isFalse();
        assertThat(table.size()).isZero();
    }

    @Test
    void anUnknownAnswerFindsNothing() {
        table.put(3, 1, "req-1", ticker.nanos());

        assertThat(table.remove(3, 2)).isNull();
        assertThat(table.remove(4, 1)).isNull();
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void aDuplicateKeyIsRefusedAndTheFirstRequestKept() {
        assertThat(table.put(3, 7, "first", ticker.nanos())).isTrue();
        ticker.advance(Duration.ofSeconds(1));

        assertThat(table.put(3, 7, "second", ticker.nanos())).isFalse();

        assertThat(table.size()).isEqualTo(1);
        // The first request keeps its own deadline too.
        table.expire(ticker.advance(Duration.ofSeconds(1)));
        assertThat(expired).containsExactly("first");
    }

    @Test
    void theSameTransactionIdOnDifferentRealsIsTwoRequests() {
        assertThat(table.put(1, 42, "to-real-1", ticker.nanos())).isTrue();
        assertThat(table.put(2, 42, "to-real-2", ticker.nanos())).isTrue();

        assertThat(table.remove(2, 42)).isEqualTo("to-real-2");
        assertThat(table.remove(1, 42)).isEqualTo("to-real-1");
    }

    @Test
    void slotsStayApartForTheLargestTransactionIds() {
        long maxTx = 0xFF_FFFF_FFFFL; // 40 bits
        assertThat(table.put(1, maxTx, "slot-1", ticker.nanos())).isTrue();
        assertThat(table.put(2, 0, "slot-2", ticker.nanos())).isTrue();

        assertThat(PendingTable.key(1, maxTx)).isNotEqualTo(PendingTable.key(2, 0));
        assertThat(table.remove(2, 0)).isEqualTo("slot-2");
        assertThat(table.remove(1, maxTx)).isEqualTo("slot-1");
    }

    @Test
    void everyBitOfAFortyBitTransactionIdIsKeptApartFromTheSlot() {
        for (int bit = 0; bit < 40; bit++) {
            long tx = 1L << bit;
            PendingTable<String> t = new PendingTable<>(4, TIMEOUT.toNanos(), expired::add);
            assertThat(t.put(0, tx, "slot-0", ticker.nanos())).isTrue();
            assertThat(t.put(1, 0, "slot-1", ticker.nanos())).as("bit %d", bit).isTrue();
            assertThat(t.put(1, tx, "slot-1-tx", ticker.nanos())).as("bit %d", bit).isTrue();
            assertThat(t.remove(0, tx)).isEqualTo("slot-0");
            assertThat(t.remove(1, 0)).isEqualTo("slot-1");
        }
    }

    @Test
    void aFullTableRefusesUntilSomethingLeaves() {
        for (int tx = 0; tx < 4; tx++) {
            assertThat(table.put(1, tx, "req-" + tx, ticker.nanos())).isTrue();
        }

        assertThat(table.put(1, 4, "req-4", ticker.nanos())).isFalse();
        assertThat(table.contains(1, 4)).isFalse();
        assertThat(table.size()).isEqualTo(4).isEqualTo(table.capacity());

        table.remove(1, 2);
        assertThat(table.put(1, 4, "req-4", ticker.nanos())).isTrue();
    }

    @Test
    void expireHandsOverExactlyTheOverdueRequestsInOrder() {
        table.put(1, 1, "a", ticker.nanos());
        table.put(2, 1, "b", ticker.advance(Duration.ofMillis(100)));
        table.put(1, 2, "c", ticker.advance(Duration.ofMillis(100)));
        table.put(1, 3, "d", ticker.advance(Duration.ofMillis(500)));
        // a: +2000 ms, b: +2100, c: +2200, d: +2700 from the start; now = +700.

        assertThat(table.expire(ticker.advance(Duration.ofMillis(1300 - 1)))).isZero();
        assertThat(expired).isEmpty();

        assertThat(table.expire(ticker.advance(Duration.ofMillis(150)))).isEqualTo(2); // now +2149
        assertThat(expired).containsExactly("a", "b");
        assertThat(table.size()).isEqualTo(2);
        assertThat(table.contains(1, 1)).isFalse();
        assertThat(table.contains(2, 1)).isFalse();
        assertThat(table.contains(1, 2)).isTrue();
        assertThat(table.contains(1, 3)).isTrue();

        assertThat(table.expire(ticker.advance(Duration.ofSeconds(10)))).isEqualTo(2);
        assertThat(expired).containsExactly("a", "b", "c", "d");
        assertThat(table.size()).isZero();
    }

    @Test
    void anAnsweredRequestNeverExpires() {
        table.put(1, 1, "a", ticker.nanos());
        table.put(1, 2, "b", ticker.nanos());
        table.remove(1, 1);

        table.expire(ticker.advance(TIMEOUT.multipliedBy(2)));

        assertThat(expired).containsExactly("b");
    }

    @Test
    void aRequestExpiresOnceItsTimeoutHasPassed() {
        table.put(1, 1, "a", ticker.nanos());

        table.expire(ticker.advance(TIMEOUT.minusNanos(1)));
        assertThat(expired).isEmpty();

        table.expire(ticker.advance(Duration.ofNanos(2)));
        assertThat(expired).containsExactly("a");
    }

    @Test
    void capacityAndTimeoutMustBePositive() {
        assertThatThrownBy(() -> new PendingTable<String>(0, 1, s -> { }))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PendingTable<String>(1, 0, s -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void answersOutOfOrderAndAReusedKeyKeepEveryDeadline() {
        table.put(1, 1, "a", ticker.nanos());
        table.put(1, 2, "b", ticker.nanos());
        table.put(1, 3, "c", ticker.nanos());
        assertThat(table.remove(1, 2)).isEqualTo("b"); // answered in the middle
        ticker.advance(Duration.ofSeconds(1));
        assertThat(table.put(1, 2, "b-again", ticker.nanos())).as("the key is free again").isTrue();
        assertThat(table.remove(1, 1)).isEqualTo("a");

        table.expire(ticker.advance(Duration.ofSeconds(1)));
        assertThat(expired).as("c is due; b-again, put a second later, is not").containsExactly("c");
        assertThat(table.size()).isEqualTo(1);
        table.expire(ticker.advance(Duration.ofSeconds(1)));
        assertThat(expired).containsExactly("c", "b-again");
        assertThat(table.size()).isZero();
    }

    @Test
    void drainHandsOverOnlyWhatIsStillPending() {
        table.put(1, 1, "a", ticker.nanos());
        table.put(1, 2, "b", ticker.nanos());
        table.remove(1, 1);
        List<String> drained = new ArrayList<>();
        table.drain(drained::add);
        assertThat(drained).containsExactly("b");
        assertThat(table.size()).isZero();
        assertThat(table.contains(1, 2)).isFalse();
    }

    /**
     * Entries are reused once they leave the table: a long random run of puts, answers (in and out
     * of order, late and unknown ones too), expiries and reused keys against a plain model, so that
     * a recycled entry can never hand back another request's value or lose a deadline.
     */
    @Test
    void reusedEntriesBehaveAsFreshOnesAgainstAModel() {
        for (long seed = 1; seed <= 4; seed++) { // about a second: 4 runs of 10,000 operations
            java.util.Random random = new java.util.Random(seed);
            List<String> gone = new ArrayList<>();
            PendingTable<String> reusing = new PendingTable<>(64, TIMEOUT.toNanos(), gone::add);
            java.util.Map<Long, String> model = new java.util.HashMap<>();
            java.util.Map<Long, Long> deadlines = new java.util.LinkedHashMap<>(); // put order breaks ties
            List<String> modelGone = new ArrayList<>();
            ManualTicker clock = new ManualTicker();
            int serial = 0;
            for (int step = 0; step < 10_000; step++) {
                long tx = random.nextInt(96); // more keys than capacity: full tables and key reuse
                int op = random.nextInt(10);
                if (op < 5) {
                    String value = "r" + serial++;
                    boolean expected = model.size() < 64 && !model.containsKey(tx);
                    assertThat(reusing.put(2, tx, value, clock.nanos())).as("seed %d step %d put", seed, step)
                            .isEqualTo(expected);
                    if (expected) {
                        model.put(tx, value);
                        deadlines.put(tx, clock.nanos() + TIMEOUT.toNanos());
                    }
                } else if (op < 9) {
                    assertThat(reusing.remove(2, tx)).as("seed %d step %d remove", seed, step)
                            .isEqualTo(model.remove(tx));
                    deadlines.remove(tx);
                } else {
                    long now = clock.advance(Duration.ofMillis(random.nextInt(700)));
                    reusing.expire(now);
                    deadlines.entrySet().stream()
                            .filter(e -> e.getValue() - now <= 0)
                            .sorted(java.util.Map.Entry.comparingByValue())
                            .map(java.util.Map.Entry::getKey)
                            .toList()
                            .forEach(k -> {
                                modelGone.add(model.remove(k));
                                deadlines.remove(k);
                            });
                    assertThat(gone).as("seed %d step %d expired, in deadline order", seed, step)
                            .containsExactlyElementsOf(modelGone);
                }
                assertThat(reusing.size()).isEqualTo(model.size());
            }
        }
    }
}
