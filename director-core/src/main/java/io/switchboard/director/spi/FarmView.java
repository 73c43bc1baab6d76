package io.switchboard.director.spi;

import io.switchboard.director.predictor.PrefixTable;
import java.util.List;

/**
 * A configured farm as a plug-in sees it ({@link FarmViews#farm}): its reals and its route map, nothing
 * it could change. The engine's farm implements it, so a real found here is the very {@link RealView}
 * the engine hands the plug-in with a request or an answer (a plug-in may key its maps by it).
 */
public interface FarmView {

    String name();

    /** The farm's reals, in configuration order. */
    List<? extends RealView> reals();

    /** The real with id {@code address:port}, or null. */
    RealView real(String id);

    /**
     * The route-map predictor's prefixes and their reals (empty for other predictors): the plug-in
     * that knows the subscriber's address (RADIUS: Framed-IP-Address) looks it up.
     */
    PrefixTable<? extends RealView> routeMap();
}
