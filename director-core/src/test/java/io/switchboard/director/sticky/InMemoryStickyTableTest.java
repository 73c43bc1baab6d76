package io.switchboard.director.sticky;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.testing.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InMemoryStickyTableTest {

    private static final Duration IDLE = Duration.ofMinutes(5);

    private static final StickyBinding GGSN_1 = new StickyBinding("gw", "10.0.0.1:2123");
    private static final StickyBinding GGSN_2 = new StickyBinding("gw", "10.0.0.2:2123");
    private static final StickyBinding GGSN_3 = new StickyBinding("gw", "10.0.0.3:2123");
    private static final StickyBinding SPARE = new StickyBinding("spare", "10.0.0.1:2123");

    private final ManualTicker ticker = new ManualTicker();
    private final InMemoryStickyTable table = new InMemoryStickyTable("gtp/imsi", IDLE, 1_000);

    private static StickyKey imsi(String digits) {
        return StickyKey.parse(TestKinds.IMSI, digits);
    }

    private static final StickyKey ALICE = imsi("001010000000001");
    private static final StickyKey BOB = imsi("001010000000002");
    private static final StickyKey CAROL = imsi("001010000000003");

    @Test
    void aBoundKeyIsFoundAndCountedAsAHit() {
        assertThat(table.name()).isEqualTo("gtp/imsi");
        assertThat(table.lookup(ALICE, ticker.nanos())).isNull();

        assertThat(table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos())).isEqualTo(GGSN_1);
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(GGSN_1);
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(GGSN_1);
        assertThat(table.lookup(BOB, ticker.nanos())).isNull();

        assertThat(table.stats()).isEqualTo(new StickyStats(2, 2, 1, 0, 0));
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void keysOfDifferentKindsWithTheSameBytesAreDifferentKeys() {
        StickyKey asImsi = StickyKey.parse(TestKinds.IMSI, "12345");
        StickyKey asUser = StickyKey.parse(TestKinds.USERNAME, "12345");
        table.bindIfAbsent(asImsi, GGSN_1, ticker.nanos());

        assertThat(table.lookup(asUser, ticker.nanos())).isNull();
    }

    @Test
    void aBindingIdleForLongerThanTheIdleTimeIsNotFound() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());

        assertThat(table.lookup(ALICE, ticker.advance(IDLE))).as("idle exactly the idle time").isEqualTo(GGSN_1);
        assertThat(table.lookup(ALICE, ticker.advance(IDLE.plusNanos(1)))).as("idle a little longer").isNull();
        assertThat(table.stats().misses()).isEqualTo(1);
    }

    @Test
    void useKeepsABindingAlivePastTheIdleTimeFromItsCreation() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());

        for (int i = 0; i < 10; i++) {
            assertThat(table.lookup(ALICE, ticker.advance(IDLE.dividedBy(2)))).as("after %d half idle times", i + 1)
                    .isEqualTo(GGSN_1);
        }
        table.expire(ticker.nanos());
        assertThat(table.size()).isEqualTo(1);

        assertThat(table.lookup(ALICE, ticker.advance(IDLE.plusSeconds(1)))).isNull();
    }

    @Test
    void expireDropsOnlyIdleBindingsAndCountsThem() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());
        table.bindIfAbsent(BOB, GGSN_2, ticker.nanos());
        ticker.advance(IDLE.dividedBy(2));
        table.bindIfAbsent(CAROL, GGSN_3, ticker.nanos());
        table.lookup(BOB, ticker.nanos());

        table.expire(ticker.advance(IDLE.dividedBy(2).plusSeconds(1)));

        assertThat(table.size()).isEqualTo(2);
        assertThat(table.stats().expired()).isEqualTo(1);
        assertThat(table.lookup(ALICE, ticker.nanos())).isNull();
        assertThat(table.lookup(BOB, ticker.nanos())).isEqualTo(GGSN_2);
        assertThat(table.lookup(CAROL, ticker.nanos())).isEqualTo(GGSN_3);
    }

    @Test
    void anIdleBindingIsReplacedByANewOne() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());

        StickyBinding holding = table.bindIfAbsent(ALICE, GGSN_2, ticker.advance(IDLE.plusSeconds(1)));

        assertThat(holding).isEqualTo(GGSN_2);
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(GGSN_2);
        assertThat(table.size()).isEqualTo(1);
        assertThat(table.stats().bound()).isEqualTo(2);
    }

    @Test
    void theSecondCallerToBindGetsTheFirstCallersBinding() {
        StickyBinding first = table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());
        StickyBinding second = table.bindIfAbsent(ALICE, GGSN_2, ticker.nanos());

        assertThat(first).isEqualTo(GGSN_1);
        assertThat(second).isEqualTo(GGSN_1);
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(GGSN_1);
        assertThat(table.stats().bound()).isEqualTo(1);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void concurrentFirstChoicesConvergeOnOneBinding() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 200; round++) {
                StickyKey key = imsi(String.format("0010100%08d", round));
                CountDownLatch start = new CountDownLatch(1);
                List<Future<StickyBinding>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    StickyBinding mine = new StickyBinding("gw", "10.0.0." + (t + 1) + ":2123");
                    long now = ticker.nanos();
                    Callable<StickyBinding> bind = () -> {
                        start.await();
                        return table.bindIfAbsent(key, mine, now);
                    };
                    results.add(pool.submit(bind));
                }
                start.countDown();
                StickyBinding winner = results.get(0).get(10, TimeUnit.SECONDS);
                for (Future<StickyBinding> r : results) {
                    assertThat(r.get(10, TimeUnit.SECONDS)).as("round %d", round).isEqualTo(winner);
                }
                assertThat(table.lookup(key, ticker.nanos())).isEqualTo(winner);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(table.size()).isEqualTo(200);
        assertThat(table.stats().bound()).isEqualTo(200);
    }

    @Test
    void rebindReplacesTheExpectedBinding() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());

        assertThat(table.rebind(ALICE, GGSN_1, GGSN_2, ticker.nanos())).isEqualTo(GGSN_2);
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(GGSN_2);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void rebindLeavesABindingThatSomeoneElseAlreadyReplaced() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());
        table.rebind(ALICE, GGSN_1, GGSN_2, ticker.nanos());

        // A second event loop saw the same stale binding and wants to move the key elsewhere.
        StickyBinding holding = table.rebind(ALICE, GGSN_1, GGSN_3, ticker.nanos());

        assertThat(holding).isEqualTo(GGSN_2);
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(GGSN_2);
    }

    @Test
    void aRebindThatChangesNothingIsNotCountedAsBound() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());
        table.rebind(ALICE, GGSN_1, GGSN_2, ticker.nanos());
        long bound = table.stats().bound();

        // A second event loop saw the same stale binding and chose the same replacement.
        assertThat(table.rebind(ALICE, GGSN_1, GGSN_2, ticker.nanos())).isEqualTo(GGSN_2);

        assertThat(table.stats().bound()).isEqualTo(bound);
    }

    @Test
    void rebindOfAKeyWithoutBindingBindsIt() {
        assertThat(table.rebind(ALICE, GGSN_1, GGSN_2, ticker.nanos())).isEqualTo(GGSN_2);
        assertThat(table.lookup(ALICE, ticker.nanos())).isEqualTo(GGSN_2);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void theBoundOnEntriesRefusesNewKeysButNotKnownOnes() {
        InMemoryStickyTable small = new InMemoryStickyTable("small", IDLE, 2);
        small.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());
        small.bindIfAbsent(BOB, GGSN_2, ticker.nanos());

        // Refused: the caller still gets its own choice back, but nothing is stored.
        assertThat(small.bindIfAbsent(CAROL, GGSN_3, ticker.nanos())).isEqualTo(GGSN_3);
        assertThat(small.lookup(CAROL, ticker.nanos())).isNull();
        assertThat(small.size()).isEqualTo(2);
        assertThat(small.stats().refusedFull()).isEqualTo(1);
        assertThat(small.stats().bound()).isEqualTo(2);

        // A known key still rebinds when full.
        assertThat(small.rebind(ALICE, GGSN_1, GGSN_3, ticker.nanos())).isEqualTo(GGSN_3);

        // Room again after a removal.
        assertThat(small.remove(BOB)).isTrue();
        assertThat(small.bindIfAbsent(CAROL, GGSN_3, ticker.nanos())).isEqualTo(GGSN_3);
        assertThat(small.lookup(CAROL, ticker.nanos())).isEqualTo(GGSN_3);
        assertThat(small.stats().refusedFull()).isEqualTo(1);
    }

    @Test
    void expiredEntriesMakeRoomAgain() {
        InMemoryStickyTable small = new InMemoryStickyTable("small", IDLE, 1);
        small.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());

        small.expire(ticker.advance(IDLE.plusSeconds(1)));

        assertThat(small.size()).isZero();
        assertThat(small.bindIfAbsent(BOB, GGSN_2, ticker.nanos())).isEqualTo(GGSN_2);
        assertThat(small.lookup(BOB, ticker.nanos())).isEqualTo(GGSN_2);
    }

    @Test
    void removeForgetsOneKey() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());

        assertThat(table.remove(ALICE)).isTrue();
        assertThat(table.remove(ALICE)).isFalse();
        assertThat(table.lookup(ALICE, ticker.nanos())).isNull();
        assertThat(table.size()).isZero();
    }

    @Test
    void removeBoundToRemovesEveryKeyOfThatRealOfThatFarmOnly() {
        table.bindIfAbsent(ALICE, GGSN_1, ticker.nanos());
        table.bindIfAbsent(BOB, GGSN_1, ticker.nanos());
        table.bindIfAbsent(CAROL, GGSN_2, ticker.nanos());
        StickyKey dave = imsi("001010000000004");
        table.bindIfAbsent(dave, SPARE, ticker.nanos()); // same address and port, other farm

        assertThat(table.removeBoundTo("gw", "10.0.0.1:2123")).isEqualTo(2);

        assertThat(table.size()).isEqualTo(2);
        assertThat(table.lookup(ALICE, ticker.nanos())).isNull();
        assertThat(table.lookup(BOB, ticker.nanos())).isNull();
        assertThat(table.lookup(CAROL, ticker.nanos())).isEqualTo(GGSN_2);
        assertThat(table.lookup(dave, ticker.nanos())).isEqualTo(SPARE);
        assertThat(table.removeBoundTo("gw", "10.0.0.1:2123")).isZero();
    }

    @Test
    void idleTimeMustBePositive() {
        assertThatThrownBy(() -> new InMemoryStickyTable("t", Duration.ZERO, 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new InMemoryStickyTable("t", Duration.ofSeconds(-1), 10))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
