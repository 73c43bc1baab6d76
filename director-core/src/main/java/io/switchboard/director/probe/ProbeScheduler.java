package io.switchboard.director.probe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.ZombieChecks;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.ServerFarm;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
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
 *
 * <p>A probe with status checks ({@link ZombieChecks}) judges a real failed in band (a zombie) instead
 * of counting failures: one answer revives it, none for the zombie period makes it PROBE_FAILED
 * (dead), and a dead real needs {@code answersToAlive} answers in a row; a zombie or dead real is
 * checked at the check interval.
 *
 * <p>A reload changes the probes in place ({@link #reconfigure}): each (real, probe) whose probe is
 * unchanged keeps running with its count of failures; one whose probe changed, was removed, or whose
 * real left its farm's probes stops; a new one starts.
 */
public final class ProbeScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeScheduler.class);

    private final Vertx vertx;
    private final MeterRegistry registry;
    private final RealRestartListener restarts;
    /** The probes by name, each with the configuration it was made from (guarded by {@code this}). */
    private final Map<String, Probe> probes = new LinkedHashMap<>();
    private final Map<String, ProbeConfig> probeConfigs = new LinkedHashMap<>();
    private final Map<RealServer, RealProbes> reals = new IdentityHashMap<>();
    private volatile boolean running;

    public ProbeScheduler(Vertx vertx, Farms farms, Map<String, FarmConfig> farmConfigs,
            Map<String, ProbeConfig> probeConfigs, MeterRegistry registry) {
        this(vertx, farms, farmConfigs, probeConfigs, registry, RealRestartListener.NONE);
    }

    /** @param restarts told when a GTP Echo probe sees a real's restart counter change */
    public ProbeScheduler(Vertx vertx, Farms farms, Map<String, FarmConfig> farmConfigs,
            Map<String, ProbeConfig> probeConfigs, MeterRegistry registry, RealRestartListener restarts) {
        this.vertx = vertx;
        this.registry = registry;
        this.restarts = restarts;
        reconfigure(farms, farmConfigs, probeConfigs);
    }

    public synchronized void start() {
        running = true;
        reals.values().forEach(RealProbes::start);
    }

    public synchronized void stop() {
        running = false;
        reals.values().forEach(RealProbes::stop);
        probes.values().forEach(Probe::close);
    }

    /**
     * Follows a reload: the probes of {@code probeConfigs} against the reals each farm of
     * {@code farmConfigs} names, as {@code farms} holds them now. What is unchanged keeps its state.
     */
    public synchronized void reconfigure(Farms farms, Map<String, FarmConfig> farmConfigs,
            Map<String, ProbeConfig> nextProbes) {
        List<Probe> retired = new ArrayList<>();
        nextProbes.forEach((name, config) -> {
            if (!config.equals(probeConfigs.get(name))) {
                Probe old = probes.put(name, Probe.create(vertx, config, restarts));
                if (old != null) {
                    retired.add(old);
                }
                probeConfigs.put(name, config);
            }
        });
        for (String name : List.copyOf(probes.keySet())) {
            if (!nextProbes.containsKey(name)) {
                retired.add(probes.remove(name));
                probeConfigs.remove(name);
            }
        }
        Map<RealServer, List<String>> wanted = new IdentityHashMap<>();
        for (FarmConfig farm : farmConfigs.values()) {
            ServerFarm serverFarm = farms.farm(farm.name());
            for (RealConfig realConfig : farm.reals()) {
                RealServer real = serverFarm == null ? null : serverFarm.real(realConfig.endpoint().toString());
                if (real != null) {
                    wanted.put(real, farm.probes());
                }
            }
        }
        for (RealServer real : List.copyOf(reals.keySet())) {
            List<String> names = wanted.get(real);
            if (names == null || names.isEmpty()) {
                reals.remove(real).stop();
                // Still configured, its farm has no probe any more: none judges it. (A real removed
                // keeps its verdict: it is on its way out.)
                if (names != null && real.probesFailing()) {
                    real.probesFailing(false);
                }
            }
        }
        wanted.values().removeIf(List::isEmpty);
        wanted.forEach((real, names) -> reals.computeIfAbsent(real, RealProbes::new).follow(names));
        retired.forEach(Probe::close);
    }

    /** One probe of one real: the check it runs, its verdict and the runs of results that make it. */
    private static final class RealProbe {
        final ProbeConfig config;
        final Probe check;
        /** The probe's status checks, or null. */
        final ZombieChecks zombies;
        final Counter passed;
        final Counter failed;
        int consecutiveFailures;
        int consecutivePasses;
        /** Failing the real: set by a run of failures (or a zombie period), cleared by a run of passes. */
        boolean down;
        /** When a check first found the real a zombie without an answer since (0: not a zombie). */
        long zombieSinceNanos;
        /** When the last check started; read only once {@link #checked}. */
        long lastCheckNanos;
        boolean checked;
        volatile boolean stopped;

        RealProbe(ProbeConfig config, Probe check, Counter passed, Counter failed) {
            this.config = config;
            this.check = check;
            this.zombies = config.check().zombies().orElse(null);
            this.passed = passed;
            this.failed = failed;
        }

        private Duration checkInterval() {
            return zombies == null ? config.interval() : zombies.checkInterval().orElse(config.interval());
        }

        /**
         * The timer between ticks: the shorter of the interval and the check interval, so that a real
         * turning zombie is checked at the check interval from then on, not an interval later.
         */
        long tickMillis() {
            Duration check = checkInterval();
            return (check.compareTo(config.interval()) < 0 ? check : config.interval()).toMillis();
        }

        /** Whether a check is due at this tick: the check interval apart while the real is a zombie or dead. */
        boolean due(RealServer real, long nowNanos) {
            RealState s = real.state();
            Duration every = s.zombie() || s == RealState.PROBE_FAILED ? checkInterval() : config.interval();
            return !checked || nowNanos - lastCheckNanos >= every.toNanos();
        }
    }

    /** The probes of one real. */
    private final class RealProbes {
        private final RealServer real;
        /** Guarded by {@code this}. */
        private final List<RealProbe> current = new ArrayList<>();

        RealProbes(RealServer real) {
            this.real = real;
        }

        /** Runs exactly the probes {@code names} (the scheduler's current ones), keeping those unchanged. */
        synchronized void follow(List<String> names) {
            List<RealProbe> next = new ArrayList<>();
            for (String name : names) {
                Probe check = probes.get(name);
                RealProbe kept = current.stream().filter(p -> p.check == check).findFirst().orElse(null);
                if (kept != null) {
                    next.add(kept);
                    continue;
                }
                ProbeConfig config = probeConfigs.get(name);
                RealProbe probe = new RealProbe(config, check, counter(config, "pass"), counter(config, "fail"));
                next.add(probe);
                if (running) {
                    run(probe);
                }
            }
            current.stream().filter(p -> !next.contains(p)).forEach(p -> p.stopped = true);
            current.clear();
            current.addAll(next);
            verdict();
        }

        synchronized void start() {
            current.forEach(this::run);
        }

        synchronized void stop() {
            current.forEach(p -> p.stopped = true);
        }

        private Counter counter(ProbeConfig config, String result) {
            return Counter.builder("switchboard.probe.checks").description("Probe checks, by result")
                    .tag("farm", real.farm()).tag("real", real.id()).tag("probe", config.name())
                    .tag("result", result).register(registry);
        }

        void run(RealProbe probe) {
            if (!running || probe.stopped) {
                return;
            }
            ProbeConfig config = probe.config;
            long now = System.nanoTime();
            if (probe.zombies != null && !probe.due(real, now)) {
                vertx.setTimer(probe.tickMillis(), t -> run(probe));
                return;
            }
            probe.checked = true;
            probe.lastCheckNanos = now;
            InetSocketAddress target = config.port().isPresent()
                    ? new InetSocketAddress(real.address().getAddress(), config.port().getAsInt()) : real.address();
            probe.check.check(real, target)
                    .timeout(config.timeout().toMillis() + 500, java.util.concurrent.TimeUnit.MILLISECONDS)
                    .onComplete(result -> {
                        record(probe, result.succeeded(), result.succeeded() ? null : result.cause().getMessage());
                        if (running && !probe.stopped) {
                            vertx.setTimer(probe.tickMillis(), t -> run(probe));
                        }
                    });
        }

        private synchronized void record(RealProbe probe, boolean ok, String why) {
            if (probe.stopped) {
                return; // a check of a probe a reload stopped (or closed) says nothing any more
            }
            ZombieChecks zombies = probe.zombies;
            if (ok) {
                probe.passed.increment();
                probe.consecutiveFailures = 0;
                probe.consecutivePasses++;
                probe.zombieSinceNanos = 0;
                if (zombies != null) {
                    real.revive();
                }
                if (probe.down && probe.consecutivePasses >= (zombies == null ? 1 : zombies.answersToAlive())) {
                    probe.down = false;
                }
            } else {
                probe.failed.increment();
                probe.consecutivePasses = 0;
                probe.consecutiveFailures++;
                if (zombies != null && real.state().zombie()) {
                    // A zombie is judged by time without an answer, not by a count (FreeRADIUS zombie_period).
                    long now = System.nanoTime();
                    probe.zombieSinceNanos = probe.zombieSinceNanos == 0 ? now : probe.zombieSinceNanos;
                    if (!probe.down && now - probe.zombieSinceNanos >= zombies.zombiePeriod().toNanos()) {
                        probe.down = true;
                        LOG.warn("real {} of farm {}: probe {} unanswered for the zombie period {}: dead ({})",
                                real.id(), real.farm(), probe.config.name(), zombies.zombiePeriod(), why);
                    }
                } else {
                    probe.zombieSinceNanos = 0; // out of the zombie states some other way: a later zombie starts afresh
                    if (!probe.down && probe.consecutiveFailures >= probe.config.failures()) {
                        probe.down = true;
                        LOG.warn("real {} of farm {}: probe {} failed {} times in a row ({})", real.id(), real.farm(),
                                probe.config.name(), probe.config.failures(), why);
                    }
                }
            }
            verdict();
        }

        private void verdict() {
            boolean failing = false;
            for (RealProbe p : current) {
                failing |= p.down;
            }
            if (failing != real.probesFailing()) {
                real.probesFailing(failing);
            }
        }
    }
}
