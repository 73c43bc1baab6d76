package io.switchboard.director.spi;

import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * The started director as a {@link DemoScenario} sees it: the one virtual server of the scenario's
 * configuration, its farm's reals and its sticky table, read at the moment of asking. Nothing here
 * changes the director; what the scenario shows, it shows by sending traffic.
 */
public interface DemoDirector {

    /** The virtual server's bound address, where the simulated clients send. */
    InetSocketAddress address();

    /** The virtual server's name, as configured. */
    String virtualServer();

    /** The reals of the virtual server's farm now, in configuration order. */
    List<Real> reals();

    /** The id of the real {@code key} is bound to now in the virtual server's sticky table, if any. */
    Optional<String> boundReal(StickyKey key);

    /** The virtual server's counters now. */
    Counters counters();

    /**
     * A real as the demo prints it: its id ({@code address:port} as configured), weight and state,
     * and the connections (sessions, for a plug-in that counts them) the director holds open on it.
     */
    record Real(String id, int weight, RealState state, int connections) {
    }

    /** What the virtual server received and what became of it. */
    record Counters(long received, long forwarded, long relayed, long reassigned, long expired) {
    }
}
