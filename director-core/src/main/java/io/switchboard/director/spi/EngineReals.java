package io.switchboard.director.spi;

import io.switchboard.director.real.RealServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a plug-in may do to the reals through the engine ({@link PluginContext#reals()}), instead of
 * changing {@link RealServer}s or selecting on its own: give a real the dynamic weight its answers
 * report (GTPv2 load control), count a long-lived session as a connection of its real (so that
 * {@code leastconns} and {@code maxconns} see sessions). (A request the plug-in wants selected in
 * another farm than the virtual server's says so in its decision: {@code Decision.Placement.InFarm}.)
 */
public interface EngineReals {

    /**
     * Feedback from the real's answers sets its dynamic weight (the predictors follow it as they
     * follow DFP's; 0 throttles the real to its bound clients). Nothing happens when the real has
     * that weight already.
     */
    void weigh(RealView real, int weight);

    /** A long-lived session opened on {@code real}: one connection more until {@link #sessionClosed}. */
    void sessionOpened(RealView real);

    /** A session of {@link #sessionOpened} ended. */
    void sessionClosed(RealView real);

    /** The engine's. */
    EngineReals ENGINE = new Engine();

    /** The engine's implementation. */
    final class Engine implements EngineReals {

        private static final Logger LOG = LoggerFactory.getLogger(EngineReals.class);

        private Engine() {
        }

        @Override
        public void weigh(RealView view, int weight) {
            RealServer real = (RealServer) view; // every real a plug-in is handed is the engine's
            int previous = real.weight();
            if (previous != weight) {
                real.setWeight(weight);
                LOG.debug("real {} of farm {}: weight {} -> {} from its answers' load feedback", real.id(),
                        real.farm(), previous, weight);
            }
        }

        @Override
        public void sessionOpened(RealView real) {
            ((RealServer) real).sessionOpened();
        }

        @Override
        public void sessionClosed(RealView real) {
            ((RealServer) real).sessionClosed();
        }
    }
}
