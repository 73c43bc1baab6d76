package io.switchboard.director;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.RemovalPolicy;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealDrain;
import io.switchboard.director.real.RealServer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reals a reload removed, on their way out of their farms by their {@link RemovalPolicy}.
 * {@code drain}: the real drains ({@link RealDrains}, the state an operator's drain has: no new
 * subscribers, bindings and sessions go on, a deadline reassigns and releases what is left) and
 * leaves once the drain ended. {@code reassign}: the real is taken out of service on this node, its
 * bindings removed and its sessions released at once ({@link RealRestarts#purge}), and it leaves.
 * Either way the engines still match the answers to what was pending at it (they keep a real that
 * left for the response timeout). Each departure is logged and counted in
 * {@code switchboard_real_removals_total{how="drained"|"deadline"|"reassigned"}}; the real's meters go
 * with it ({@link Farms.Membership}).
 *
 * <p>Every node applies the reload itself, so a removal is this node's alone: not shared as an
 * operator's drain is. Walks sticky tables (the purge): off the event loops.
 */
final class RealRemovals {

    private static final Logger LOG = LoggerFactory.getLogger(RealRemovals.class);

    private final Farms farms;
    private final RealRestarts restarts;
    private final Counter drained;
    private final Counter deadline;
    private final Counter reassigned;
    /** The draining removed reals, and whether their farm was removed with them. */
    private final Map<RealServer, Boolean> draining = new LinkedHashMap<>();

    RealRemovals(Farms farms, RealRestarts restarts, MeterRegistry registry) {
        this.farms = farms;
        this.restarts = restarts;
        this.drained = counter(registry, "drained");
        this.deadline = counter(registry, "deadline");
        this.reassigned = counter(registry, "reassigned");
    }

    private static Counter counter(MeterRegistry registry, String how) {
        return Counter.builder("switchboard.real.removals")
                .description("Reals a reload removed that left their farm, by how their subscribers went")
                .tag("how", how).register(registry);
    }

    /** Starts the real's removal by {@code policy}; {@code farmRemoved}: its farm goes with its last real. */
    synchronized void remove(RealServer real, RemovalPolicy policy, boolean farmRemoved, long nowNanos) {
        if (!farms.leaving(real)) {
            return;
        }
        if (policy.mode() == RemovalPolicy.Mode.DRAIN
                && real.applyDrain(RealDrain.starting(nowNanos, policy.deadline().orElse(null)))) {
            LOG.info("real {} of farm {} removed: draining{}", real.id(), real.farm(),
                    policy.deadline().map(d -> " (deadline " + d + ")").orElse(""));
            draining.put(real, farmRemoved);
            return;
        }
        real.applyAdmin(false); // nothing new, and nothing bound stays (flows included)
        int bindings = restarts.purge(real);
        leave(real, farmRemoved, reassigned, bindings + " binding(s) removed, its sessions released");
    }

    /** Whether a removed real still drains. */
    synchronized boolean any() {
        return !draining.isEmpty();
    }

    /** The removed reals whose drain ended (or was ended: inservice, outofservice) leave. */
    synchronized void check() {
        draining.entrySet().removeIf(e -> {
            RealServer real = e.getKey();
            RealDrain drain = real.currentDrain();
            if (drain != null && !drain.done()) {
                return false;
            }
            boolean atDeadline = drain != null && drain.result() == RealDrain.Result.DEADLINE;
            leave(real, e.getValue(), atDeadline ? deadline : drained,
                    atDeadline ? "its drain reached the deadline" : "nothing was left on it");
            return true;
        });
    }

    private void leave(RealServer real, boolean farmRemoved, Counter how, String why) {
        if (farms.leave(real, farmRemoved)) {
            how.increment();
            LOG.info("real {} of farm {} left the farm (removed by a reload): {}", real.id(), real.farm(), why);
        }
    }
}
