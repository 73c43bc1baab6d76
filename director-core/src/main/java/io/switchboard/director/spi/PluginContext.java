package io.switchboard.director.spi;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.shared.SharedTables;

/**
 * What the engine hands a plug-in once its virtual server exists ({@link DatagramPlugin#attach}):
 * the virtual server's sticky table (shared with the other virtual servers of its sticky group), so
 * that a plug-in can learn bindings from answers (RADIUS Framed-IP-Address) and purge them; the
 * farms, to name reals in bindings; the engine's clock; and this node's slot in the cluster. No
 * sockets, no Vert.x, and nothing of the engine's reals and tables but these views of them.
 *
 * @param sticky   the bindings of the virtual server's sticky table; null when it keeps none
 * @param farms    every configured farm, read-only
 * @param registry where a plug-in registers counters of its own (tagged with the virtual server)
 * @param node     this node's slot in the cluster ({@link NodeSlot#SINGLE} when not clustered): a
 *                 plug-in that allocates identifiers other nodes must never allocate too (GTP TEIDs
 *                 and sequence numbers of {@code gtp-inspect}) puts {@code node.index()} in their top
 *                 {@code node.bits()} bits with {@link NodeSlot#compose} and counts in the rest. Every
 *                 live member has a distinct index and the same capacity, so two nodes' identifiers
 *                 never collide; the index holds for the node's lifetime and may differ after a restart.
 * @param tables   opens {@link io.switchboard.director.shared.SharedTable}s: state that another node
 *                 must be able to take over (gtp-inspect sessions), shared by the cluster, in memory
 *                 on a single node; reads are local. Open them in {@code attach} (it may block while
 *                 the table catches up; attach runs at startup, not on an event loop).
 * @param reals    what the plug-in does to the reals through the engine (weights from load feedback,
 *                 sessions counted as connections), which a {@link RealView} does not let it change
 */
public record PluginContext(VirtualServerConfig config, StickyBindings sticky, FarmViews farms, Ticker ticker,
        MeterRegistry registry, NodeSlot node, SharedTables tables, EngineReals reals) {

    /** With the engine's {@link EngineReals}. */
    public PluginContext(VirtualServerConfig config, StickyBindings sticky, FarmViews farms, Ticker ticker,
            MeterRegistry registry, NodeSlot node, SharedTables tables) {
        this(config, sticky, farms, ticker, registry, node, tables, EngineReals.ENGINE);
    }

    /** A single node's context. */
    public PluginContext(VirtualServerConfig config, StickyBindings sticky, FarmViews farms, Ticker ticker,
            MeterRegistry registry) {
        this(config, sticky, farms, ticker, registry, NodeSlot.SINGLE, SharedTables.IN_MEMORY);
    }

    /** A context whose counters go nowhere (tests, offline tools). */
    public PluginContext(VirtualServerConfig config, StickyBindings sticky, FarmViews farms, Ticker ticker) {
        this(config, sticky, farms, ticker, new SimpleMeterRegistry());
    }
}
