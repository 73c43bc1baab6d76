package io.switchboard.app;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.switchboard.app.admin.AdminServer;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.app.reload.ClusterReload;
import io.switchboard.app.reload.Reloader;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.app.reload.RunningConfig;
import io.switchboard.cluster.ClusterHealth;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.cluster.CountedPutIfAbsent;
import io.switchboard.cluster.SharedRealState;
import io.switchboard.cluster.UnlistedMembers;
import io.switchboard.director.Director;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.dfp.Dfp;
import io.switchboard.director.staticnat.StaticNat;
import io.switchboard.director.persist.Persistence;
import io.switchboard.director.transport.Transports;
import io.switchboard.l4.dispatch.DispatchedFarms;
import io.switchboard.pcap.DebugCaptures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Switchboard node: Vert.x (native transport where the platform has it), the metrics
 * registry, the director and the admin listener, started and stopped together.
 */
public final class Node implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Node.class);

    private final SwitchboardConfig config;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ClusterMember member;
    private final Vertx vertx;
    /** The transport every socket of the node uses ({@code transport}). */
    private final Transports transport;
    private final Director director;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ClusterStatus clusterStatus;
    private final SharedRealState realState;
    private final Reloader reloader;
    /** Shares this node's reloads with the other nodes; null on a single node. */
    private final ClusterReload clusterReload;
    private AdminServer admin;
    private volatile DispatchedFarms dispatched;
    private volatile Dfp dfp;
    private volatile StaticNat staticNat;
    private final DebugCaptures captures;
    /**
     * How long a joining node waits for the partitions that move to it before it copies the shared
     * tables ({@link ClusterMember#awaitSafe}); a rejoin into three nodes took 11 to 16 s on a loaded
     * test machine.
     */
    private static final Duration JOIN_SAFE_WAIT = Duration.ofSeconds(30);
    /** Members in the cluster that its {@code members} list does not name; null on a single node. */
    private final UnlistedMembers unlisted;
    /** What runs when this node left a cluster that admitted an unlisted member ({@code unlisted-member: leave}). */
    private volatile Runnable onClusterLeft = () -> { };
    /** The snapshot of a lone node's tables ({@code persistence}); null without. */
    private final Persistence persistence;
    /** Safety and replication lag as metrics; null on a single node. */
    private final ClusterHealth clusterHealth;
    private final ProcessMeters processMeters;

    /**
     * Builds the node. With the cluster enabled this joins it first (an embedded Hazelcast member,
     * on which Vert.x runs clustered too) and waits until the shared sticky tables have caught up,
     * so a node never serves without the cluster's bindings.
     */
    public Node(SwitchboardConfig config, Services services) {
        this(config, null, services);
    }

    /**
     * As {@link #Node(SwitchboardConfig, Services)}, with the YAML the configuration was read from
     * ({@code GET /api/v1/config} shows it); null when there is none.
     */
    public Node(SwitchboardConfig config, String yaml, Services services) {
        this.config = config;
        // The one transport choice (transport key): Vert.x's loops, and so every channel the directors
        // open on them (Transports.of(loop)). A configured transport this host lacks is refused here.
        this.transport = Transports.forNode(config.transport());
        VertxOptions options = new VertxOptions().setPreferNativeTransport(transport != Transports.NIO);
        RunningConfig running = new RunningConfig(config, yaml);
        String digest = running.digest();
        if (config.cluster().enabled()) {
            this.member = ClusterMember.start(config.cluster(),
                    config.cluster().bind().map(java.net.InetAddress::getHostAddress).orElse(null),
                    ClusterStatus.attributes(digest));
            this.vertx = await(Vertx.builder().with(options).withTransport(transport.vertx())
                    .withClusterManager(member.vertxClusterManager()).buildClustered());
            if (!member.awaitSafe(JOIN_SAFE_WAIT)) {
                LOG.warn("the cluster was not safe {} after joining (partitions still migrating): bindings and"
                        + " sessions in motion may be missing from this node's copy until used", JOIN_SAFE_WAIT);
            }
            this.director = new Director(config, services::forVirtualServer, registry, Ticker.SYSTEM,
                    member.stickyTables(), member.slot(), member.sharedTables());
            this.realState = member.shareRealState(director.farms());
            this.persistence = null;
            this.unlisted = UnlistedMembers.watch(member, config.cluster(), this::leftCluster);
            LOG.info("joined cluster {} as {}, slot {}", config.cluster().name(), member.address(),
                    member.slot().index());
        } else {
            this.member = null;
            this.unlisted = null;
            this.vertx = Vertx.builder().with(options).withTransport(transport.vertx()).build();
            this.realState = null;
            if (config.persistence().enabled()) {
                // The tables are filled from the snapshot as the director makes them, before anything binds.
                this.persistence = Persistence.open(config.persistence(), registry, Ticker.SYSTEM);
                this.director = new Director(config, services::forVirtualServer, registry, Ticker.SYSTEM,
                        persistence.tables(), NodeSlot.SINGLE, persistence.tables());
                persistence.restored();
                persistence.start();
            } else {
                this.persistence = null;
                this.director = new Director(config, services::forVirtualServer, registry, Ticker.SYSTEM);
            }
        }
        this.clusterStatus = new ClusterStatus(config, digest, member, director, unlisted);
        this.captures = new DebugCaptures(config.debugCapture(), director.virtualServers(), registry);
        this.reloader = new Reloader(new ConfigLoader(services.available()), running, director, registry,
                applied -> clusterStatus.digest(applied.digest()));
        if (member != null) {
            clusterStatus.checkDigests();
            member.onMembershipChange(clusterStatus::checkDigests);
            member.onAnnouncement(clusterStatus::checkDigests);
            this.clusterReload = new ClusterReload(vertx, reloader, member.address().toString());
            this.clusterHealth = ClusterHealth.start(member, registry);
        } else {
            this.clusterReload = null;
            this.clusterHealth = null;
        }
        this.processMeters = new ProcessMeters(registry, vertx);
        Gauge.builder("switchboard.cluster.config.digests", clusterStatus, ClusterStatus::distinctDigests)
                .description("Configurations the cluster's members run (digests): 1 when every node runs the same")
                .register(registry);
        FunctionCounter.builder("switchboard.cluster.unlisted.members", this,
                        node -> node.unlisted == null ? 0 : node.unlisted.count())
                .description("Members seen in the cluster from an address not in cluster.members")
                .register(registry);
        mergeOutcomes(registry, "bindings", CountedPutIfAbsent.BINDINGS);
        mergeOutcomes(registry, "sessions", CountedPutIfAbsent.SESSIONS);
        if (transport == Transports.NIO && config.transport().isEmpty()) {
            LOG.info("native transport unavailable ({}); using NIO with one socket per virtual server",
                    Transports.EPOLL.unavailabilityCause() == null ? "not Linux"
                            : Transports.EPOLL.unavailabilityCause().getMessage());
        } else {
            LOG.info("transport {}", transport.configName());
        }
    }

    /** What this node's share of split-brain merges decided for one kind of table ({@link CountedPutIfAbsent}). */
    private static void mergeOutcomes(MeterRegistry registry, String table, CountedPutIfAbsent.Outcomes outcomes) {
        FunctionCounter.builder("switchboard.cluster.merged.entries", outcomes, CountedPutIfAbsent.Outcomes::added)
                .tags("table", table, "outcome", "added")
                .description("Entries of the smaller side of a healed split brain, by what the merge decided: added"
                        + " (only that side had the key), same (both alike), conflict (two answers: the larger side's kept)")
                .register(registry);
        FunctionCounter.builder("switchboard.cluster.merged.entries", outcomes, CountedPutIfAbsent.Outcomes::same)
                .tags("table", table, "outcome", "same").register(registry);
        FunctionCounter.builder("switchboard.cluster.merged.entries", outcomes, CountedPutIfAbsent.Outcomes::conflicts)
                .tags("table", table, "outcome", "conflict").register(registry);
    }

    /**
     * What to run once this node has left a cluster that admitted an unlisted member (after the node
     * stopped serving): the run command exits, so that the service manager sees the failure.
     */
    public void onClusterLeft(Runnable action) {
        onClusterLeft = action;
    }

    /** The cluster member was terminated (an unlisted member): nothing it served can stay consistent. */
    private void leftCluster() {
        LOG.error("left cluster {}: it admitted a member not in cluster.members; this node stops serving",
                config.cluster().name());
        close();
        onClusterLeft.run();
    }

    /** Binds every virtual server, then the admin listener; on failure, nothing stays bound. */
    public Future<Void> start() {
        return director.start(vertx)
                .compose(v -> startDispatched())
                .compose(v -> startStaticNat())
                .compose(v -> startDfp())
                .compose(v -> vertx.executeBlocking(() -> {
                    captures.startConfigured();
                    return null;
                }))
                .compose(v -> {
                    if (!config.admin().enabled()) {
                        return Future.succeededFuture();
                    }
                    admin = new AdminServer(config.admin(), director, registry, clusterStatus::toJson, captures,
                            reloader);
                    return vertx.deployVerticle(admin).mapEmpty();
                })
                .recover(failure -> stopDfp().stopStaticNat().stopDispatched().director.stop().eventually(() -> Future.succeededFuture())
                        .compose(v -> Future.failedFuture(failure)))
                .mapEmpty();
    }

    /** DFP manager, agent and built-in agents (docs/dfp.md), when the configuration has any. */
    private Future<Void> startDfp() {
        if (!config.dfp().enabled()) {
            return Future.succeededFuture();
        }
        return Dfp.start(vertx, config.dfp(), director, registry).onSuccess(d -> dfp = d).mapEmpty();
    }

    private Node stopDfp() {
        if (dfp != null) {
            dfp.close();
            dfp = null;
        }
        return this;
    }

    /** Firewall farms and VPN flows (dispatched mode), on a worker: opening pcap handles blocks. */
    private Future<Void> startDispatched() {
        if (config.dispatched().isEmpty()) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> {
            dispatched = DispatchedFarms.start(config.dispatched(), director, registry, Ticker.SYSTEM);
            return null;
        });
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start clustered Vert.x: " + e.getMessage(), e);
        }
    }

    /** The nftables table of {@code static-nat:} (docs/transparent.md), on a worker: nft is a process. */
    private Future<Void> startStaticNat() {
        if (config.staticNat().isEmpty()) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> {
            staticNat = StaticNat.start(config.staticNat(), registry);
            return null;
        });
    }

    private Node stopStaticNat() {
        if (staticNat != null) {
            staticNat.close();
            staticNat = null;
        }
        return this;
    }

    private Node stopDispatched() {
        if (dispatched != null) {
            dispatched.close();
            dispatched = null;
        }
        return this;
    }

    /** The cluster member, or null on a single node. */
    public ClusterMember member() {
        return member;
    }

    /** Starts and waits; throws with the first bind failure. */
    public void startAndWait() throws Exception {
        start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    public Director director() {
        return director;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The admin listener's bound address, or null when disabled. */
    public InetSocketAddress adminAddress() {
        return admin == null ? null : admin.localAddress();
    }

    /** The node's configuration reloads (the admin API's {@code /api/v1/config}, SIGHUP). */
    public Reloader reloader() {
        return reloader;
    }

    /** The node's debug captures. */
    public DebugCaptures captures() {
        return captures;
    }

    /**
     * A graceful shutdown (SIGTERM): the node stops taking new work at once and says so on
     * {@code /health} (503, {@code DRAINING}) and to route health, answers what it has in flight for
     * at most {@code deadline}, then closes: the virtual servers, the admin listener, and the cluster
     * member, whose graceful leave hands its partitions (bindings, sessions) to the other members
     * before it goes ({@link #close}). A lone node with {@code persistence} writes its snapshot
     * after the drain instead.
     */
    public void shutdown(Duration deadline) {
        LOG.info("shutting down: no new work, answering what is in flight (at most {})", deadline);
        try {
            int left = director.drain(deadline).toCompletionStage().toCompletableFuture()
                    .get(deadline.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            if (left == 0) {
                LOG.info("drained: nothing left in flight");
            } else {
                LOG.warn("shutdown deadline {} reached with {} request(s) still in flight", deadline, left);
            }
        } catch (Exception e) {
            LOG.warn("draining did not complete: {}", e.toString());
        }
        if (persistence != null) {
            persistence.close();
            persistence.write("shutdown");
        }
        close();
    }

    @Override
    public void close() {
        // A second close (the shutdown hook after a test's own, say) must not shut Vert.x down again:
        // a clustered Vert.x refuses that with an exception.
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (clusterReload != null) {
            clusterReload.close();
        }
        stopDfp();
        stopStaticNat();
        stopDispatched();
        captures.close();
        if (persistence != null) {
            persistence.close();
        }
        try {
            director.stop().eventually(() -> vertx.close())
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("shutdown did not complete cleanly: {}", e.toString());
        }
        processMeters.close();
        if (clusterHealth != null) {
            clusterHealth.close();
        }
        if (member != null && member.hazelcast().getLifecycleService().isRunning()) {
            realState.close();
            member.close();
        }
    }
}
