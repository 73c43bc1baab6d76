package io.switchboard.director.spi;

import java.util.Collection;

/**
 * Every configured farm as a plug-in sees it ({@link PluginContext#farms()}): to name reals in what it
 * keeps (a session's real, read back from a shared table by farm and id), to set up per-real state
 * (secrets, counters) and to check the farms its options name. Read-only: what a plug-in does to a
 * real goes through {@link EngineReals}.
 */
public interface FarmViews {

    /** The farm named {@code name}, or null. */
    FarmView farm(String name);

    /** The real {@code id} of farm {@code farm}, or null. */
    RealView real(String farm, String id);

    /** Every farm, in configuration order. */
    Collection<? extends FarmView> all();

    /**
     * Moves on whenever a reload adds, changes or removes a farm or a real: a plug-in that set up
     * per-real state at attach (secrets, counters) sets it up again when this is not what it saw.
     * A volatile read; cheap enough for the packet path.
     */
    default long version() {
        return 0;
    }
}
