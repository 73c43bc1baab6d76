package io.switchboard.l4.tcp;

import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.VirtualServerListener;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.StickyKind;
import java.util.EnumSet;
import java.util.List;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.l4.UdpService;

/**
 * {@code service: tcp}: connections balanced in directed mode — accepted on the virtual address and
 * spliced to a real — kept sticky by client address (or subnet).
 */
public final class TcpService implements DatagramService {

    private static final ServiceSpec SPEC = new ServiceSpec("tcp", EnumSet.of(PredictorKind.ROUNDROBIN, PredictorKind.LEASTCONNS, PredictorKind.HASH),
            List.of(StickyKind.CLIENT_ADDRESS), ServiceSpec.Transport.TCP)
            .withOptions(new TcpOptionsBinder());

    @Override
    public ServiceSpec spec() {
        return SPEC;
    }

    /** The client-address key function, as for UDP; the TCP listener applies it per connection. */
    @Override
    public DatagramPlugin create(VirtualServerConfig config) {
        return new UdpService().create(config);
    }

    @Override
    public VirtualServerListener listener(VirtualServer virtualServer, Farms farms, Ticker ticker) {
        ServiceOptions options = virtualServer.config().options();
        return new TcpDirectorVerticle(virtualServer, options instanceof TcpOptions tcp ? tcp : TcpOptions.DEFAULT,
                ticker);
    }
}
