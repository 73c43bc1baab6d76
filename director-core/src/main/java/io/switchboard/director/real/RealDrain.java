package io.switchboard.director.real;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One administrative drain of a real ({@link RealState#DRAINING}): when it started, its deadline,
 * what the director's housekeeping last counted as left (the sticky bindings naming the real, its
 * connections, sessions included) and how it ended. The real stays DRAINING once the drain ended:
 * only {@code inservice} (or {@code outofservice}) takes it out of the state.
 *
 * <p>The deadline is kept twice: on this node's monotonic clock, which the housekeeping compares,
 * and as a wall-clock time, which the cluster shares so that every node reaches it together.
 */
public final class RealDrain {

    /** How a drain ended; {@link #label()} is the metric's {@code result}. */
    public enum Result {
        /** Nothing was left: no binding names the real, no connection is open. */
        COMPLETED,
        /** The deadline came first: the bindings were removed and the sessions released. */
        DEADLINE;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final long NONE = 0;

    private final long startedNanos;
    private final long deadlineNanos;
    private final long deadlineMillis;
    private final AtomicReference<Result> result = new AtomicReference<>();
    private volatile long bindingsLeft = -1;
    private volatile int connectionsLeft = -1;

    private RealDrain(long startedNanos, long deadlineNanos, long deadlineMillis) {
        this.startedNanos = startedNanos;
        this.deadlineNanos = deadlineNanos;
        this.deadlineMillis = deadlineMillis;
    }

    /** A drain started on this node now, with a deadline after {@code deadline}, or none when null. */
    public static RealDrain starting(long nowNanos, Duration deadline) {
        if (deadline == null) {
            return new RealDrain(nowNanos, NONE, NONE);
        }
        return new RealDrain(nowNanos, nowNanos + deadline.toNanos(),
                Math.max(1, System.currentTimeMillis() + deadline.toMillis()));
    }

    /** A drain started on another node, with its shared wall-clock deadline (0 for none). */
    public static RealDrain shared(long nowNanos, long deadlineMillis) {
        if (deadlineMillis == NONE) {
            return new RealDrain(nowNanos, NONE, NONE);
        }
        long remaining = TimeUnit.MILLISECONDS.toNanos(deadlineMillis - System.currentTimeMillis());
        return new RealDrain(nowNanos, nowNanos + remaining, deadlineMillis);
    }

    public long startedNanos() {
        return startedNanos;
    }

    public boolean hasDeadline() {
        return deadlineMillis != NONE;
    }

    /** The wall-clock deadline in epoch milliseconds, 0 for none. */
    public long deadlineMillis() {
        return deadlineMillis;
    }

    public boolean pastDeadline(long nowNanos) {
        return hasDeadline() && nowNanos - deadlineNanos >= 0;
    }

    /** Sticky bindings naming the real at the last count; -1 before the first. */
    public long bindingsLeft() {
        return bindingsLeft;
    }

    /** The real's connections (requests awaiting answers, open sessions) at the last count; -1 before the first. */
    public int connectionsLeft() {
        return connectionsLeft;
    }

    /** How the drain ended, or null while it goes on. */
    public Result result() {
        return result.get();
    }

    public boolean done() {
        return result.get() != null;
    }

    /** Records a count of what is left. */
    public void left(long bindings, int connections) {
        this.bindingsLeft = bindings;
        this.connectionsLeft = connections;
    }

    /** Ends the drain; false when it had ended already (only one ending is logged and counted). */
    public boolean end(Result how) {
        return result.compareAndSet(null, how);
    }

    @Override
    public String toString() {
        return "drain[" + (done() ? result.get().label() : "draining") + ", bindings " + bindingsLeft
                + ", connections " + connectionsLeft + "]";
    }
}
