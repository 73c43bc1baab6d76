package io.switchboard.director.dfp;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agents' weights given to the reals, and taken back: a Host Preference Field (draft-eck-dfp-01
 * §5.2) weighs every real with its address, the Load TLV's port (0: any) and its bind ID, through
 * (the real's own {@code bind-id}, else its farm's) through
 * {@link RealServer#setWeight} as every dynamic weight is (0 is DFP_THROTTLED there, and the
 * cluster hears of it). When the agent that set a real's weight is lost, the real gets its static
 * weight back (§7.1: "the DFP Manager must use the default values for the real servers"). Weights
 * above 255, the most a real takes, count as 255. Not thread-safe: one event loop calls it.
 */
final class DfpWeights {

    private static final Logger LOG = LoggerFactory.getLogger(DfpWeights.class);
    static final int MAX_WEIGHT = 255;

    private final Farms farms;
    private final DfpConfig config;
    private final MeterRegistry registry;
    /** Which agent set each real's weight. */
    private final Map<RealServer, String> setBy = new HashMap<>();

    DfpWeights(Farms farms, DfpConfig config, MeterRegistry registry) {
        this.farms = farms;
        this.config = config;
        this.registry = registry;
    }

    /** Applies one Load TLV from {@code agent}. */
    void apply(String agent, DfpLoad load) {
        for (DfpLoad.Host host : load.hosts()) {
            int weight = Math.min(host.weight(), MAX_WEIGHT);
            if (weight != host.weight()) {
                count(agent, "capped");
            }
            int matched = 0;
            for (ServerFarm farm : farms.all()) {
                for (RealServer real : farm.reals()) {
                    if (matches(farm.name(), real, load.port(), host)) {
                        matched++;
                        setBy.put(real, agent);
                        if (real.weight() != weight) {
                            LOG.info("DFP agent {}: real {} of farm {} weight {} -> {}", agent, real.id(), farm.name(),
                                    real.weight(), weight);
                            real.setWeight(weight);
                        }
                    }
                }
            }
            count(agent, matched == 0 ? "no-real" : "applied");
        }
    }

    /** The reals {@code agent} weighed get their static weights back. @return how many */
    int revert(String agent) {
        int reverted = 0;
        for (Iterator<Map.Entry<RealServer, String>> i = setBy.entrySet().iterator(); i.hasNext(); ) {
            Map.Entry<RealServer, String> e = i.next();
            if (e.getValue().equals(agent)) {
                RealServer real = e.getKey();
                real.setWeight(real.staticWeight());
                i.remove();
                reverted++;
            }
        }
        return reverted;
    }

    private boolean matches(String farm, RealServer real, int port, DfpLoad.Host host) {
        return real.address().getAddress().equals(host.address())
                && (port == 0 || real.address().getPort() == port)
                && real.value(DfpBindId.KEY).orElseGet(() -> config.bindId(farm)) == host.bindId();
    }

    private void count(String agent, String result) {
        DfpMeters.count(registry, DfpMeters.WEIGHTS, agent, result);
    }
}
