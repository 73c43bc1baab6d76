package io.switchboard.director.ha;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.spi.ServiceSpec;
import java.util.EnumSet;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;

/**
 * {@code service: ipmobile}: the Home Agent Director. Mobile IP Registration Requests sent to the
 * virtual home-agent address are spread over a farm of home agents by weighted round robin, without
 * stickiness; see {@link HaPlugin}.
 */
public final class HaService implements DatagramService {

    private static final ServiceSpec SPEC = ServiceSpec.udp("ipmobile", EnumSet.of(PredictorKind.ROUNDROBIN))
            .withOptions(new HaOptionsBinder());

    @Override
    public ServiceSpec spec() {
        return SPEC;
    }

    @Override
    public DatagramPlugin create(VirtualServerConfig config) {
        return create(config, new SimpleMeterRegistry());
    }

    @Override
    public DatagramPlugin create(VirtualServerConfig config, MeterRegistry registry) {
        HaOptions options = config.options() == ServiceOptions.NONE ? HaOptions.DEFAULT : config.options(HaOptions.class);
        return new HaPlugin(options, new HaCounters(registry, config.name()));
    }
}
