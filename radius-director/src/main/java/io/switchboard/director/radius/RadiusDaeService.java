package io.switchboard.director.radius;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.ServiceSpec;
import java.util.EnumSet;

/**
 * {@code service: radius-dae}: the director's Dynamic Authorization listener (RFC 5176, usually on
 * port 3799): CoA- and Disconnect-Requests from the AAA servers of its farm, relayed to the NAS of
 * the session ({@link DynamicAuthorization}).
 */
public final class RadiusDaeService implements DatagramService {

    /**
     * The farm's predictor selects nothing here (the reals send; the NAS is the session's): the
     * radius service's are accepted, so that the farm may be the accounting virtual server's.
     */
    private static final ServiceSpec SPEC = ServiceSpec.udp("radius-dae",
            EnumSet.of(PredictorKind.ROUNDROBIN, PredictorKind.HASH, PredictorKind.ROUTE_MAP))
            .withOptions(new DaeOptionsBinder());

    @Override
    public ServiceSpec spec() {
        return SPEC;
    }

    @Override
    public DatagramPlugin create(VirtualServerConfig config) {
        if (!(config.options() instanceof DaeOptions dae)) {
            throw new IllegalArgumentException("virtual server " + config.name()
                    + ": service radius-dae needs its clients and sessions (clients: [...], dae: {sessions: ...})");
        }
        return new DynamicAuthorization(config.name(), dae);
    }
}
