package io.switchboard.director.asn;

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
 * {@code service: asn}: WiMAX ASN gateway load balancing on R6 (UDP 2231). MS_PreAttachment_Req from
 * a base station is balanced and binds its MSID to the chosen gateway; the Ack and every later
 * message for that MSID follow the binding; see {@link AsnPlugin}.
 */
public final class AsnService implements DatagramService {

    private static final ServiceSpec SPEC = ServiceSpec.udp("asn", EnumSet.of(PredictorKind.ROUNDROBIN, PredictorKind.HASH), AsnModule.MSID)
            .withOptions(new AsnOptionsBinder());

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
        AsnOptions options = config.options() == ServiceOptions.NONE ? AsnOptions.DEFAULT
                : config.options(AsnOptions.class);
        return new AsnPlugin(options, new AsnCounters(registry, config.name()));
    }
}
