package io.switchboard.director;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.Farms;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.RealRequests;
import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.sticky.StickyTableFactory;
import io.switchboard.director.transaction.RelayedRequests;
import java.time.Duration;
import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A director's virtual servers at run time and how one is built from its configuration: its
 * counters, its sticky table (its own, or its group's), selector, plug-in and relayed requests.
 * A reload adds, removes and replaces virtual servers while every other part of the node reads
 * them from its own thread, so each collection here is safe to read while one changes: the map by
 * name is replaced whole (in the configuration's order), the rest are concurrent.
 */
final class VirtualServers {

    /** Slack over a retiring server's own bound, for the lanes' housekeeping to expire what is left. */
    private static final Duration HOUSEKEEPING_SLACK = Duration.ofMillis(200);

    private final Farms farms;
    private final Function<VirtualServerConfig, DatagramService> services;
    private final MeterRegistry registry;
    private final Ticker ticker;
    private final StickyTableFactory tables;
    private final NodeSlot slot;
    private final SharedTables shared;
    private volatile Map<String, VirtualServer> byName = Map.of();
    private final Map<VirtualServer, DatagramService> serviceOf = new ConcurrentHashMap<>();
    /** The virtual servers' own tables (not a group's): dropped with the server that made them. */
    private final Map<VirtualServer, StickyTable> ownTables = new ConcurrentHashMap<>();
    /** Every sticky table, own and groups': swept, purged, counted. */
    final List<StickyTable> stickyTables = new CopyOnWriteArrayList<>();
    /** The sticky groups' tables, by group name. */
    final Map<String, StickyTable> groups = new ConcurrentHashMap<>();
    /** Replaced or removed by a reload, still answering what they have in flight. */
    final Set<VirtualServer> retiring = ConcurrentHashMap.newKeySet();

    VirtualServers(Farms farms, Function<VirtualServerConfig, DatagramService> services, MeterRegistry registry,
            Ticker ticker, StickyTableFactory tables, NodeSlot slot, SharedTables shared) {
        this.farms = farms;
        this.services = services;
        this.registry = registry;
        this.ticker = ticker;
        this.tables = tables;
        this.slot = slot;
        // A virtual server a reload replaces hands its plug-in's tables (sessions, EAP States) to its
        // successor by name: the cluster's tables are shared by name already, this node's must be too.
        this.shared = shared == SharedTables.IN_MEMORY ? new KeptByName() : shared;
    }

    /**
     * Builds a virtual server. The one it replaces, if any, lends what stays the same: its counters
     * when the service is (the same meters, which go on counting), its own sticky table when the
     * sticky configuration is (its bindings).
     */
    VirtualServer build(VirtualServerConfig vs, VirtualServer replacing) {
        boolean sameService = replacing != null && replacing.config().service().equals(vs.service());
        VirtualServerMetrics metrics = sameService ? replacing.metrics()
                : new VirtualServerMetrics(registry, vs.name(), vs.service());
        StickyTable sticky = vs.sticky().map(s -> replacing != null && s.group().isEmpty()
                && replacing.config().sticky().equals(vs.sticky()) ? ownTables.get(replacing)
                : stickyTable(vs, s)).orElse(null);
        StickyTable before = sameService ? replacing.selector().sticky() : null;
        if (sticky != before) {
            if (before != null) {
                removeMeters(m -> before.name().equals(m.getId().getTag("table")) && ofServer(m, vs.name()));
            }
            if (sticky != null) {
                metrics.bindStickyTable(sticky);
            }
        }
        if (replacing != null) {
            // A gauge reads the object it was registered with: the new plug-in registers its own. The
            // counters go on (the same meters); so do the shared metrics' own gauges.
            removeMeters(m -> ofServer(m, vs.name()) && !(m instanceof Counter)
                    && !(sameService && (m.getId().getName().startsWith("switchboard.upstream.")
                            || m.getId().getName().startsWith("switchboard.sticky."))));
        }
        boolean grouped = vs.sticky().flatMap(StickyConfig::group).isPresent();
        RealSelector selector = new RealSelector(farms, farms.farm(vs.farm()), sticky, grouped);
        DatagramService service = services.apply(vs);
        DatagramPlugin plugin = service.create(vs, registry);
        plugin.attach(new PluginContext(vs, sticky, farms, ticker, registry, slot, shared));
        RealRequests<?> realRequests = plugin instanceof TransactionPlugin<?> t ? t.realRequests() : null;
        RelayedRequests relayed = realRequests == null ? null : new RelayedRequests(realRequests, slot, shared,
                vs.name(), vs.responseTimeout().toNanos(), ((TransactionPlugin<?>) plugin).transactionIdBits(),
                ticker.nanos());
        VirtualServer built = new VirtualServer(vs, plugin, selector, metrics, relayed,
                io.switchboard.director.overload.Admission.of(vs.name(), vs.service(), vs.overload(), registry, ticker));
        serviceOf.put(built, service);
        if (sticky != null && !grouped) {
            ownTables.put(built, sticky);
        }
        return built;
    }

    /** The virtual server's own new table, or its sticky group's, created by the group's first server. */
    private StickyTable stickyTable(VirtualServerConfig vs, StickyConfig sticky) {
        if (sticky.group().isPresent()) {
            // Its idle time and size bound hold for the group.
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

    /** Makes {@code vs} the one serving its name (added, or replacing another). */
    synchronized void put(VirtualServer vs) {
        Map<String, VirtualServer> next = new LinkedHashMap<>(byName);
        next.put(vs.name(), vs);
        byName = Collections.unmodifiableMap(next);
    }

    /** Forgets the virtual server of that name (it is retiring, or was never bound). */
    synchronized void take(String name) {
        Map<String, VirtualServer> next = new LinkedHashMap<>(byName);
        next.remove(name);
        byName = Collections.unmodifiableMap(next);
    }

    /** The serving virtual servers by name, in the configuration's order; a snapshot. */
    Map<String, VirtualServer> byName() {
        return byName;
    }

    /**
     * The serving virtual servers by name, unmodifiable and live: each read sees the servers of the
     * moment (an iteration, those of the moment it began), for whoever keeps the map.
     */
    Map<String, VirtualServer> view() {
        return view;
    }

    private final Map<String, VirtualServer> view = new AbstractMap<>() {
        @Override
        public Set<Entry<String, VirtualServer>> entrySet() {
            return byName.entrySet();
        }

        @Override
        public VirtualServer get(Object name) {
            return byName.get(name);
        }

        @Override
        public boolean containsKey(Object name) {
            return byName.containsKey(name);
        }
    };

    DatagramService service(VirtualServer vs) {
        return serviceOf.get(vs);
    }

    /** Every virtual server with work: those serving and those retiring. A live view. */
    Collection<VirtualServer> all() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<VirtualServer> iterator() {
                return Stream.concat(byName.values().stream(), retiring.stream()).iterator();
            }

            @Override
            public int size() {
                return byName.size() + retiring.size();
            }
        };
    }

    /**
     * How long a removed or replaced virtual server may take to answer what it holds: its response
     * timeout once for the real it chose and once more for each real a refused request may be
     * reassigned to — by then its engine has expired every pending request, so nothing it still
     * holds can be answered — and the lanes' housekeeping to do it.
     */
    static Duration retireWithin(VirtualServer vs) {
        int reassign = vs.plugin() instanceof TransactionPlugin<?> t ? t.reassignLimit() : 0;
        return vs.config().responseTimeout().multipliedBy(reassign + 1L).plus(HOUSEKEEPING_SLACK);
    }

    /**
     * Gives back what a retired virtual server held alone: its plug-in, relayed requests and own
     * sticky table (unless its successor took it over), and — unless its successor counts on the
     * same meters — every meter of its name and service.
     */
    void retired(VirtualServer vs, VirtualServer successor) {
        retiring.remove(vs);
        serviceOf.remove(vs);
        vs.plugin().close();
        if (vs.relayedRequests() != null) {
            vs.relayedRequests().close();
        }
        StickyTable own = ownTables.remove(vs);
        if (own != null && (successor == null || ownTables.get(successor) != own)) {
            stickyTables.remove(own);
        }
        if (successor == null && !byName.containsKey(vs.name())) {
            removeMeters(m -> ofServer(m, vs.name()));
        } else if (successor.metrics() != vs.metrics()) {
            removeMeters(m -> ofServer(m, vs.name()) && vs.config().service().equals(m.getId().getTag("service")));
        }
    }

    /**
     * Gives back a virtual server built to replace {@code kept} that could not take over: its plug-in,
     * relayed requests and own sticky table, when not {@code kept}'s. Its meters are left: they may
     * be {@code kept}'s.
     */
    void discard(VirtualServer vs, VirtualServer kept) {
        serviceOf.remove(vs);
        vs.plugin().close();
        if (vs.relayedRequests() != null) {
            vs.relayedRequests().close();
        }
        StickyTable own = ownTables.remove(vs);
        if (own != null && ownTables.get(kept) != own) {
            stickyTables.remove(own);
        }
    }

    private static boolean ofServer(Meter meter, String virtualServer) {
        return virtualServer.equals(meter.getId().getTag("vserver"));
    }

    private void removeMeters(Predicate<Meter> which) {
        registry.getMeters().stream().filter(which).toList().forEach(registry::remove);
    }

    /**
     * This node's shared tables, kept by name for the node's life: a plug-in that replaces another
     * opens the same table again and finds its sessions (closing one is a no-op in memory).
     */
    private static final class KeptByName implements SharedTables {

        private final Map<String, SharedTable<?, ?>> open = new ConcurrentHashMap<>();

        @Override
        @SuppressWarnings("unchecked")
        public <K, V> SharedTable<K, V> open(String name, Codec<K> keys, Codec<V> values) {
            return (SharedTable<K, V>) open.computeIfAbsent(name, n -> SharedTables.IN_MEMORY.open(n, keys, values));
        }
    }
}
