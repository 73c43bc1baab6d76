package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The sweeper's thread: sweeps run there, not on the caller; one at a time; none after close. */
class GtpSweeperTest {

    @Test
    void aSweepRunsOnTheSweepersThreadAndTheCallerDoesNotWaitForIt() throws Exception {
        GtpSweeper sweeper = GtpSweeper.dedicated();
        sweeper.name("gtp-c");
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicInteger sweeps = new AtomicInteger();
        try {
            sweeper.sweep(() -> {
                ranOn.set(Thread.currentThread());
                sweeps.incrementAndGet();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            // Returned while the sweep waits for the latch: the caller (an event loop) did not run it.
            await().atMost(Duration.ofSeconds(5)).until(() -> ranOn.get() != null);
            assertThat(ranOn.get()).isNotSameAs(Thread.currentThread());
            assertThat(ranOn.get().getName()).isEqualTo("gtp-inspect-sweeper-gtp-c");
            assertThat(ranOn.get().isDaemon()).isTrue();
            sweeper.sweep(sweeps::incrementAndGet);
            assertThat(sweeps).as("a sweep due while one runs is skipped, not queued").hasValue(1);
            release.countDown();
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                sweeper.sweep(sweeps::incrementAndGet);
                assertThat(sweeps.get()).isGreaterThanOrEqualTo(2);
            });
        } finally {
            release.countDown();
            sweeper.close();
        }
        await().atMost(Duration.ofSeconds(5)).until(sweeper::terminated);
        ranOn.get().join(5_000);
        assertThat(ranOn.get().isAlive()).as("the thread ended with close").isFalse();
        int before = sweeps.get();
        sweeper.sweep(sweeps::incrementAndGet);
        assertThat(sweeps).as("no sweep once closed").hasValue(before);
    }
}
