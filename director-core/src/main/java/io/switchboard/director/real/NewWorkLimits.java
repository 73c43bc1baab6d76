package io.switchboard.director.real;

import io.switchboard.director.config.RealLimits;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A real's {@code rate} and {@code maxclients} (IOS SLB real-server commands, Cisco IOS SLB Command
 * Reference: "rate" — the maximum connection rate to the real; "maxclients" — the maximum number of
 * sticky subscribers of the real, beyond which it is MAXCLIENTS_THROTTLED): the one place where both
 * decide whether a real may take one more new subscriber, flow or session. The predictors ask it
 * through {@link RealServer#tryTakeNewWork()}, for the live lanes and what-if alike; bound clients
 * never come here, so both limits leave them alone.
 *
 * <p>The rate counts claims in windows of one second of the housekeeping clock ({@link #tick}, as slow
 * start does), so no clock is read per request. The clients are the live bindings naming the real,
 * counted by walking the sticky tables off the event loops ({@link #clientsCounted}) and, between two
 * counts, raised by every binding this node makes to it ({@link #clientBound}).
 */
public final class NewWorkLimits {

    private static final long SECOND_NANOS = 1_000_000_000L;

    private volatile int rate;
    private volatile long maxClients;
    private volatile long windowStartNanos;
    private volatile boolean windowStarted;
    private final AtomicLong inWindow = new AtomicLong();
    private final AtomicLong clients = new AtomicLong();
    private final LongAdder refusedRate = new LongAdder();
    private final LongAdder refusedClients = new LongAdder();

    NewWorkLimits(RealLimits limits) {
        configure(limits);
    }

    /** A reload's limits; the counts go on. */
    void configure(RealLimits limits) {
        this.rate = limits.rate().orElse(Integer.MAX_VALUE);
        this.maxClients = limits.maxclients().isPresent() ? limits.maxclients().getAsInt() : Long.MAX_VALUE;
    }

    /** Whether the real has a {@code maxclients}, so that its clients must be counted. */
    public boolean countsClients() {
        return maxClients != Long.MAX_VALUE;
    }

    /** Starts a new one-second window once the current one is over. */
    void tick(long nowNanos) {
        if (!windowStarted || nowNanos - windowStartNanos >= SECOND_NANOS) {
            windowStartNanos = nowNanos;
            windowStarted = true;
            inWindow.set(0);
        }
    }

    /**
     * Whether the real may take one more new client: below {@code maxclients}, and below {@code rate}
     * in this second (a claim that passes counts toward the rate). A refusal is counted by its reason.
     */
    boolean admit() {
        if (clients.get() >= maxClients) {
            refusedClients.increment();
            return false;
        }
        if (rate != Integer.MAX_VALUE && inWindow.incrementAndGet() > rate) {
            refusedRate.increment();
            return false;
        }
        return true;
    }

    /** A MAXCLIENTS_THROTTLED real was offered new work: refused, and counted. */
    boolean refuseThrottled() {
        refusedClients.increment();
        return false;
    }

    /** This node bound a new client to the real. */
    void clientBound(RealFailures.Moves moves) {
        if (!countsClients()) {
            return; // the hot path's every new binding: nothing to count without maxclients
        }
        clients.incrementAndGet();
        throttle(moves);
    }

    /** A count of the live bindings naming the real, every sticky table walked. */
    void clientsCounted(long count, RealFailures.Moves moves) {
        clients.set(count);
        throttle(moves);
    }

    /**
     * A real with {@code maxclients} clients is MAXCLIENTS_THROTTLED (IOS's real-server state
     * maxClientsThrottle, CISCO-SLB-MIB SlbRealServerState); below it, OPERATIONAL again. The state
     * shows it; {@link #admit} decides, so a throttle another move lifted (a connection closing)
     * still refuses.
     */
    private void throttle(RealFailures.Moves moves) {
        if (clients.get() >= maxClients) {
            moves.move(RealState.OPERATIONAL, RealState.MAXCLIENTS_THROTTLED);
        } else {
            moves.move(RealState.MAXCLIENTS_THROTTLED, RealState.OPERATIONAL);
        }
    }

    /** The real's clients as last counted, with this node's new bindings since. */
    public long clients() {
        return clients.get();
    }

    /** New work refused because the real had taken {@code rate} in the second. */
    public long refusedRate() {
        return refusedRate.sum();
    }

    /** New work refused because the real had {@code maxclients} clients. */
    public long refusedClients() {
        return refusedClients.sum();
    }
}
