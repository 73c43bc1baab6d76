package io.switchboard.director;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.switchboard.director.testing.ManualTicker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.slf4j.LoggerFactory;

class RateLimitedLogTest {

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private final ManualTicker ticker = new ManualTicker();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private Logger logger;

    @BeforeEach
    void captureALoggerOfItsOwn(TestInfo test) {
        logger = (Logger) LoggerFactory.getLogger("test.ratelimited." + test.getDisplayName());
        logger.setAdditive(false);
        logger.setLevel(Level.TRACE);
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(appender);
        appender.stop();
    }

    private List<String> lines() {
        return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void aBurstLogsOnceAtWarn() {
        RateLimitedLog log = new RateLimitedLog(logger, INTERVAL, ticker);

        for (int i = 0; i < 1_000; i++) {
            log.warn("malformed datagram from {}: {}", "192.0.2." + (i % 250), "truncated");
            ticker.advance(Duration.ofMillis(1)); // the whole burst lasts 1 s
        }

        assertThat(lines()).containsExactly("malformed datagram from 192.0.2.0: truncated");
        assertThat(appender.list.get(0).getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void theNextLineAfterTheIntervalCountsTheSuppressedOnes() {
        RateLimitedLog log = new RateLimitedLog(logger, INTERVAL, ticker);
        log.warn("unknown source {}", "first");
        for (int i = 0; i < 41; i++) {
            log.warn("unknown source {}", "suppressed");
        }

        log.warn("unknown source {}", "still suppressed");
        ticker.advance(INTERVAL.minusNanos(1));
        log.warn("unknown source {}", "still suppressed");
        assertThat(lines()).hasSize(1);

        ticker.advanceNanos(1);
        log.warn("unknown source {}", "next");

        assertThat(lines()).containsExactly(
                "unknown source first",
                "unknown source next (43 similar suppressed)");
    }

    @Test
    void aSteadyFloodLogsOncePerInterval() {
        RateLimitedLog log = new RateLimitedLog(logger, INTERVAL, ticker);

        // One warning every 100 ms for 35 s: lines at 0, 10, 20 and 30 s.
        for (int i = 0; i < 350; i++) {
            log.warn("flood {}", i);
            ticker.advance(Duration.ofMillis(100));
        }

        assertThat(lines()).containsExactly(
                "flood 0",
                "flood 100 (99 similar suppressed)",
                "flood 200 (99 similar suppressed)",
                "flood 300 (99 similar suppressed)");
    }

    @Test
    void rareWarningsAreAllLoggedPlainly() {
        RateLimitedLog log = new RateLimitedLog(logger, INTERVAL, ticker);

        for (int i = 0; i < 3; i++) {
            log.warn("rare {}", i);
            ticker.advance(INTERVAL.plusSeconds(1));
        }

        assertThat(lines()).containsExactly("rare 0", "rare 1", "rare 2");
    }

    @Test
    void worksWhenTheClockReadsNegative() {
        // System.nanoTime() may be negative: only differences mean anything.
        ManualTicker negative = new ManualTicker(-3 * INTERVAL.toNanos());
        RateLimitedLog log = new RateLimitedLog(logger, INTERVAL, negative);

        log.warn("a");
        log.warn("b");
        negative.advance(INTERVAL);
        log.warn("c");
        negative.advance(INTERVAL.dividedBy(2));
        log.warn("d");

        assertThat(lines()).containsExactly("a", "c (1 similar suppressed)");
    }

    @Test
    void aWarningWithoutArgumentsGetsTheCountToo() {
        RateLimitedLog log = new RateLimitedLog(logger, INTERVAL, ticker);
        log.warn("socket closed");
        log.warn("socket closed");

        ticker.advance(INTERVAL);
        log.warn("socket closed");

        assertThat(lines()).containsExactly("socket closed", "socket closed (1 similar suppressed)");
    }
}
