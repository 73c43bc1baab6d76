package io.switchboard.director.spi;

import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyBinding;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * A real as a plug-in sees it: who it is and whether it serves, nothing it could change. The engine
 * alone moves a real's state, weight and counts (a plug-in reports through {@link EngineReals}).
 */
public interface RealView {

    /** The real's farm. */
    String farm();

    /** {@code address:port} as configured. */
    String id();

    InetSocketAddress address();

    /** A small number unique among the reals of every farm: an index for per-real arrays. */
    int slot();

    /** The binding that names this real in a sticky table ({@code Decision.Placement.Pinned}). */
    StickyBinding binding();

    /** A per-real value of a plug-in's configuration key (RADIUS {@code secret}), if configured. */
    <T> Optional<T> value(RealKey<T> key);

    RealState state();

    /** The weight the predictors use now (static, or from load feedback). */
    int weight();

    /** The configured weight, which load feedback scales. */
    int staticWeight();

    /** Whether the real serves the clients bound to it (any state but failed or out of service). */
    boolean servesBoundClients();
}
