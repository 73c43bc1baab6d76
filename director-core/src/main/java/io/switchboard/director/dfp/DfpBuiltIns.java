package io.switchboard.director.dfp;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Built-in agents: every {@code interval}, each real of the farm gets the weight its formula gives
 * from the counts the director keeps of it (for a GGSN, the sessions open on it stand for its PDP
 * contexts), through {@link RealServer#setWeight} as an agent's weight would. A real out of service
 * or failed is left alone: its state, not its weight, keeps work from it.
 */
public final class DfpBuiltIns implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DfpBuiltIns.class);

    private final Vertx vertx;
    private final List<Long> timers = new ArrayList<>();

    public DfpBuiltIns(Vertx vertx, DfpConfig config, Farms farms, MeterRegistry registry) {
        this.vertx = vertx;
        for (DfpConfig.BuiltIn b : config.builtIns()) {
            String agent = "built-in:" + b.farm();
            timers.add(vertx.setPeriodic(0, Math.max(1, b.interval().toMillis()), id -> weigh(farms, b, agent, registry)));
        }
    }

    /** Works the weights of one built-in agent out once. */
    static void weigh(Farms farms, DfpConfig.BuiltIn b, String agent, MeterRegistry registry) {
        ServerFarm farm = farms.farm(b.farm());
        if (farm == null) {
            return;
        }
        for (RealServer real : farm.reals()) {
            if (!real.state().servesBoundClients()) {
                continue;
            }
            int weight = DfpFormulas.ggsn(real.connections(), b.maxContexts(), b.maxWeight());
            if (weight != real.weight()) {
                LOG.debug("{}: real {} weight {} -> {} ({} of {} contexts)", agent, real.id(), real.weight(), weight,
                        real.connections(), b.maxContexts());
                real.setWeight(weight);
                DfpMeters.count(registry, DfpMeters.WEIGHTS, agent, "applied");
            }
        }
    }

    @Override
    public void close() {
        timers.forEach(vertx::cancelTimer);
    }
}
