package io.switchboard.cluster;

import com.hazelcast.cluster.Address;
import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.KubernetesConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MergePolicyConfig;
import com.hazelcast.config.MultiMapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.spi.merge.LatestUpdateMergePolicy;
import com.hazelcast.spi.merge.PutIfAbsentMergePolicy;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.real.Farms;
import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.sticky.StickyTableFactory;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * This node's embedded Hazelcast member, configured from {@link ClusterConfig} and nothing else:
 * <ul>
 *   <li>single node ({@code enabled: false}): binds 127.0.0.1 only, joins nobody; the port
 *       auto-increments from the configured one so that two single-node directors on one host do
 *       not collide;</li>
 *   <li>clustered: TCP/IP join with the configured member list; multicast and auto-detection off
 *       (a director must never join a cluster it was not told about); the configured port exactly,
 *       no auto-increment, because peers' member lists name that port and a member that quietly
 *       took the next one would be unreachable to them. Port 0 takes an ephemeral port (tests:
 *       the other members learn it from the member they join through).</li>
 * </ul>
 * Phone-home is off, logging goes through SLF4J, and Hazelcast's own shutdown hook is off because
 * the application closes the member after its verticles have stopped.
 */
public final class ClusterMember implements AutoCloseable {

    /**
     * Where {@link #safe} runs Hazelcast's blocking check: daemon threads, at most one per member at a
     * time (a check of one member of a test's JVM never waits for another's).
     */
    private static final java.util.concurrent.ExecutorService SAFE_CHECKS =
            java.util.concurrent.Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "cluster-safe-check");
                t.setDaemon(true);
                return t;
            });
    /** The safety check under way or last made; guarded by this. */
    private java.util.concurrent.CompletableFuture<Boolean> safeCheck;

    /**
     * The JVM options Hazelcast wants for its fastest paths (it warns at start without them): for
     * whoever starts a node in a JVM of its own. The same list is in the cluster module's pom.
     */
    public static final List<String> JVM_OPTIONS = List.of("--add-modules", "java.se",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

    /** Prefix of the maps that back sticky tables; they share one map configuration. */
    static final String STICKY_MAP_PREFIX = "sticky.";
    /** Prefix of the sticky tables' dictionaries of reals ({@link RealIndex}). */
    static final String STICKY_REALS_PREFIX = "sticky-reals.";

    /** The replicated map of attributes announced after joining ({@link #announce}). */
    static final String ANNOUNCEMENTS = "member-announcements";

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ClusterMember.class);

    private final HazelcastInstance hazelcast;
    private final NodeSlot slot;

    private ClusterMember(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        this.slot = NodeSlots.claim(hazelcast);
        hazelcast.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED && !NodeSlots.holds(hazelcast, slot)) {
                // Both sides of a split brain gave out slots; this node keeps its own (identifiers it
                // already handed out carry it), but another member may now allocate the same values.
                LOG.error("cluster slot {} is held by another member after a split brain merged: identifiers"
                        + " allocated by the two may collide until one of them restarts", slot.index());
            }
        });
    }

    /** This node's slot in the cluster, for identifiers unique across nodes ({@link NodeSlot}). */
    public NodeSlot slot() {
        return slot;
    }

    /** Starts a member bound to all interfaces when clustered (to 127.0.0.1 when single-node). */
    public static ClusterMember start(ClusterConfig cluster) {
        return start(cluster, null);
    }

    /**
     * @param bindAddress the only local address to bind and advertise, e.g. {@code 127.0.0.1} or
     *                    the node's cluster interface; null for Hazelcast's choice when clustered
     */
    public static ClusterMember start(ClusterConfig cluster, String bindAddress) {
        return start(hazelcastConfig(cluster, bindAddress));
    }

    /**
     * As {@link #start(ClusterConfig, String)}, announcing {@code attributes} (this node's version,
     * configuration digest, ...) to the other members, which read them with {@link #members()}.
     */
    public static ClusterMember start(ClusterConfig cluster, String bindAddress, Map<String, String> attributes) {
        Config config = hazelcastConfig(cluster, bindAddress);
        attributes.forEach(config.getMemberAttributeConfig()::setAttribute);
        return start(config);
    }

    /**
     * A member of the cluster as this node sees it.
     *
     * @param attributes those it joined with, overlaid by those it {@linkplain #announce announced} since
     */
    public record MemberView(InetSocketAddress address, boolean local, Map<String, String> attributes) {
    }

    /** Every current member, this one included, oldest first. */
    public List<MemberView> members() {
        Map<String, String> announced = Map.copyOf(announcements());
        return hazelcast.getCluster().getMembers().stream()
                .map(m -> {
                    Map<String, String> attributes = new java.util.HashMap<>(m.getAttributes());
                    String prefix = m.getUuid() + "/";
                    announced.forEach((key, value) -> {
                        if (key.startsWith(prefix)) {
                            attributes.put(key.substring(prefix.length()), value);
                        }
                    });
                    return new MemberView(new InetSocketAddress(m.getAddress().getHost(), m.getAddress().getPort()),
                            m.localMember(), Map.copyOf(attributes));
                })
                .toList();
    }

    /**
     * Changes one of this member's attributes for the others to see ({@link #members()}). Hazelcast
     * fixes a member's own attributes when it joins; what changes later (the configuration digest
     * after a reload) goes through a small replicated map keyed {@code uuid/attribute}, read locally
     * on every member. Entries of members that left are never shown, and this member's go when it closes.
     */
    public void announce(String attribute, String value) {
        announcements().put(hazelcast.getCluster().getLocalMember().getUuid() + "/" + attribute, value);
    }

    /** Runs {@code onChange} whenever a member announces an attribute ({@link #announce}). */
    public void onAnnouncement(Runnable onChange) {
        announcements().addEntryListener(new com.hazelcast.core.EntryAdapter<String, String>() {
            @Override
            public void onEntryEvent(com.hazelcast.core.EntryEvent<String, String> event) {
                onChange.run();
            }
        });
    }

    private com.hazelcast.replicatedmap.ReplicatedMap<String, String> announcements() {
        return hazelcast.getReplicatedMap(ANNOUNCEMENTS);
    }

    /** Runs {@code onChange} whenever a member joins or leaves. */
    public void onMembershipChange(Runnable onChange) {
        hazelcast.getCluster().addMembershipListener(new com.hazelcast.cluster.MembershipListener() {
            @Override
            public void memberAdded(com.hazelcast.cluster.MembershipEvent event) {
                onChange.run();
            }

            @Override
            public void memberRemoved(com.hazelcast.cluster.MembershipEvent event) {
                onChange.run();
            }
        });
    }

    /** Starts a member from a configuration made by {@link #hazelcastConfig} and then adjusted. */
    public static ClusterMember start(Config config) {
        return new ClusterMember(Hazelcast.newHazelcastInstance(config));
    }

    /** The Hazelcast configuration this class starts with, for callers that must adjust it first. */
    public static Config hazelcastConfig(ClusterConfig cluster, String bindAddress) {
        Config config = new Config();
        config.setClusterName(cluster.name());
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.getJetConfig().setEnabled(false);

        NetworkConfig network = config.getNetworkConfig();
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(cluster.enabled() && cluster.kubernetes().isEmpty());
        cluster.kubernetes().filter(k -> cluster.enabled()).ifPresent(k -> kubernetesJoin(join, k));
        String bind = cluster.enabled() ? bindAddress : "127.0.0.1";
        if (bind != null) {
            network.getInterfaces().setEnabled(true).addInterface(bind);
            config.setProperty("hazelcast.socket.bind.any", "false");
        }
        network.setPort(cluster.port());
        if (cluster.enabled()) {
            cluster.members().forEach(join.getTcpIpConfig()::addMember);
            network.setPortAutoIncrement(false);
        } else {
            network.setPortAutoIncrement(true);
        }

        config.addMapConfig(stickyMapConfig());
        // A few entries per table; PutIfAbsent on merge: the larger side's indexes stand (RealIndex).
        config.addMapConfig(new MapConfig(STICKY_REALS_PREFIX + "*").setBackupCount(1)
                .setMergePolicyConfig(new MergePolicyConfig(
                        PutIfAbsentMergePolicy.class.getName(),
                        MergePolicyConfig.DEFAULT_BATCH_SIZE)));
        config.addMapConfig(realStateMapConfig());
        config.addMapConfig(sharedTableMapConfig());
        config.addMapConfig(new MapConfig(NodeSlots.MAP).setBackupCount(1)
                .setMergePolicyConfig(new MergePolicyConfig(PutIfAbsentMergePolicy.class.getName(),
                        MergePolicyConfig.DEFAULT_BATCH_SIZE)));
        addVertxStructures(config);
        StickySerializers.register(config.getSerializationConfig());
        return config;
    }

    /**
     * Hazelcast's own Kubernetes discovery (in its core jar): members are the pods behind a service,
     * read from the Kubernetes API or, with {@code service-dns}, from a headless service's DNS name.
     */
    private static void kubernetesJoin(JoinConfig join, ClusterConfig.KubernetesDiscovery k) {
        KubernetesConfig kubernetes = join.getKubernetesConfig().setEnabled(true);
        if (!k.serviceDns().isEmpty()) {
            kubernetes.setProperty("service-dns", k.serviceDns());
        } else {
            if (!k.namespace().isEmpty()) {
                kubernetes.setProperty("namespace", k.namespace());
            }
            if (!k.serviceName().isEmpty()) {
                kubernetes.setProperty("service-name", k.serviceName());
            }
        }
        if (k.servicePort() > 0) {
            kubernetes.setProperty("service-port", Integer.toString(k.servicePort()));
        }
    }

    /**
     * Every sticky table's map: one synchronous backup, so losing any one node loses no binding and
     * a claim is acknowledged only once it is on two nodes; values stored as objects: a value is one
     * {@code Long} (16 bytes of heap, where binary storage keeps a 16-byte {@code HeapData} in a
     * 32-byte array: 139 instead of 163 bytes an entry copy, measured), and the entry processors
     * read it without deserializing; after a split brain the
     * larger side's bindings win and the smaller side's new keys are added ({@code PutIfAbsent}):
     * subscribers of the larger side, which is most of the traffic, do not move.
     */
    private static MapConfig stickyMapConfig() {
        MapConfig map = new MapConfig(STICKY_MAP_PREFIX + "*");
        map.setBackupCount(1);
        map.setAsyncBackupCount(0);
        map.setInMemoryFormat(InMemoryFormat.OBJECT);
        map.setPerEntryStatsEnabled(false);
        map.setStatisticsEnabled(true);
        map.setMergePolicyConfig(new MergePolicyConfig(CountedPutIfAbsent.Bindings.class.getName(),
                MergePolicyConfig.DEFAULT_BATCH_SIZE));
        return map;
    }

    /**
     * The reals' shared state (a few hundred entries at most): one synchronous backup; after a split
     * brain the most recent change of each real wins ({@code LatestUpdate}, which needs per-entry
     * statistics): that is the operator's latest command or the latest failure, on whichever side.
     */
    private static MapConfig realStateMapConfig() {
        MapConfig map = new MapConfig(SharedRealState.MAP);
        map.setBackupCount(1);
        map.setPerEntryStatsEnabled(true);
        map.setMergePolicyConfig(new MergePolicyConfig(LatestUpdateMergePolicy.class.getName(),
                MergePolicyConfig.DEFAULT_BATCH_SIZE));
        return map;
    }

    /**
     * Plug-ins' shared tables (sessions): like the sticky tables, one synchronous backup, binary,
     * and after a split brain the larger side's entries stand and the smaller side's new keys are
     * added ({@code PutIfAbsent}).
     */
    private static MapConfig sharedTableMapConfig() {
        MapConfig map = new MapConfig(HazelcastSharedTable.MAP_PREFIX + "*");
        map.setBackupCount(1);
        map.setAsyncBackupCount(0);
        map.setInMemoryFormat(InMemoryFormat.BINARY);
        map.setPerEntryStatsEnabled(false);
        map.setMergePolicyConfig(new MergePolicyConfig(CountedPutIfAbsent.Sessions.class.getName(),
                MergePolicyConfig.DEFAULT_BATCH_SIZE));
        return map;
    }

    /**
     * What Vert.x's cluster manager needs of a member it did not start: a node id attribute, and
     * (as its {@code default-cluster.xml} declares them) event-bus subscriptions as a multimap of
     * sets and node and HA information in maps, each with one backup so that a node's loss does not
     * lose another node's subscriptions.
     */
    private static void addVertxStructures(Config config) {
        // Vert.x finds its node id in the member's attributes when it is handed a running member.
        config.getMemberAttributeConfig().setAttribute("__vertx.nodeId", UUID.randomUUID().toString());
        config.addMultiMapConfig(new MultiMapConfig("__vertx.subs").setBackupCount(1)
                .setValueCollectionType(MultiMapConfig.ValueCollectionType.SET));
        config.addMapConfig(new MapConfig("__vertx.haInfo").setBackupCount(1));
        config.addMapConfig(new MapConfig("__vertx.nodeInfo").setBackupCount(1));
    }

    /**
     * A Vert.x cluster manager on this member, for {@code Vertx.builder().withClusterManager(...)}:
     * the event bus and the sticky tables share one membership. Vert.x leaving the cluster does
     * not stop the member; {@link #close()} does.
     */
    public ClusterManager vertxClusterManager() {
        return new HazelcastClusterManager(hazelcast);
    }

    public HazelcastInstance hazelcast() {
        return hazelcast;
    }

    /** The address other members reach this one on. */
    public InetSocketAddress address() {
        Address address = hazelcast.getCluster().getLocalMember().getAddress();
        return new InetSocketAddress(address.getHost(), address.getPort());
    }

    /**
     * What the {@code Director} takes to make its sticky tables: every table it makes is shared
     * by the cluster under the name the director gives it. Each call blocks until that table has
     * caught up, which the director does while it is built, before anything binds.
     */
    public StickyTableFactory stickyTables() {
        return this::stickyTable;
    }

    /** Opens (or joins) the cluster-wide sticky table {@code name}; blocks until caught up. */
    public HazelcastStickyTable stickyTable(String name, Duration idle, int maxEntries) {
        return HazelcastStickyTable.open(hazelcast, name, idle, maxEntries, Ticker.SYSTEM);
    }

    /**
     * Shares the reals' administrative state, weights and failures with the other nodes
     * ({@link SharedRealState}); blocks until this node has the cluster's current state.
     */
    public SharedRealState shareRealState(Farms farms) {
        return SharedRealState.open(hazelcast, farms, Ticker.SYSTEM);
    }

    /**
     * What the {@code Director} hands its plug-ins to open shared tables: each is a
     * {@link HazelcastSharedTable} of this member, caught up before {@code open} returns.
     */
    public SharedTables sharedTables() {
        return new SharedTables() {
            @Override
            public <K, V> SharedTable<K, V> open(String name, Codec<K> keys, Codec<V> values) {
                return HazelcastSharedTable.open(hazelcast, slot.index(), name, keys, values);
            }
        };
    }

    /**
     * Whether the cluster is safe (Hazelcast's cluster safety: no migration under way, every backup in
     * place: a member may leave or fail now without a loss), answered within {@code within}. Hazelcast's
     * check asks every member and, while a member that died is still listed (until its heartbeat times
     * out), retries against it for up to a minute; a caller (the admin API, a rolling upgrade's wait)
     * must not hang on it, and a cluster that cannot answer in time is not safe. One check runs at a
     * time, on a thread of its own; callers meanwhile share it.
     */
    public boolean safe(java.time.Duration within) {
        java.util.concurrent.CompletableFuture<Boolean> check;
        synchronized (this) {
            if (safeCheck == null || safeCheck.isDone()) {
                safeCheck = java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> hazelcast.getPartitionService().isClusterSafe(), SAFE_CHECKS);
            }
            check = safeCheck;
        }
        try {
            return check.get(within.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits until the partitions that moved to this member when it joined have arrived ({@link #safe}),
     * at most {@code atMost}. A table's copy made while partitions migrate can miss the entries of a
     * partition in motion (the map's iterator walks partition by partition), and a subscriber whose
     * binding the copy missed would be placed afresh at its first request here: so the tables are
     * opened once this returns.
     *
     * @return whether the cluster was safe in time
     */
    public boolean awaitSafe(java.time.Duration atMost) {
        long until = System.nanoTime() + atMost.toNanos();
        while (!safe(java.time.Duration.ofSeconds(1))) {
            if (System.nanoTime() - until >= 0) {
                return false;
            }
            // No event to wait on: Hazelcast's own forceLocalMemberToBeSafe polls likewise.
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100));
        }
        return true;
    }

    /** Leaves the cluster gracefully: partitions this member owns are handed over first. */
    @Override
    public void close() {
        if (hazelcast.getLifecycleService().isRunning()) {
            String own = hazelcast.getCluster().getLocalMember().getUuid() + "/";
            List.copyOf(announcements().keySet()).stream().filter(key -> key.startsWith(own))
                    .forEach(announcements()::remove);
            hazelcast.shutdown();
        }
    }
}
