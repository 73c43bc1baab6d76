package io.switchboard.director;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.RealMetrics;
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
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.time.Duration;
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
    /**
     * How often idle sticky bindings are swept. Lookups already ignore idle bindings, so the sweep
     * only gives memory back; it walks whole tables, so it runs rarely and on a worker thread, never
     * on an event loop that serves packets.
     */
    static final long STICKY_SWEEP_MILLIS = 5_000;

    private final SwitchboardConfig config;
    private final Farms farms;
    private final VirtualServers virtualServers;
    private final Listeners listeners;
    private final Ticker ticker;
    private final MeterRegistry registry;
    private final RealRestarts restarts;
    private final RealDrains realDrains;
    private final RealRemovals removals;
    private final RealClientCounts clientCounts;
    private final FailurePurges failurePurges;
    /** The farms and probes the probe scheduler starts with: the start-up ones, or a reload's since. */
    private volatile SwitchboardConfig farmsConfig;
    private Vertx vertx;
    private volatile boolean draining;
    private final RouteHealth routeHealth;
    private final VirtualServerChanges changes;
    private ProbeScheduler probes;
    private long timer = -1;
    private long sweepTimer = -1;

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
        this.virtualServers = new VirtualServers(farms, services, registry, ticker, tables, slot, shared);
        for (VirtualServerConfig vs : config.virtualServers().values()) {
            virtualServers.put(virtualServers.build(vs, null));
        }
        this.listeners = new Listeners(virtualServers, farms, ticker);
        this.routeHealth = new RouteHealth(config.routeHealth(), name -> virtualServers.byName().get(name), registry,
                ticker);
        this.changes = new VirtualServerChanges(virtualServers, listeners, routeHealth, ticker, () -> draining);
        this.restarts = new RealRestarts(virtualServers.all(), virtualServers.stickyTables, registry);
        this.realDrains = new RealDrains(farms, virtualServers.stickyTables, restarts, registry);
        this.removals = new RealRemovals(farms, restarts, registry);
        this.clientCounts = new RealClientCounts(farms, virtualServers.stickyTables);
        this.failurePurges = new FailurePurges(farms, restarts, registry);
        this.farmsConfig = config;
    }

    /** Binds every virtual server; fails (and binds nothing further) if one cannot bind. */
    public Future<Void> start(Vertx vertx) {
        this.vertx = vertx;
        timer = vertx.setPeriodic(HOUSEKEEPING_MILLIS, id -> {
            long now = ticker.nanos();
            farms.tick(now);
            routeHealth.check(vertx, this::localAddress);
            List<RealServer> failed = failurePurges.failed();
            if (!failed.isEmpty()) {
                vertx.executeBlocking(() -> {
                    failurePurges.purge(failed);
                    return null;
                }, false);
            }
            if (clientCounts.due(now)) {
                vertx.executeBlocking(() -> {
                    clientCounts.check(ticker.nanos());
                    return null;
                }, false);
            }
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
        for (VirtualServer vs : virtualServers.byName().values()) {
            chain = chain.compose(v -> listeners.bind(vertx, vs));
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
        routeHealth.drain();
        draining = true;
        virtualServers.all().forEach(VirtualServer::drain);
        if (vertx == null) {
            return Future.succeededFuture(0);
        }
        return Listeners.awaitNone(vertx, ticker, this::inFlight, ticker.nanos() + deadline.toNanos());
    }

    /** Whether {@link #drain} was called. */
    public boolean draining() {
        return draining;
    }

    /** Requests received by this node and not answered yet, over every virtual server. */
    public Future<Integer> inFlight() {
        return listeners.inFlight();
    }

    /**
     * Adds a virtual server to the running node, built as at start-up ({@link VirtualServers#build}):
     * bound once the future completes; on failure (e.g. its address is taken) nothing of it is left.
     */
    public Future<Void> addVirtualServer(VirtualServerConfig vs) {
        return changes.add(vertx, vs);
    }

    /**
     * Removes a running virtual server: it takes no new work at once (dropped as {@code removed}),
     * answers what it has in flight and is unbound when nothing is left, or at the latest when its
     * engine has expired everything ({@link VirtualServers#retireWithin}); then its plug-in is
     * closed and its meters removed. The future completes when it is unbound, with what was left.
     */
    public Future<Integer> removeVirtualServer(String name) {
        return changes.remove(vertx, name);
    }

    /**
     * Replaces a running virtual server with one built from {@code next} (same name), losing
     * neither a datagram its sockets accepted nor a pending transaction ({@link VirtualServerChanges}).
     * The future completes once the new one serves; the old one retires in the background.
     */
    public Future<Void> replaceVirtualServer(VirtualServerConfig next) {
        return changes.replace(vertx, next);
    }

    /** Starts or stops advertising a virtual server through route health, as IOS {@code advertise active}. */
    public void advertise(String virtualServer, boolean advertise) {
        advertise(virtualServer, advertise ? java.util.Optional.of(io.switchboard.director.config.Advertise.ACTIVE)
                : java.util.Optional.empty());
    }

    /** Starts advertising a virtual server, changes when, or stops (empty): a reload's change. */
    public void advertise(String virtualServer, java.util.Optional<io.switchboard.director.config.Advertise> when) {
        routeHealth.advertise(virtualServer, when);
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
        return listeners.unbindAll(vertx).eventually(() -> {
            closePlugins();
            return Future.succeededFuture();
        });
    }

    private void closePlugins() {
        for (VirtualServer vs : List.copyOf(virtualServers.all())) {
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
        followReals();
        clientCounts.check(ticker.nanos());
        sweepStickyTables();
        realDrains.check(ticker.nanos());
        removals.check();
    }

    /**
     * What the timers do for {@code failure.purge} and {@code maxclients}, at once on this thread: the
     * reals that failed since the last call are purged, and the clients counted when a count is due.
     * Walks sticky tables: off the event loops. What-if calls it with its capture's clock, as the
     * live timers do, so both purge and count alike.
     */
    public void followReals() {
        failurePurges.purge(failurePurges.failed());
        long now = ticker.nanos();
        if (clientCounts.due(now)) {
            clientCounts.check(now);
        }
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
        for (StickyTable table : virtualServers.stickyTables) {
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
        return virtualServers.groups.get(group);
    }

    /**
     * The serving virtual servers by name, in the configuration's order: unmodifiable and live (a
     * reload's changes show; an iteration sees those of the moment it began).
     */
    public Map<String, VirtualServer> virtualServers() {
        return virtualServers.view();
    }

    /** The bound address of a started virtual server (its real port when configured as 0). */
    public InetSocketAddress localAddress(String virtualServer) {
        VirtualServerListener listener = listeners.of(virtualServers.byName().get(virtualServer));
        return listener == null ? null : listener.localAddress();
    }
}
