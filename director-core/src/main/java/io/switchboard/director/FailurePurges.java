package io.switchboard.director;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.ServerFarm;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * IOS {@code failaction purge} (server farm; Cisco IOS SLB Command Reference, "failaction (server
 * farm)": the connections of a real that fails are removed at once instead of waiting for their
 * timers): when a real of a farm with {@code failure.purge} fails — in band, by its probes, or on
 * another node — every sticky binding naming it is removed and the plug-ins end the sessions they keep
 * on it ({@link RealRestarts#purge}), so each subscriber's next request is placed anew.
 *
 * <p>Without it a binding to a failed real is replaced only when its subscriber's next request comes
 * (the engine's reassign), a {@code gtp-inspect} session stays pinned to the failed real, and the
 * bindings stay listed until their idle time. Requests in flight to the real are not cut: their answers,
 * if any, are still relayed, and unanswered they expire.
 *
 * <p>{@link #failed} looks at the states on the housekeeping timer (cheap, on its thread); the purge
 * walks whole tables, so the director runs it off the event loops. Each purge is logged and its
 * bindings counted in {@code switchboard_real_failure_purged_total{farm,real}}.
 */
final class FailurePurges {

    private static final Logger LOG = LoggerFactory.getLogger(FailurePurges.class);

    private final Farms farms;
    private final RealRestarts restarts;
    private final MeterRegistry registry;
    /** The failures each real had when last looked at (FAILED moves), and whether it was out for failure. */
    private final Map<RealServer, long[]> seen = new IdentityHashMap<>();

    FailurePurges(Farms farms, RealRestarts restarts, MeterRegistry registry) {
        this.farms = farms;
        this.restarts = restarts;
        this.registry = registry;
    }

    /** The reals of purging farms that failed since the last look; housekeeping thread only. */
    synchronized List<RealServer> failed() {
        List<RealServer> failed = new ArrayList<>();
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                if (!real.purgesOnFailure()) {
                    continue;
                }
                long failures = real.failures();
                long out = outForFailure(real.state()) ? 1 : 0;
                long[] before = seen.put(real, new long[] {failures, out});
                if (before != null && (failures > before[0] || out > before[1])) {
                    failed.add(real);
                }
            }
        }
        seen.keySet().removeIf(real -> farms.real(real.farm(), real.id()) != real);
        return failed;
    }

    /** FAILED (in band or from another node) and waiting for its test, or failing its probes. */
    private static boolean outForFailure(RealState state) {
        return state == RealState.FAILED || state == RealState.READY_TO_TEST || state == RealState.TESTING
                || state == RealState.PROBE_FAILED;
    }

    /** Purges what is bound to each real; walks whole tables: off the event loops. */
    void purge(List<RealServer> reals) {
        for (RealServer real : reals) {
            int bindings = restarts.purge(real);
            Counter.builder("switchboard.real.failure.purged")
                    .description("Sticky bindings removed because their real failed (failaction purge)")
                    .tag("farm", real.farm()).tag("real", real.id()).register(registry).increment(bindings);
            LOG.warn("real {} of farm {} failed ({}): {} sticky binding(s) and its sessions purged (failaction purge)",
                    real.id(), real.farm(), real.state(), bindings);
        }
    }
}
