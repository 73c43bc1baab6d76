package io.switchboard.director.probe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every farm's probes against each of its reals, each check after the previous one of the same
 * probe and real has finished (so a slow real never has checks piling up). A real whose checks of
 * one probe fail {@code failures} times in a row is PROBE_FAILED; once every probe of its farm
 * passes again it is restored (IOS: a real failing any probe is failed; all must pass).
 */
public final class ProbeScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeScheduler.class);

    private final Vertx vertx;
    private final List<Probe> probes = new ArrayList<>();
    private final List<RealProbes> reals = new ArrayList<>();
    private volatile boolean running;

    public ProbeScheduler(Vertx vertx, Farms farms, Map<String, FarmConfig> farmConfigs,
            Map<String, ProbeConfig> probeConfigs, MeterRegistry registry) {
        this(vertx, farms, farmConfigs, probeConfigs, registry, RealRestartListener.NONE);
    }

    /** @param restarts told when a GTP Echo probe sees a real's restart counter change */
    public ProbeScheduler(Vertx vertx, Farms farms, Map<String, FarmConfig> farmConfigs,
            Map<String, ProbeConfig> probeConfigs, MeterRegistry registry, RealRestartListener restarts) {
        this.vertx = vertx;
        Map<String, Probe> byName = new LinkedHashMap<>();
        probeConfigs.forEach((name, config) -> {
            Probe probe = Probe.create(vertx, config, restarts);
            byName.put(name, probe);
            probes.add(probe);
        });
        for (FarmConfig farm : farmConfigs.values()) {
            if (farm.probes().isEmpty()) {
                continue;
            }
            for (RealServer real : farms.farm(farm.name()).reals()) {
                List<ProbeConfig> configs = farm.probes().stream().map(probeConfigs::get).toList();
                List<Probe> checks = farm.probes().stream().map(byName::get).toList();
                reals.add(new RealProbes(real, configs, checks, registry));
            }
        }
    }

    public void start() {
        running = true;
        for (RealProbes r : reals) {
            for (int i = 0; i < r.configs.size(); i++) {
                r.run(i);
            }
        }
    }

    public void stop() {
        running = false;
        probes.forEach(Probe::close);
    }

    /** The probes of one real and their consecutive failure counts. */
    private final class RealProbes {
        private final RealServer real;
        private final List<ProbeConfig> configs;
        private final List<Probe> checks;
        private final int[] consecutiveFailures;
        private final Counter[] passed;
        private final Counter[] failed;

        RealProbes(RealServer real, List<ProbeConfig> configs, List<Probe> checks, MeterRegistry registry) {
            this.real = real;
            this.configs = configs;
            this.checks = checks;
            this.consecutiveFailures = new int[configs.size()];
            this.passed = new Counter[configs.size()];
            this.failed = new Counter[configs.size()];
            for (int i = 0; i < configs.size(); i++) {
                passed[i] = counter(registry, configs.get(i), "pass");
                failed[i] = counter(registry, configs.get(i), "fail");
            }
        }

        private Counter counter(MeterRegistry registry, ProbeConfig config, String result) {
            return Counter.builder("switchboard.probe.checks").description("Probe checks, by result")
                    .tag("farm", real.farm()).tag("real", real.id()).tag("probe", config.name())
                    .tag("result", result).register(registry);
        }

        void run(int index) {
            if (!running) {
                return;
            }
            ProbeConfig config = configs.get(index);
            InetSocketAddress target = config.port().isPresent()
                    ? new InetSocketAddress(real.address().getAddress(), config.port().getAsInt()) : real.address();
            checks.get(index).check(real, target)
                    .timeout(config.timeout().toMillis() + 500, java.util.concurrent.TimeUnit.MILLISECONDS)
                    .onComplete(result -> {
                        record(index, result.succeeded(), result.succeeded() ? null : result.cause().getMessage());
                        if (running) {
                            vertx.setTimer(config.interval().toMillis(), t -> run(index));
                        }
                    });
        }

        private synchronized void record(int index, boolean ok, String why) {
            ProbeConfig config = configs.get(index);
            if (ok) {
                passed[index].increment();
                consecutiveFailures[index] = 0;
            } else {
                failed[index].increment();
                consecutiveFailures[index]++;
                if (consecutiveFailures[index] == config.failures()) {
                    LOG.warn("real {} of farm {}: probe {} failed {} times in a row ({})", real.id(), real.farm(),
                            config.name(), config.failures(), why);
                }
            }
            boolean failing = false;
            for (int i = 0; i < configs.size(); i++) {
                failing |= consecutiveFailures[i] >= configs.get(i).failures();
            }
            if (failing != real.probesFailing()) {
                real.probesFailing(failing);
            }
        }
    }
}
