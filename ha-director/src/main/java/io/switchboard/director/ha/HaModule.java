package io.switchboard.director.ha;

import io.switchboard.director.spi.LoadWeights;
import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.PluginModule;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.ProbeType;
import java.util.List;
import java.util.Optional;

/**
 * The Home Agent Director: {@code ipmobile}, Mobile IPv4 registrations spread over home agents,
 * probed by deregistering Registration Requests, weighted by the load the agents report.
 */
public final class HaModule implements PluginModule {

    @Override
    public List<DatagramService> services() {
        return List.of(new HaService());
    }

    @Override
    public List<ProbeType> probeTypes() {
        return List.of(MobileIpCheck.TYPE);
    }

    @Override
    public List<MetricSpec> metrics() {
        return HaCounters.METRICS;
    }

    @Override
    public Optional<LoadWeights> loadWeights() {
        return Optional.of(HomeAgentLoad.WEIGHTS);
    }
}
