package io.switchboard.director.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.ServerFarm;

/** Per-real meters, read from the reals' own counters when scraped. */
public final class RealMetrics {

    private RealMetrics() {
    }

    public static void bind(MeterRegistry registry, Farms farms) {
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                Tags tags = Tags.of("farm", farm.name(), "real", real.id());
                FunctionCounter.builder("switchboard.real.requests", real, RealServer::forwarded)
                        .description("Requests sent to the real").tags(tags).register(registry);
                FunctionCounter.builder("switchboard.real.answered", real, RealServer::answered)
                        .tags(tags).register(registry);
                FunctionCounter.builder("switchboard.real.unanswered", real, RealServer::unanswered)
                        .description("Requests that expired unanswered").tags(tags).register(registry);
                FunctionCounter.builder("switchboard.real.failures", real, RealServer::failures)
                        .description("Times the real moved to FAILED").tags(tags).register(registry);
                Gauge.builder("switchboard.real.connections", real, RealServer::connections)
                        .description("In-flight requests").tags(tags).register(registry);
                Gauge.builder("switchboard.real.weight", real, RealServer::weight).tags(tags).register(registry);
                for (RealState state : RealState.values()) {
                    Gauge.builder("switchboard.real.state", real, r -> r.state() == state ? 1 : 0)
                            .description("1 for the real's current state").tags(tags).tag("state", state.name())
                            .register(registry);
                }
            }
        }
    }
}
