package io.switchboard.l4.dispatch;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.l4.dispatch.DispatchMetrics.Outcome;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatched-mode farms of a director (firewall farms and VPN flows): their capture loops, the
 * injection handles, and the sweep that ends idle firewall flows. Started after the director (whose
 * farms, probes and sticky groups they use), stopped before it.
 */
public final class DispatchedFarms implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DispatchedFarms.class);
    private static final long SWEEP_MILLIS = 200;

    private final List<CaptureLoop> loops = new ArrayList<>();
    private final PcapFrameOutput output = new PcapFrameOutput();
    private final List<FirewallDispatcher> firewalls = new ArrayList<>();
    /** The client tables of the all-port farms without a sticky group. */
    private final List<StickyTable> ownTables = new ArrayList<>();
    private static final int OWN_TABLE_ENTRIES = 1_000_000;
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "dispatch-sweep");
        t.setDaemon(true);
        return t;
    });

    private DispatchedFarms() {
    }

    /**
     * Opens every capture and injection interface and starts the loops; nothing stays open when one
     * cannot be opened (no such interface, no CAP_NET_RAW).
     */
    public static DispatchedFarms start(DispatchedConfig config, Director director, MeterRegistry registry,
            Ticker ticker) throws Exception {
        DispatchedFarms farms = new DispatchedFarms();
        try {
            farms.open(config, director, registry, ticker);
        } catch (Exception e) {
            farms.close();
            throw e;
        }
        return farms;
    }

    private void open(DispatchedConfig config, Director director, MeterRegistry registry, Ticker ticker)
            throws Exception {
        Set<Integer> local = localIpv4Addresses();
        for (DispatchedConfig.FirewallFarm farm : config.firewallFarms().values()) {
            DispatchMetrics metrics = new DispatchMetrics(registry, farm.name(), "firewall");
            FirewallDispatcher dispatcher = new FirewallDispatcher(farm, director.farms(),
                    farm.framedIpGroup().map(director::stickyGroup).orElse(null), local, metrics, ticker);
            Gauge.builder("switchboard.dispatched.flows", dispatcher, FirewallDispatcher::flows)
                    .description("Open flows of a firewall farm").tag("farm", farm.name()).register(registry);
            for (DispatchedConfig.Firewall firewall : farm.firewalls()) {
                output.open(firewall.outside().interfaceName());
                output.open(firewall.inside().interfaceName());
            }
            loops.add(new CaptureLoop(farm.name(), farm.outside(), null, (frame, length, view) -> dispatcher.dispatch(
                    FirewallDispatcher.Side.OUTSIDE, frame, length, view, output), () -> metrics.frame(Outcome.ERROR)));
            loops.add(new CaptureLoop(farm.name(), farm.inside(), null, (frame, length, view) -> dispatcher.dispatch(
                    FirewallDispatcher.Side.INSIDE, frame, length, view, output), () -> metrics.frame(Outcome.ERROR)));
            firewalls.add(dispatcher);
        }
        for (DispatchedConfig.VpnFarm farm : config.vpnFarms().values()) {
            DispatchMetrics metrics = new DispatchMetrics(registry, farm.name(), "vpn");
            StickyTable table = farm.stickyGroup().map(director::stickyGroup).orElseGet(() -> {
                // An all-port farm without a group: its clients in a table of its own, swept below.
                StickyTable own = new InMemoryStickyTable("vpn-farm " + farm.name(), farm.sticky(), OWN_TABLE_ENTRIES);
                ownTables.add(own);
                return own;
            });
            VpnDispatcher dispatcher = new VpnDispatcher(farm, director.farms(), table, metrics, ticker);
            for (DispatchedConfig.VpnReal real : farm.reals()) {
                output.open(real.link().interfaceName());
            }
            StringBuilder protocols = new StringBuilder();
            for (int protocol : farm.protocols()) {
                protocols.append(protocols.isEmpty() ? "" : " or ").append("ip proto ").append(protocol);
            }
            String filter = "dst host " + farm.address().getHostAddress()
                    + (farm.dispatches(DispatchedConfig.VpnFarm.ANY) ? "" : " and (" + protocols + ")");
            loops.add(new CaptureLoop(farm.name(), farm.interfaceName(), filter,
                    (frame, length, view) -> dispatcher.dispatch(frame, length, view, output),
                    () -> metrics.frame(Outcome.ERROR)));
        }
        loops.forEach(CaptureLoop::start);
        sweeper.scheduleWithFixedDelay(() -> {
            firewalls.forEach(f -> f.expire(ticker.nanos()));
            ownTables.forEach(t -> t.expire(ticker.nanos()));
        }, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        LOG.info("dispatched mode: {} firewall farm(s), {} VPN farm(s), {} capture loop(s)",
                config.firewallFarms().size(), config.vpnFarms().size(), loops.size());
    }

    /** Every IPv4 address of this host (of its network namespace): frames to them are the director's own. */
    private static Set<Integer> localIpv4Addresses() throws java.net.SocketException {
        Set<Integer> local = new HashSet<>();
        for (NetworkInterface nif : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress address : java.util.Collections.list(nif.getInetAddresses())) {
                if (address instanceof Inet4Address) {
                    local.add(Ipv4.of(address.getAddress()));
                }
            }
        }
        return local;
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        for (CaptureLoop loop : loops) {
            try {
                loop.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        loops.clear();
        output.close();
    }
}
