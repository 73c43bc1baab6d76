package io.switchboard.director.radius;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.spi.ServiceSpec;
import java.util.EnumSet;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import java.util.List;

/**
 * {@code service: radius}: RADIUS authentication and accounting (RFC 2865, 2866) balanced over a
 * farm of AAA servers or RADIUS-aware gateways, re-signed hop by hop, sticky by subscriber.
 */
public final class RadiusService implements DatagramService {

    private static final ServiceSpec SPEC = ServiceSpec.udp("radius", EnumSet.of(PredictorKind.ROUNDROBIN, PredictorKind.HASH, PredictorKind.ROUTE_MAP),
            RadiusModule.FRAMED_IP, RadiusModule.FRAMED_IPV6_PREFIX, RadiusModule.DELEGATED_IPV6_PREFIX,
            RadiusModule.CALLING_STATION_ID, RadiusModule.USERNAME)
            .withOptions(new RadiusOptionsBinder());

    /** The key order used when a virtual server keeps no sticky table (only for hashing). */
    static final List<StickyKind> DEFAULT_KEYS = List.of(RadiusModule.CALLING_STATION_ID, RadiusModule.USERNAME);

    @Override
    public ServiceSpec spec() {
        return SPEC;
    }

    @Override
    public DatagramPlugin create(VirtualServerConfig config) {
        ServiceOptions options = config.options();
        if (!(options instanceof RadiusOptions radius)) {
            throw new IllegalArgumentException("virtual server " + config.name()
                    + ": service radius needs its clients (clients: [{subnet: ..., secret: ...}])");
        }
        List<StickyKind> keys = config.sticky().map(StickyConfig::keys).orElse(DEFAULT_KEYS);
        return new RadiusPlugin(config.name(), radius, keys);
    }
}
