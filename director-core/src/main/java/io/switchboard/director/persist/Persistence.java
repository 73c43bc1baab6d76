package io.switchboard.director.persist;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.PersistenceConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single node's {@code persistence}: the snapshot read at start into the {@link SnapshotTables}
 * the director is made with, written at a graceful shutdown and, with an interval, periodically
 * on a thread of its own (never an event loop's).
 *
 * <p>A file that cannot be read as a snapshot never stops a node: it is logged (WARN), counted, and
 * set aside as {@code FILE.bad} (replacing an older one) so that the next snapshot does not overwrite
 * what an operator may want to look at, and the node starts with empty tables. No file is a first
 * start.
 */
public final class Persistence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);

    private final Path file;
    private final Optional<Duration> interval;
    private final LongSupplier wallMillis;
    private final SnapshotTables tables;
    private final MeterRegistry registry;
    private final Counter written;
    private final Counter failed;
    private final Counter unreadable;
    private final Counter entriesWritten;
    private final Counter entriesRestored;
    private ScheduledExecutorService periodic;

    /** Reads {@code config}'s file (persistence must be enabled). */
    public static Persistence open(PersistenceConfig config, MeterRegistry registry, Ticker ticker) {
        return new Persistence(config.file().orElseThrow(), config.interval(), registry, ticker,
                System::currentTimeMillis);
    }

    Persistence(Path file, Optional<Duration> interval, MeterRegistry registry, Ticker ticker, LongSupplier wallMillis) {
        this.file = file;
        this.interval = interval;
        this.wallMillis = wallMillis;
        this.registry = registry;
        this.written = snapshots("written");
        this.failed = snapshots("failed");
        this.unreadable = snapshots("unreadable");
        this.entriesWritten = Counter.builder("switchboard.persistence.written")
                .description("Entries (bindings, sessions, held values) written to snapshots").register(registry);
        this.entriesRestored = Counter.builder("switchboard.persistence.restored")
                .description("Entries (bindings, sessions, held values) put back from the snapshot at start")
                .register(registry);
        this.tables = new SnapshotTables(read(), ticker, wallMillis.getAsLong());
    }

    private Counter snapshots(String result) {
        return Counter.builder("switchboard.persistence.snapshots").tag("result", result)
                .description("Snapshot files written, failed to write, or found unreadable at start").register(registry);
    }

    private Snapshot read() {
        try {
            Snapshot snapshot = Snapshot.read(file);
            LOG.info("read snapshot {} written at {}: {} entries", file,
                    java.time.Instant.ofEpochMilli(snapshot.writtenMillis()), snapshot.entries());
            return snapshot;
        } catch (NoSuchFileException e) {
            LOG.info("no snapshot at {}: starting with empty tables", file);
        } catch (IOException e) {
            unreadable.increment();
            Path bad = file.resolveSibling(file.getFileName() + ".bad");
            String kept;
            try {
                Files.move(file, bad, StandardCopyOption.REPLACE_EXISTING);
                kept = "kept as " + bad;
            } catch (IOException moving) {
                kept = "could not be set aside as " + bad + " (" + moving.getMessage() + ")";
            }
            LOG.warn("snapshot {} is unreadable ({}): starting with empty tables; the file {}", file,
                    e instanceof Snapshot.UnreadableException ? e.getMessage() : e.toString(), kept);
        }
        return Snapshot.empty();
    }

    /** The tables to make the director with (sticky tables and shared tables alike). */
    public SnapshotTables tables() {
        return tables;
    }

    /**
     * Logs and counts what the tables were filled with; called once the director is made, since
     * the tables are filled as they are made.
     */
    public void restored() {
        long entries = tables.restoredEntries();
        entriesRestored.increment(entries);
        if (entries > 0 || !tables.restoredSummary().isEmpty()) {
            LOG.info("restored {} entries from {}: {}", entries, file, String.join("; ", tables.restoredSummary()));
        }
    }

    /** Starts the periodic snapshots, when an interval is configured. */
    public synchronized void start() {
        if (interval.isEmpty() || periodic != null) {
            return;
        }
        periodic = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "switchboard-snapshot");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.get().toMillis();
        periodic.scheduleWithFixedDelay(() -> write("periodic"), millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Writes a snapshot of every table now; true when it was written. A failure is logged (WARN)
     * and counted; the previous file stays as it was.
     */
    public synchronized boolean write(String why) {
        Snapshot snapshot = tables.snapshot(wallMillis.getAsLong());
        try {
            snapshot.write(file);
            written.increment();
            entriesWritten.increment(snapshot.entries());
            LOG.info("{} snapshot written to {}: {} entries", why, file, snapshot.entries());
            return true;
        } catch (IOException e) {
            failed.increment();
            LOG.warn("{} snapshot could not be written to {}: {}", why, file, e.toString());
            return false;
        }
    }

    /** Stops the periodic snapshots (the last one, at shutdown, is {@link #write}'s). */
    @Override
    public synchronized void close() {
        if (periodic != null) {
            periodic.shutdown(); // a snapshot being written completes
            periodic = null;
        }
    }
}
