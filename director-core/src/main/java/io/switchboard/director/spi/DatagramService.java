package io.switchboard.director.spi;

import io.switchboard.director.stream.StreamListener;
import io.switchboard.director.udp.UdpDirectorVerticle;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.VirtualServerListener;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.ServiceSpec;

/**
 * A protocol service as the launcher finds it: what it declares about itself and how it is set up
 * for one virtual server. A {@link io.switchboard.director.spi.PluginModule} lists its services.
 */
public interface DatagramService {

    /** The service's name, predictors, sticky key kinds and transport. */
    ServiceSpec spec();

    DatagramPlugin create(VirtualServerConfig config);

    /**
     * Like {@link #create(VirtualServerConfig)}, for plug-ins that keep counters of their own (per
     * message type, per real) in the director's registry; tag them with the virtual server's name.
     * The director calls this one; the default ignores the registry.
     */
    default DatagramPlugin create(VirtualServerConfig config, MeterRegistry registry) {
        return create(config);
    }

    /**
     * What listens for one of this service's virtual servers: the UDP director — with a listener for
     * the clients that connect beside it when its plug-in has some ({@link TransactionPlugin#clientStreams})
     * — unless the service brings a listener of its own (TCP).
     */
    default VirtualServerListener listener(VirtualServer virtualServer, Farms farms, Ticker ticker) {
        if (virtualServer.plugin() instanceof TransactionPlugin<?> plugin && plugin.clientStreams() != null) {
            return new StreamListener(virtualServer, farms, ticker, plugin.clientStreams());
        }
        return new UdpDirectorVerticle(virtualServer, farms, ticker);
    }
}
