package io.switchboard.director.gtp;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.spi.ServiceSpec;
import java.util.EnumSet;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;

/**
 * {@code service: gtp}, IOS SLB GPRS load balancing without cause-code inspection: tunnel-creating
 * requests sent to the virtual address are balanced by IMSI and their answers relayed; the rest of a
 * session flows directly between the peers.
 */
public final class GtpService implements DatagramService {

    private static final ServiceSpec SPEC = ServiceSpec.udp("gtp", EnumSet.of(PredictorKind.ROUNDROBIN), GtpModule.IMSI)
            .withOptions(new GtpOptionsBinder());

    @Override
    public ServiceSpec spec() {
        return SPEC;
    }

    @Override
    public DatagramPlugin create(VirtualServerConfig config) {
        return new GtpPlugin<Void>(optionsOf(config));
    }

    static GtpOptions optionsOf(VirtualServerConfig config) {
        return config.options() instanceof GtpOptions gtp ? gtp
                : config.options() == ServiceOptions.NONE ? GtpOptions.DEFAULT : config.options(GtpOptions.class);
    }
}
