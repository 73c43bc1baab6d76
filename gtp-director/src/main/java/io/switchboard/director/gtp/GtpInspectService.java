package io.switchboard.director.gtp;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.spi.ServiceSpec;
import java.util.EnumSet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;

/**
 * {@code service: gtp-inspect}, IOS SLB GPRS load balancing with cause-code inspection: creates that
 * a real refuses for lack of resources are resent to another real, and GTPv1/v2 sessions pass through
 * the director (see {@link GtpInspectPlugin}).
 */
public final class GtpInspectService implements DatagramService {

    private static final ServiceSpec SPEC = ServiceSpec.udp("gtp-inspect", EnumSet.of(PredictorKind.ROUNDROBIN, PredictorKind.LEASTCONNS), GtpModule.IMSI)
            .withOptions(new GtpOptionsBinder());

    @Override
    public ServiceSpec spec() {
        return SPEC;
    }

    @Override
    public DatagramPlugin create(VirtualServerConfig config) {
        return new GtpInspectPlugin(GtpService.optionsOf(config), config.listen().address());
    }
}
