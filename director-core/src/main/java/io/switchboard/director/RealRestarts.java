package io.switchboard.director;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.probe.RealRestartListener;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.sticky.StickyTable;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the director does when a probe sees a real restart (its GTP restart counter changed): counts
 * it ({@code switchboard_real_restarts_total{farm,real}}), logs it, and, when the probe purges,
 * removes every sticky binding to the real and tells the plug-in of each virtual server whose farm
 * (or backup farm) holds it, which drops the sessions it keeps for that real. Walks whole tables, so
 * the director runs it off the event loops.
 */
final class RealRestarts implements RealRestartListener {

    private static final Logger LOG = LoggerFactory.getLogger(RealRestarts.class);

    private final Collection<VirtualServer> virtualServers;
    private final Collection<StickyTable> stickyTables;
    private final MeterRegistry registry;

    RealRestarts(Collection<VirtualServer> virtualServers, Collection<StickyTable> stickyTables, MeterRegistry registry) {
        this.virtualServers = virtualServers;
        this.stickyTables = stickyTables;
        this.registry = registry;
    }

    @Override
    public void restarted(RealView real, int previous, int current, boolean purge) {
        Counter.builder("switchboard.real.restarts").description("Restarts of a real seen by its probes (GTP Recovery)")
                .tag("farm", real.farm()).tag("real", real.id()).register(registry).increment();
        if (!purge) {
            LOG.warn("real {} of farm {} restarted (restart counter {} -> {})", real.id(), real.farm(), previous, current);
            return;
        }
        int bindings = purge(real);
        LOG.warn("real {} of farm {} restarted (restart counter {} -> {}): {} sticky binding(s) and its sessions purged",
                real.id(), real.farm(), previous, current, bindings);
    }

    /**
     * Removes every sticky binding to the real and has the plug-ins end the sessions they keep on it
     * (as for a restart; a drain's deadline does the same). Walks whole tables: off the event loops.
     *
     * @return how many bindings were removed
     */
    int purge(RealView real) {
        int bindings = 0;
        for (StickyTable table : stickyTables) {
            bindings += table.removeBoundTo(real.farm(), real.id());
        }
        Map<Object, Boolean> told = new IdentityHashMap<>();
        for (VirtualServer vs : virtualServers) {
            if (holds(vs.selector().farm(), real.farm()) && told.put(vs.plugin(), Boolean.TRUE) == null) {
                vs.plugin().realRestarted(real);
            }
        }
        return bindings;
    }

    /** Whether {@code farm} or one of its backups is the farm named {@code name}. */
    private static boolean holds(ServerFarm farm, String name) {
        // Backup chains are validated acyclic at start-up; the bound only guards the walk.
        int hops = 0;
        for (ServerFarm f = farm; f != null && hops < 64; f = f.backup(), hops++) {
            if (f.name().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
