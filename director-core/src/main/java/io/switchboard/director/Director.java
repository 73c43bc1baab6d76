package io.switchboard.director;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.RealMetrics;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.probe.ProbeScheduler;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealDrain;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.sticky.StickyTableFactory;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.RealRequests;
import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.transaction.RelayedRequests;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One director node built from a validated configuration: its farms, virtual servers and their
 * verticles, and the timers that advance retry timers, expire sticky bindings and follow drains.
 */
public final class Director {

    /** How often retry timers are advanced and idle sticky bindings swept. */
    static final long HOUSEKEEPING_MILLIS = 100;
    /** How often a draining node counts what is still in flight. */
    private static final long DRAIN_POLL_MILLIS = 20;
    /**
     * How often idle sticky bindings are swept. Lookups already ignore idle bindings, so the sweep
     * only gives memory back; it walks whole tables, so it runs rarely and on a worker thread, never
     * on an event loop that serves packets.
     */
    static final long STICKY_SWEEP_MILLIS = 5_000;

    private final SwitchboardConfig config;
    private final Farms farms;
    private final Map<String, VirtualServer> virtualServers = new LinkedHashMap<>();
    private final Map<String, VirtualServerListener> listeners = new LinkedHashMap<>();
    private final Map<String, DatagramService> servicesByServer = new LinkedHashMap<>();
    private final List<StickyTable> stickyTables = new ArrayList<>();
    /** The sticky groups' tables, by group name. */
    private final Map<String, StickyTable> groups = new LinkedHashMap<>();
    private final Ticker ticker;
    private final MeterRegistry registry;
    private final RealRestarts restarts;
    private final RealDrains realDrains;
    private final RealRemovals removals;
    /** The farms and probes the probe scheduler starts with: the start-up ones, or a reload's since. */
    private volatile SwitchboardConfig farmsConfig;
    private Vertx vertx;
    private volatile boolean draining;
    private ProbeScheduler probes;
    private long timer = -1;
    private long sweepTimer = -1;
    private final List<String> deployments = new ArrayList<>();

    /**
     * @param services the protocol plug-ins of this build, by the service they implement; the
     *                 configuration has been validated against them
     */
    public Director(SwitchboardConfig config, Function<VirtualServerConfig, DatagramService> services,
            MeterRegistry registry, Ticker ticker) {
        this(config, services, registry, ticker, StickyTableFactory.IN_MEMORY);
    }

    /** @param tables makes the sticky tables: in memory, or shared by the cluster */
    public Director(SwitchboardConfig config, Function<VirtualServerConfig, DatagramService> services,
            MeterRegistry registry, Ticker ticker, StickyTableFactory tables) {
        this(config, services, registry, ticker, tables, NodeSlot.SINGLE, SharedTables.IN_MEMORY);
    }

    /**
     * @param slot   this node's slot in the cluster, handed to every plug-in ({@link PluginContext#node()})
     * @param shared opens the plug-ins' shared tables ({@link PluginContext#tables()})
     */
    public Director(SwitchboardConfig config, Function<VirtualServerConfig, DatagramService> services,
            MeterRegistry registry, Ticker ticker, StickyTableFactory tables, NodeSlot slot, SharedTables shared) {
        this.config = config;
        this.ticker = ticker;
        this.registry = registry;
        this.farms = new Farms(config.farms());
        RealMetrics.bind(registry, farms);
        for (VirtualServerConfig vs : config.virtualServers().values()) {
            VirtualServerMetrics metrics = new VirtualServerMetrics(registry, vs.name(), vs.service());
            StickyTable sticky = vs.sticky().map(s -> stickyTable(tables, vs, s, groups)).orElse(null);
            if (sticky != null) {
                metrics.bindStickyTable(sticky);
            }
            boolean grouped = vs.sticky().flatMap(StickyConfig::group).isPresent();
            RealSelector selector = new RealSelector(farms, farms.farm(vs.farm()), sticky, grouped);
            DatagramService service = services.apply(vs);
            servicesByServer.put(vs.name(), service);
            DatagramPlugin plugin = service.create(vs, registry);
            plugin.attach(new PluginContext(vs, sticky, farms, ticker, registry, slot, shared));
            RealRequests<?> realRequests = plugin instanceof TransactionPlugin<?> t ? t.realRequests() : null;
            RelayedRequests relayed = realRequests == null ? null : new RelayedRequests(realRequests, slot, shared,
                    vs.name(), vs.responseTimeout().toNanos(), ((TransactionPlugin<?>) plugin).transactionIdBits(),
                    ticker.nanos());
            virtualServers.put(vs.name(), new VirtualServer(vs, plugin, selector, metrics, relayed));
        }
        this.restarts = new RealRestarts(virtualServers.values(), stickyTables, registry);
        this.realDrains = new RealDrains(farms, stickyTables, restarts, registry);
        this.removals = new RealRemovals(farms, restarts, registry);
        this.farmsConfig = config;
    }

    /**
     * The virtual server's own table, or its sticky group's, created by the group's first virtual
     * server (its idle time and size bound hold for the group).
     */
    private StickyTable stickyTable(StickyTableFactory tables, VirtualServerConfig vs, StickyConfig sticky,
            Map<String, StickyTable> groups) {
        if (sticky.group().isPresent()) {
            return groups.computeIfAbsent(sticky.group().get(), group -> {
                StickyTable table = tables.create("group/" + group, sticky.idle(), sticky.maxEntries());
                stickyTables.add(table);
                return table;
            });
        }
        StickyTable table = tables.create(vs.name() + "/" + sticky.keys().get(0).configName(),
                sticky.idle(), sticky.maxEntries());
        stickyTables.add(table);
        return table;
    }

    /** Binds every virtual server; fails (and binds nothing further) if one cannot bind. */
    public Future<Void> start(Vertx vertx) {
        this.vertx = vertx;
        RouteHealth routeHealth = new RouteHealth(config.routeHealth(), virtualServers, registry);
        timer = vertx.setPeriodic(HOUSEKEEPING_MILLIS, id -> {
            long now = ticker.nanos();
            farms.tick(now);
            routeHealth.check(vertx, this::localAddress);
            if (realDrains.due(now)) {
                vertx.executeBlocking(() -> {
                    realDrains.check(ticker.nanos());
                    removals.check();
                    return null;
                }, false);
            } else if (removals.any()) {
                removals.check(); // a drain ended otherwise (inservice): no table to walk
            }
        });
        sweepTimer = vertx.setPeriodic(STICKY_SWEEP_MILLIS,
                id -> vertx.executeBlocking(() -> {
                    sweepStickyTables();
                    return null;
                }, false));
        SwitchboardConfig probed = farmsConfig;
        probes = new ProbeScheduler(vertx, farms, probed.farms(), probed.probes(), registry,
                (real, previous, current, purge) -> vertx.executeBlocking(() -> {
                    restarts.restarted(real, previous, current, purge);
                    return null;
                }, false));
        probes.start();
        Future<Void> chain = Future.succeededFuture();
        for (VirtualServer vs : virtualServers.values()) {
            chain = chain.compose(v -> {
                VirtualServerListener listener = servicesByServer.get(vs.name()).listener(vs, farms, ticker);
                return vertx.deployVerticle(listener).map(id -> {
                    deployments.add(id);
                    listeners.put(vs.name(), listener);
                    return null;
                });
            });
        }
        return chain;
    }

    /**
     * The first half of a graceful shutdown: every virtual server stops taking new work at once (a
     * new request or flow is dropped as {@code shutting-down}; route health withdraws the virtual
     * addresses, {@code /health} says so), while what is in flight goes on: pending requests, their
     * retransmissions and answers, the reals' requests for existing sessions. Completes when nothing
     * is in flight any more — the lanes' pending requests and the requests this node forwarded that
     * the reals answer with requests — or at the deadline, with the number left then.
     */
    public Future<Integer> drain(Duration deadline) {
        draining = true;
        virtualServers.values().forEach(VirtualServer::drain);
        if (vertx == null) {
            return Future.succeededFuture(0);
        }
        Promise<Integer> drained = Promise.promise();
        awaitDrained(ticker.nanos() + deadline.toNanos(), drained);
        return drained.future();
    }

    /** Whether {@link #drain} was called. */
    public boolean draining() {
        return draining;
    }

    private void awaitDrained(long until, Promise<Integer> drained) {
        inFlight().onComplete(counted -> {
            int left = counted.succeeded() ? counted.result() : 0;
            if (left == 0 || ticker.nanos() - until >= 0) {
                drained.complete(left);
            } else {
                vertx.setTimer(DRAIN_POLL_MILLIS, id -> awaitDrained(until, drained));
            }
        });
    }

    /** Requests received by this node and not answered yet, over every virtual server. */
    public Future<Integer> inFlight() {
        List<Future<Integer>> counts = new ArrayList<>();
        for (VirtualServerListener listener : listeners.values()) {
            counts.add(listener.inFlight());
        }
        int triggering = virtualServers.values().stream().filter(vs -> vs.relayedRequests() != null)
                .mapToInt(vs -> vs.relayedRequests().triggering().size()).sum();
        return Future.all(counts).map(all -> triggering + counts.stream().mapToInt(Future::result).sum());
    }

    /** Stops the virtual servers (their lanes, then their plug-ins: {@link DatagramPlugin#close}). */
    public Future<Void> stop() {
        if (vertx == null) {
            closePlugins();
            return Future.succeededFuture();
        }
        vertx.cancelTimer(timer);
        vertx.cancelTimer(sweepTimer);
        probes.stop();
        List<Future<Void>> undeploys = new ArrayList<>();
        for (String id : deployments) {
            undeploys.add(vertx.undeploy(id));
        }
        deployments.clear();
        return Future.all(undeploys).<Void>mapEmpty().eventually(() -> {
            closePlugins();
            return Future.succeededFuture();
        });
    }

    private void closePlugins() {
        for (VirtualServer vs : virtualServers.values()) {
            vs.plugin().close();
            if (vs.relayedRequests() != null) {
                vs.relayedRequests().close();
            }
        }
    }

    /**
     * Advances retry timers, expires idle bindings and checks the reals' drains. Public so tests with
     * a manual ticker can drive it.
     */
    public void housekeep() {
        farms.tick(ticker.nanos());
        sweepStickyTables();
        realDrains.check(ticker.nanos());
        removals.check();
    }

    /**
     * Drains a real ({@link RealServer#drain}): nothing new, what it serves goes on until nothing is
     * left or, with a deadline, until then (null: none).
     *
     * @return false when the real is out of service
     */
    public boolean drainReal(RealServer real, Duration deadline) {
        return real.drain(RealDrain.starting(ticker.nanos(), deadline));
    }

    // ---- reload: farms, reals and probes (ConfigDiff's in-place changes; issue 19) -------------

    /**
     * Takes the farms and probes of a reload's new configuration: farms and reals it adds (reals get
     * new slots; the engines and plug-ins follow {@link Farms#version()}), the changed settings of
     * those it keeps (predictor, failure, backup, slow start, route map, the reals' order and plug-in
     * values), and its probes (unchanged ones keep their state). Nothing is removed here: the reals and
     * farms it no longer names go with {@link #removeReal} and {@link #removeFarm}, after the virtual
     * servers changed. Any thread; idempotent.
     */
    public synchronized void reconfigureFarms(SwitchboardConfig next) {
        farmsConfig = next;
        farms.reconfigure(next.farms());
        if (probes != null) {
            probes.reconfigure(farms, next.farms(), next.probes());
        }
    }

    /** A reload removed the real {@code removed} of farm {@code farm}: it leaves by its {@code on-remove}. */
    public void removeReal(String farm, io.switchboard.director.config.RealConfig removed) {
        RealServer real = farms.real(farm, removed.endpoint().toString());
        if (real != null) {
            removals.remove(real, removed.removal(), false, ticker.nanos());
        }
    }

    /** A reload removed the farm {@code removed}: each of its reals leaves by its own {@code on-remove}, then the farm. */
    public void removeFarm(io.switchboard.director.config.FarmConfig removed) {
        for (io.switchboard.director.config.RealConfig config : removed.reals()) {
            RealServer real = farms.real(removed.name(), config.endpoint().toString());
            if (real != null) {
                removals.remove(real, config.removal(), true, ticker.nanos());
            }
        }
    }

    // ---- end of reload: farms, reals and probes ---------------------------------------------------

    private void sweepStickyTables() {
        long now = ticker.nanos();
        for (StickyTable table : stickyTables) {
            table.expire(now);
        }
    }

    public SwitchboardConfig config() {
        return config;
    }

    public Farms farms() {
        return farms;
    }

    /**
     * The table of a sticky group of this director's virtual servers, or null when none names it:
     * how balancers outside the virtual servers (dispatched mode) read and write the bindings that
     * the virtual servers make, e.g. a VPN client's IKE binding or the RADIUS director's framed IPs.
     */
    public StickyTable stickyGroup(String group) {
        return groups.get(group);
    }

    public Map<String, VirtualServer> virtualServers() {
        return Collections.unmodifiableMap(virtualServers);
    }

    /** The bound address of a started virtual server (its real port when configured as 0). */
    public InetSocketAddress localAddress(String virtualServer) {
        VirtualServerListener listener = listeners.get(virtualServer);
        return listener == null ? null : listener.localAddress();
    }
}
