package io.switchboard.director.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.testing.ManualTicker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class PersistenceTest {

    private static final Duration IDLE = Duration.ofSeconds(60);
    private static final String STICKY = "echo/imsi";
    private static final String SESSIONS = "gtp-inspect/sessions/gtp";
    private static final StickyBinding ONE = new StickyBinding("pgw", "192.0.2.1:2123");
    private static final StickyBinding TWO = new StickyBinding("pgw", "192.0.2.2:2123");
    private static final StickyKey ALICE = StickyKey.parse(TestKinds.IMSI, "001010000000001");
    private static final StickyKey BOB = StickyKey.parse(TestKinds.IMSI, "001010000000002");
    private static final StickyKey CAROL = StickyKey.parse(TestKinds.IMSI, "001010000000003");
    private static final Codec<Long> TEIDS = Codec.int64("TEID");

    @TempDir
    Path dir;
    private Path file;
    private final AtomicLong wallMillis = new AtomicLong(1_767_225_600_000L);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(Persistence.class);

    @BeforeEach
    void captureTheLog() {
        file = dir.resolve("state.snapshot");
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(log);
        log.stop();
    }

    private Persistence open(ManualTicker ticker, SimpleMeterRegistry registry, Optional<Duration> interval) {
        return new Persistence(file, interval, registry, ticker, wallMillis::get);
    }

    private static double count(SimpleMeterRegistry registry, String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    @Test
    void bindingsComeBackIdleAsLongAsBeforeTheRestartPlusTheTimeDown() throws IOException {
        ManualTicker before = new ManualTicker();
        SimpleMeterRegistry first = new SimpleMeterRegistry();
        Persistence writing = open(before, first, Optional.empty());
        StickyTable table = writing.tables().create(STICKY, IDLE, 100);
        table.bindIfAbsent(CAROL, ONE, before.nanos());
        before.advance(Duration.ofSeconds(8));
        table.bindIfAbsent(ALICE, ONE, before.nanos());
        before.advance(Duration.ofSeconds(50));
        table.bindIfAbsent(BOB, TWO, before.nanos());

        assertThat(writing.write("test")).isTrue();
        assertThat(count(first, "switchboard.persistence.written")).isEqualTo(3); // Carol, idle 58 s, still lives
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("state.snapshot");

        wallMillis.addAndGet(5_000); // down for 5 s; the new process's clock has nothing to do with the old one's
        ManualTicker after = new ManualTicker(7_000_000_000L);
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        Persistence reading = open(after, second, Optional.empty());
        StickyTable restored = reading.tables().create(STICKY, IDLE, 100);
        reading.restored();

        assertThat(count(second, "switchboard.persistence.restored")).isEqualTo(2);
        assertThat(reading.tables().restoredSummary()).containsExactly(STICKY + ": 2 (1 left out)");
        assertThat(restored.size()).isEqualTo(2);
        // Alice was idle 50 s at the write and 5 s down: 55 s of her 60 are gone.
        after.advance(Duration.ofMillis(4_900));
        assertThat(restored.countBoundTo("pgw", ONE.real(), after.nanos())).isEqualTo(1);
        after.advance(Duration.ofMillis(200));
        assertThat(restored.countBoundTo("pgw", ONE.real(), after.nanos())).isZero();
        assertThat(restored.lookup(BOB, after.nanos())).isEqualTo(TWO);
        assertThat(log.list).anyMatch(e -> e.getLevel() == Level.INFO
                && e.getFormattedMessage().equals("restored 2 entries from " + file + ": " + STICKY + ": 2 (1 left out)"));
    }

    @Test
    void sharedTablesComeBackThroughTheirCodecsButTransientOnesAreNotKept() throws IOException {
        ManualTicker ticker = new ManualTicker();
        Persistence writing = open(ticker, new SimpleMeterRegistry(), Optional.empty());
        SharedTable<Long, String> sessions = writing.tables().open(SESSIONS, TEIDS, Codec.UTF8);
        sessions.put(0x11L, "session of Alice");
        sessions.put(0x13L, "session of Bob");
        assertThat(writing.tables().open(SESSIONS, TEIDS, Codec.UTF8)).as("one name, one table").isSameAs(sessions);
        writing.tables().openTransient("relayed/gtp", TEIDS, Codec.UTF8).put(7L, "an Update in flight");
        writing.write("test");

        assertThat(Snapshot.read(file).shared()).containsOnlyKeys(SESSIONS);
        Persistence reading = open(new ManualTicker(), new SimpleMeterRegistry(), Optional.empty());
        SharedTable<Long, String> restored = reading.tables().open(SESSIONS, TEIDS, Codec.UTF8);
        Map<Long, String> entries = new HashMap<>();
        restored.forEach(entries::put);
        assertThat(entries).isEqualTo(Map.of(0x11L, "session of Alice", 0x13L, "session of Bob"));
        assertThat(reading.tables().openTransient("relayed/gtp", TEIDS, Codec.UTF8).size()).isZero();
        assertThat(restored.sharedWithOtherNodes()).isFalse();
    }

    @Test
    void anEntryItsCodecCannotReadIsLeftOutAndTheRestComesBack() throws IOException {
        Persistence writing = open(new ManualTicker(), new SimpleMeterRegistry(), Optional.empty());
        writing.tables().open(SESSIONS, Codec.UTF8, Codec.UTF8).put("12345678", "eight bytes, a TEID's length");
        writing.tables().open(SESSIONS, Codec.UTF8, Codec.UTF8).put("123", "three bytes");
        writing.write("test");

        Persistence reading = open(new ManualTicker(), new SimpleMeterRegistry(), Optional.empty());
        SharedTable<Long, String> restored = reading.tables().open(SESSIONS, TEIDS, Codec.UTF8);

        assertThat(restored.size()).isEqualTo(1);
        assertThat(reading.tables().restoredSummary()).containsExactly(SESSIONS + ": 1 (1 left out)");
    }

    @Test
    void aForeignFileIsSetAsideWithAWarningAndTheNodeStartsEmpty() throws IOException {
        Files.writeString(file, "farms: {}\n");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        Persistence persistence = open(new ManualTicker(), registry, Optional.empty());

        assertThat(persistence.tables().create(STICKY, IDLE, 100).size()).isZero();
        assertThat(file).doesNotExist();
        assertThat(dir.resolve("state.snapshot.bad")).hasContent("farms: {}");
        assertThat(count(registry, "switchboard.persistence.snapshots", "result", "unreadable")).isEqualTo(1);
        assertThat(log.list).anyMatch(e -> e.getLevel() == Level.WARN && e.getFormattedMessage().equals("snapshot "
                + file + " is unreadable (not a Switchboard snapshot): starting with empty tables; the file kept as "
                + dir.resolve("state.snapshot.bad")));
    }

    @Test
    void aTruncatedOrAlteredSnapshotIsUnreadableToo() throws IOException {
        Persistence writing = open(new ManualTicker(), new SimpleMeterRegistry(), Optional.empty());
        writing.tables().open(SESSIONS, TEIDS, Codec.UTF8).put(0x11L, "session of Alice");
        writing.write("test");
        byte[] whole = Files.readAllBytes(file);

        Files.write(file, java.util.Arrays.copyOf(whole, whole.length - 3));
        assertThat(open(new ManualTicker(), new SimpleMeterRegistry(), Optional.empty()).tables()
                .open(SESSIONS, TEIDS, Codec.UTF8).size()).isZero();
        byte[] altered = whole.clone();
        altered[altered.length - 10] ^= 1;
        Files.write(file, altered);
        assertThat(open(new ManualTicker(), new SimpleMeterRegistry(), Optional.empty()).tables()
                .open(SESSIONS, TEIDS, Codec.UTF8).size()).isZero();

        assertThat(log.list).filteredOn(e -> e.getLevel() == Level.WARN).extracting(ILoggingEvent::getFormattedMessage)
                .satisfiesExactly(m -> assertThat(m).contains("(truncated)"),
                        m -> assertThat(m).contains("(checksum mismatch: the file is damaged)"));
    }

    @Test
    void noFileIsAFirstStart() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        Persistence persistence = open(new ManualTicker(), registry, Optional.empty());

        assertThat(persistence.tables().create(STICKY, IDLE, 100).size()).isZero();
        assertThat(count(registry, "switchboard.persistence.snapshots", "result", "unreadable")).isZero();
        assertThat(log.list).noneMatch(e -> e.getLevel() == Level.WARN);
    }

    @Test
    void withAnIntervalSnapshotsAreWrittenWhileRunning() throws IOException {
        ManualTicker ticker = new ManualTicker();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Persistence persistence = open(ticker, registry, Optional.of(Duration.ofMillis(50)));
        persistence.tables().create(STICKY, IDLE, 100).bindIfAbsent(ALICE, ONE, ticker.nanos());

        persistence.start();
        try {
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> count(registry, "switchboard.persistence.snapshots", "result", "written") >= 2);
        } finally {
            persistence.close();
        }
        assertThat(Snapshot.read(file).sticky().get(STICKY)).hasSize(1);
    }

    @Test
    void aSnapshotThatCannotBeWrittenIsCountedAndTheOldFileStays() throws IOException {
        Path blocked = dir.resolve("not-a-directory");
        Files.writeString(blocked, "");
        file = blocked.resolve("state.snapshot");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Persistence persistence = open(new ManualTicker(), registry, Optional.empty());

        assertThat(persistence.write("test")).isFalse();
        assertThat(count(registry, "switchboard.persistence.snapshots", "result", "failed")).isEqualTo(1);
        assertThat(log.list).anyMatch(e -> e.getLevel() == Level.WARN
                && e.getFormattedMessage().startsWith("test snapshot could not be written to " + file));
    }
}
