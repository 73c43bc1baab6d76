package io.switchboard.director.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.ServerFarm;
import java.util.List;

/**
 * Per-real meters, read from the reals' own counters when scraped; a real a reload adds gets them,
 * a real that leaves its farm loses them, with every other meter tagged with its farm and id (its
 * probes' checks, its restarts).
 */
public final class RealMetrics {

    private RealMetrics() {
    }

    /** The meters of every real of {@code farms}, now and as reals join and leave. */
    public static void bind(MeterRegistry registry, Farms farms) {
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                bind(registry, real);
            }
        }
        farms.membership(new Farms.Membership() {
            @Override
            public void joined(RealServer real) {
                bind(registry, real);
            }

            @Override
            public void left(RealServer real) {
                unbind(registry, real);
            }
        });
    }

    private static void bind(MeterRegistry registry, RealServer real) {
        Tags tags = Tags.of("farm", real.farm(), "real", real.id());
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
        // IOS rate and maxclients: new work the real was skipped for, by the limit that refused it.
        FunctionCounter.builder("switchboard.real.refused", real, r -> r.limits().refusedRate())
                .description("New work refused by the real's rate or maxclients").tags(tags).tag("reason", "rate")
                .register(registry);
        FunctionCounter.builder("switchboard.real.refused", real, r -> r.limits().refusedClients())
                .description("New work refused by the real's rate or maxclients").tags(tags).tag("reason", "maxclients")
                .register(registry);
        Gauge.builder("switchboard.real.clients", real, r -> r.limits().clients())
                .description("Sticky clients bound to the real, as last counted (with maxclients)").tags(tags)
                .register(registry);
        for (RealState state : RealState.values()) {
            Gauge.builder("switchboard.real.state", real, r -> r.state() == state ? 1 : 0)
                    .description("1 for the real's current state").tags(tags).tag("state", state.name())
                    .register(registry);
        }
    }

    private static void unbind(MeterRegistry registry, RealServer real) {
        List<Meter> meters = registry.getMeters().stream()
                .filter(m -> real.farm().equals(m.getId().getTag("farm")) && real.id().equals(m.getId().getTag("real")))
                .toList();
        meters.forEach(registry::remove);
    }
}
