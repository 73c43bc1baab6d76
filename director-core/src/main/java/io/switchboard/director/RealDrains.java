package io.switchboard.director;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealDrain;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyTable;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the drains of the reals ({@link RealDrain}) for the director's housekeeping: counts what
 * each still has — the live sticky bindings naming it, its connections (a gtp-inspect session is one)
 * — and ends the drain when both are zero ({@code completed}) or, at its deadline, removes the
 * bindings and releases the sessions as for a restart of the real ({@link RealRestarts#purge}) and
 * ends it ({@code deadline}). Each ending is logged once and counted in
 * {@code switchboard_real_drains_total{result}}; what a deadline released in
 * {@code switchboard_real_drain_released_total{what="bindings"|"sessions"}}.
 *
 * <p>Counting walks whole sticky tables, so {@link #check} runs off the event loops, at most every
 * {@link #CHECK_NANOS}, and only while a drain goes on. In a cluster every node follows the drain
 * (it is shared as the other admin states are) and counts its own connections; the bindings, one
 * table for all, are counted alike everywhere.
 */
final class RealDrains {

    private static final Logger LOG = LoggerFactory.getLogger(RealDrains.class);
    /** How often what is left of a drain is counted. */
    static final long CHECK_NANOS = 500_000_000L;

    private final Farms farms;
    private final Collection<StickyTable> stickyTables;
    private final RealRestarts restarts;
    private final Map<RealDrain.Result, Counter> drains = new EnumMap<>(RealDrain.Result.class);
    private final Counter releasedBindings;
    private final Counter releasedSessions;
    private long nextCheckNanos = Long.MIN_VALUE;

    RealDrains(Farms farms, Collection<StickyTable> stickyTables, RealRestarts restarts, MeterRegistry registry) {
        this.farms = farms;
        this.stickyTables = stickyTables;
        this.restarts = restarts;
        for (RealDrain.Result result : RealDrain.Result.values()) {
            drains.put(result, Counter.builder("switchboard.real.drains")
                    .description("Drains of reals ended: nothing left, or the deadline came first")
                    .tag("result", result.label()).register(registry));
        }
        releasedBindings = released(registry, "bindings");
        releasedSessions = released(registry, "sessions");
    }

    private static Counter released(MeterRegistry registry, String what) {
        return Counter.builder("switchboard.real.drain.released")
                .description("What a drain's deadline reassigned (sticky bindings) or released (sessions)")
                .tag("what", what).register(registry);
    }

    /** Whether a check is due: a drain goes on and the last check is {@link #CHECK_NANOS} old. Housekeeping thread only. */
    boolean due(long nowNanos) {
        if (nextCheckNanos != Long.MIN_VALUE && nowNanos - nextCheckNanos < 0 || !anyGoingOn()) {
            return false;
        }
        nextCheckNanos = nowNanos + CHECK_NANOS;
        return true;
    }

    private boolean anyGoingOn() {
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                RealDrain drain = real.currentDrain();
                if (drain != null && !drain.done()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Counts what every drain going on has left, and ends those with nothing left or past their deadline. */
    synchronized void check(long nowNanos) {
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                RealDrain drain = real.currentDrain();
                if (drain != null && !drain.done()) {
                    check(real, drain, nowNanos);
                }
            }
        }
    }

    private void check(RealServer real, RealDrain drain, long nowNanos) {
        long bindings = bindings(real, nowNanos);
        int connections = real.connections();
        drain.left(bindings, connections);
        if (bindings == 0 && connections == 0) {
            if (drain.end(RealDrain.Result.COMPLETED)) {
                drains.get(RealDrain.Result.COMPLETED).increment();
                LOG.info("real {} of farm {} drained: no binding names it, no connection is open", real.id(), real.farm());
            }
        } else if (drain.pastDeadline(nowNanos) && drain.end(RealDrain.Result.DEADLINE)) {
            int removed = restarts.purge(real);
            // The plug-ins close the real's sessions as they purge them; requests still in flight stay counted.
            int released = Math.max(0, connections - real.connections());
            releasedBindings.increment(removed);
            releasedSessions.increment(released);
            drains.get(RealDrain.Result.DEADLINE).increment();
            drain.left(bindings(real, nowNanos), real.connections());
            LOG.warn("real {} of farm {}: drain deadline reached with {} binding(s) and {} connection(s) left: "
                    + "{} binding(s) removed (reassigned at their next request), {} session(s) released",
                    real.id(), real.farm(), bindings, connections, removed, released);
        }
    }

    private long bindings(RealServer real, long nowNanos) {
        long count = 0;
        for (StickyTable table : stickyTables) {
            count += table.countBoundTo(real.farm(), real.id(), nowNanos);
        }
        return count;
    }
}
