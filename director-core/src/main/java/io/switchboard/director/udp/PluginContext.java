package io.switchboard.director.udp;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.sticky.StickyTable;

/**
 * What the engine hands a plug-in once its virtual server exists ({@link DatagramPlugin#attach}):
 * the virtual server's sticky table (shared with the other virtual servers of its sticky group), so
 * that a plug-in can learn bindings from answers (RADIUS Framed-IP-Address) and purge them; the
 * farms, to name reals in bindings; and the engine's clock. No sockets, no Vert.x.
 *
 * @param sticky   null when the virtual server keeps no sticky table
 * @param registry where a plug-in registers counters of its own (tagged with the virtual server)
 */
public record PluginContext(VirtualServerConfig config, StickyTable sticky, Farms farms, Ticker ticker,
        MeterRegistry registry) {

    /** A context whose counters go nowhere (tests, offline tools). */
    public PluginContext(VirtualServerConfig config, StickyTable sticky, Farms farms, Ticker ticker) {
        this(config, sticky, farms, ticker, new SimpleMeterRegistry());
    }
}
