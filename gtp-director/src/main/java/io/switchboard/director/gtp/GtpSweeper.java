package io.switchboard.director.gtp;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread of its own on which a {@code gtp-inspect} virtual server in a cluster runs its
 * once-a-second housekeeping: a pass over every session of the cluster's shared table (idle expiry,
 * the per-real recount) takes far longer than an event loop may spend away from its packets. The
 * event loop that finds the second's housekeeping due only hands it over (O(1)); one sweep runs at a
 * time, and a sweep due while the previous one still runs is skipped, not queued. The thread starts
 * with the first sweep and ends with {@link #close} (the virtual server stopped); a daemon, so that
 * a director never stopped does not keep the JVM alive either.
 */
final class GtpSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(GtpSweeper.class);

    /** Null: sweeps run on the caller (tests that drive the clock by hand). */
    private final ExecutorService thread;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile String name = "gtp-inspect-sweeper";

    private GtpSweeper(boolean dedicated) {
        this.thread = !dedicated ? null : new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                task -> {
                    Thread t = new Thread(task, name);
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Sweeps on a thread of their own, started by the first. */
    static GtpSweeper dedicated() {
        return new GtpSweeper(true);
    }

    /** Sweeps on the thread that asks for them, as they are asked for. */
    static GtpSweeper onCaller() {
        return new GtpSweeper(false);
    }

    /** Names the thread after the virtual server (before the first sweep). */
    void name(String virtualServer) {
        this.name = "gtp-inspect-sweeper-" + virtualServer;
    }

    /**
     * Runs {@code sweep} on the sweeper's thread and returns at once; does nothing while the
     * previous sweep still runs, or once closed.
     */
    void sweep(Runnable sweep) {
        if (!busy.compareAndSet(false, true)) {
            return;
        }
        Runnable guarded = () -> {
            try {
                sweep.run();
            } catch (RuntimeException e) {
                LOG.warn("gtp-inspect housekeeping failed; tried again in a second", e);
            } finally {
                busy.set(false);
            }
        };
        if (thread == null) {
            guarded.run();
            return;
        }
        try {
            thread.execute(guarded);
        } catch (RejectedExecutionException closed) {
            busy.set(false);
        }
    }

    /** Ends the thread (a sweep under way finishes its pass); idempotent. */
    void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }

    /** Whether the thread has ended after {@link #close} (true at once for sweeps on the caller), for tests. */
    boolean terminated() {
        return thread == null || thread.isTerminated();
    }
}
