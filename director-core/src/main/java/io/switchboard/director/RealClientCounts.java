package io.switchboard.director;

import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyTable;
import java.util.Collection;

/**
 * Counts the sticky clients of every real with a {@code maxclients} ({@link io.switchboard.director.real.NewWorkLimits}):
 * the live bindings naming it in every sticky table (IMSI, RADIUS, MSID, client address...), so that a
 * real bound {@code maxclients} subscribers takes no new one. Between two counts each node adds the
 * bindings it makes itself.
 *
 * <p>In a cluster the tables are shared (every node reads the whole table locally), so each node counts
 * every node's bindings and the limit holds for the cluster, as IOS's did for its one chassis; between
 * two counts a node does not see the bindings the others make, so the limit may be passed by what the
 * other nodes bind in {@link #CHECK_NANOS}. Counting walks whole tables: off the event loops, and only
 * when some real has a {@code maxclients}.
 */
final class RealClientCounts {

    /** How often the clients are counted. */
    static final long CHECK_NANOS = 500_000_000L;

    private final Farms farms;
    private final Collection<StickyTable> stickyTables;
    private long nextCheckNanos = Long.MIN_VALUE;

    RealClientCounts(Farms farms, Collection<StickyTable> stickyTables) {
        this.farms = farms;
        this.stickyTables = stickyTables;
    }

    /** Whether a count is due: some real has a maxclients and the last count is {@link #CHECK_NANOS} old. */
    boolean due(long nowNanos) {
        if (nextCheckNanos != Long.MIN_VALUE && nowNanos - nextCheckNanos < 0 || !anyCounted()) {
            return false;
        }
        nextCheckNanos = nowNanos + CHECK_NANOS;
        return true;
    }

    private boolean anyCounted() {
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                if (real.limits().countsClients()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Counts the clients of every real with a maxclients. */
    synchronized void check(long nowNanos) {
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                if (real.limits().countsClients()) {
                    long count = 0;
                    for (StickyTable table : stickyTables) {
                        count += table.countBoundTo(real.farm(), real.id(), nowNanos);
                    }
                    real.clientsCounted(count);
                }
            }
        }
    }
}
