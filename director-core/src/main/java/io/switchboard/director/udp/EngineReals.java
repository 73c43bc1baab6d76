package io.switchboard.director.udp;

import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a plug-in may do to the reals through the engine ({@link PluginContext#reals()}), instead of
 * changing {@link RealServer}s or selecting on its own: give a real the dynamic weight its answers
 * report (GTPv2 load control), count a long-lived session as a connection of its real (so that
 * {@code leastconns} and {@code maxconns} see sessions), and select a real of another farm than the
 * virtual server's (a GTP APN map) with the engine's selector over the virtual server's sticky table.
 */
public interface EngineReals {

    /**
     * Feedback from the real's answers sets its dynamic weight (the predictors follow it as they
     * follow DFP's; 0 throttles the real to its bound clients). Nothing happens when the real has
     * that weight already.
     */
    void weigh(RealServer real, int weight);

    /** A long-lived session opened on {@code real}: one connection more until {@link #sessionClosed}. */
    void sessionOpened(RealServer real);

    /** A session of {@link #sessionOpened} ended. */
    void sessionClosed(RealServer real);

    /**
     * The selection for {@code key} in farm {@code farm} (its backups after it), bindings kept in the
     * virtual server's sticky table; null when no real may take it.
     *
     * @throws IllegalArgumentException when no farm has that name
     */
    Selection select(String farm, StickyKey key, long nowNanos);

    /** The engine's: over these farms, bindings in {@code sticky} (null: the virtual server keeps none). */
    static EngineReals of(Farms farms, StickyTable sticky) {
        return new Engine(farms, sticky);
    }

    /** The engine's implementation: one selector per farm asked for, made on first use. */
    final class Engine implements EngineReals {

        private static final Logger LOG = LoggerFactory.getLogger(EngineReals.class);

        private final Farms farms;
        private final StickyTable sticky;
        private final Map<String, RealSelector> selectors = new ConcurrentHashMap<>();

        private Engine(Farms farms, StickyTable sticky) {
            this.farms = farms;
            this.sticky = sticky;
        }

        @Override
        public void weigh(RealServer real, int weight) {
            int previous = real.weight();
            if (previous != weight) {
                real.setWeight(weight);
                LOG.debug("real {} of farm {}: weight {} -> {} from its answers' load feedback", real.id(),
                        real.farm(), previous, weight);
            }
        }

        @Override
        public void sessionOpened(RealServer real) {
            real.sessionOpened();
        }

        @Override
        public void sessionClosed(RealServer real) {
            real.sessionClosed();
        }

        @Override
        public Selection select(String farm, StickyKey key, long nowNanos) {
            RealSelector selector = selectors.get(farm);
            if (selector == null) {
                selector = selectors.computeIfAbsent(farm, name -> {
                    ServerFarm f = farms.farm(name);
                    if (f == null) {
                        throw new IllegalArgumentException("no farm '" + name + "'");
                    }
                    return new RealSelector(farms, f, sticky);
                });
            }
            return selector.select(key, nowNanos);
        }
    }
}
