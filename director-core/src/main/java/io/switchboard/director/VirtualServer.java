package io.switchboard.director;

import io.switchboard.codec.DropReason;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.overload.Admission;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.transaction.RelayedRequests;
import io.switchboard.director.udp.DatagramTap;

/** A virtual server at run time: its configuration, plug-in, selector and counters. */
public final class VirtualServer {

    private final VirtualServerConfig config;
    private final DatagramPlugin plugin;
    private final RealSelector selector;
    private final VirtualServerMetrics metrics;
    private volatile boolean inService;
    private volatile boolean draining;
    private volatile boolean removed;
    private volatile DatagramTap tap;
    private final RelayedRequests relayedRequests;
    private final Admission admission;

    public VirtualServer(VirtualServerConfig config, DatagramPlugin plugin, RealSelector selector,
            VirtualServerMetrics metrics) {
        this(config, plugin, selector, metrics, null);
    }

    /** @param relayedRequests the requests its reals sent to peers, when its plug-in relays them */
    public VirtualServer(VirtualServerConfig config, DatagramPlugin plugin, RealSelector selector,
            VirtualServerMetrics metrics, RelayedRequests relayedRequests) {
        this(config, plugin, selector, metrics, relayedRequests, Admission.NONE);
    }

    /** @param admission its {@code overload} limits ({@link Admission#NONE}: none) */
    public VirtualServer(VirtualServerConfig config, DatagramPlugin plugin, RealSelector selector,
            VirtualServerMetrics metrics, RelayedRequests relayedRequests, Admission admission) {
        this.admission = admission;
        this.relayedRequests = relayedRequests;
        this.config = config;
        this.plugin = plugin;
        this.selector = selector;
        this.metrics = metrics;
        this.inService = config.inService();
    }

    /** The requests its reals sent to peers and that wait for answers; null when its plug-in relays none. */
    public RelayedRequests relayedRequests() {
        return relayedRequests;
    }

    /** Its admission control: asked by the engine for every request that is not a retransmission. */
    public Admission admission() {
        return admission;
    }

    public String name() {
        return config.name();
    }

    public VirtualServerConfig config() {
        return config;
    }

    public DatagramPlugin plugin() {
        return plugin;
    }

    public RealSelector selector() {
        return selector;
    }

    /**
     * The selector for a new request of {@code client}: its client-assigned farm's
     * ({@link VirtualServerConfig#farmFor}) over this server's sticky table, else this server's own.
     * Every lane (datagram, flow, TCP) and what-if select through here.
     */
    public RealSelector selectorFor(java.net.InetSocketAddress client) {
        if (config.clientFarms().isEmpty()) {
            return selector;
        }
        RealSelector assigned = selector.inFarm(config.farmFor(client.getAddress()));
        return assigned == null ? selector : assigned;
    }

    public VirtualServerMetrics metrics() {
        return metrics;
    }

    /**
     * The node is shutting down: no new work (a new request, a new flow) is taken, what is in flight
     * (pending requests, their retransmissions, answers, the reals' requests for sessions) goes on.
     */
    public boolean draining() {
        return draining;
    }

    public void drain() {
        this.draining = true;
    }

    /**
     * A reload removed it: as while draining, no new work is taken and what is in flight goes on,
     * until the director unbinds it.
     */
    public void remove() {
        this.removed = true;
    }

    /**
     * Why a new request or flow is refused while what is in flight goes on — {@code removed} by a
     * reload, {@code shutting-down} — or null when new work is taken.
     */
    public DropReason refusesNewWork() {
        return removed ? EngineDrops.REMOVED : draining ? EngineDrops.SHUTTING_DOWN : null;
    }

    public boolean inService() {
        return inService;
    }

    public void inService(boolean inService) {
        this.inService = inService;
    }

    /** The debug capture's tap, or null when none runs (the usual case). */
    public DatagramTap tap() {
        return tap;
    }

    /** Starts ({@code tap}) or stops ({@code null}) handing this virtual server's datagrams to a tap. */
    public void tap(DatagramTap tap) {
        this.tap = tap;
    }
}
