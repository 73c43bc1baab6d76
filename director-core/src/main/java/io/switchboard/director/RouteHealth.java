package io.switchboard.director;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.Advertise;
import io.switchboard.director.config.RouteHealthConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.routing.BgpSpeaker;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Route health injection: watches whether each advertised virtual server is to be announced — in
 * service and, with {@link Advertise#ACTIVE} (IOS {@code advertise active}), with a real that can
 * serve in its farm or a backup; with {@link Advertise#INSERVICE} (IOS's default) whatever its reals
 * ({@link Advertise#announced}) — and runs the configured hook with {@code up} or {@code down}, the
 * virtual address and the server's name when that changes — and once at start, so the routing
 * daemon learns the current state. Hooks run one at a time, in order, off the event loops. With
 * {@code route-health.bgp} there is no hook: the set of addresses that are up is kept announced by
 * the node's BGP speaker ({@link BgpAnnouncements}), and a server is up only while its listener is
 * bound as well.
 */
final class RouteHealth {

    private static final Logger LOG = LoggerFactory.getLogger(RouteHealth.class);

    private final RouteHealthConfig config;
    private final Function<String, VirtualServer> virtualServers;
    private final MeterRegistry registry;
    /** The advertised servers' names, each with when it is announced; a reload adds, changes and withdraws them. */
    private final Map<String, Advertise> advertised = new ConcurrentHashMap<>();
    /** No longer advertised: announced down once more if they were up, then forgotten. */
    private final Set<String> withdrawn = ConcurrentHashMap.newKeySet();
    private final Map<String, Boolean> announced = new LinkedHashMap<>();
    /** The virtual address of each announcement, for the last one after the server is gone. */
    private final Map<String, String> addresses = new LinkedHashMap<>();
    private final Map<String, Counter> changes = new ConcurrentHashMap<>();
    /** With route-health.bgp: the speaker kept announcing the addresses that are up; the hook is not used. */
    private final BgpAnnouncements bgp;

    /** @param virtualServers the serving virtual server of a name, null when there is none (any more) */
    RouteHealth(RouteHealthConfig config, Function<String, VirtualServer> virtualServers, MeterRegistry registry,
            Ticker ticker) {
        this.config = config;
        this.virtualServers = virtualServers;
        this.registry = registry;
        this.bgp = config.bgp().map(b -> new BgpAnnouncements(BgpSpeaker.of(b, config.timeout()), ticker, registry))
                .orElse(null);
        config.advertising().forEach((name, when) -> advertise(name, Optional.of(when)));
    }

    /**
     * Starts advertising the virtual server, or changes when it is announced (either at the next
     * check), or stops ({@code when} empty): announced {@code down} if it was up, then forgotten.
     */
    void advertise(String name, Optional<Advertise> when) {
        if (when.isEmpty()) {
            if (advertised.remove(name) != null) {
                withdrawn.add(name);
            }
            return;
        }
        withdrawn.remove(name);
        for (String state : List.of("up", "down")) {
            changes.computeIfAbsent(name + "/" + state, k -> Counter.builder("switchboard.route.health.announcements")
                    .description("Route health hook runs, by state").tag("vserver", name).tag("state", state)
                    .register(registry));
        }
        advertised.put(name, when.get());
    }

    /** The node starts draining: with BGP, its addresses are withdrawn at once (see BgpAnnouncements). */
    void drain() {
        if (bgp != null) {
            bgp.withdrawNow();
        }
    }

    /** Compares each advertised server's availability with what was last announced. */
    void check(Vertx vertx, Function<String, InetSocketAddress> boundAddress) {
        List<String[]> runs = new ArrayList<>();
        Set<InetAddress> served = new HashSet<>();
        synchronized (this) {
            for (Map.Entry<String, Advertise> entry : advertised.entrySet()) {
                String name = entry.getKey();
                VirtualServer vs = virtualServers.apply(name);
                if (vs == null) {
                    continue;
                }
                // A draining node or a removed server withdraws at once, so the routers move new traffic elsewhere;
                // one out of service drops every request (Intake), so it is not announced either.
                boolean serving = vs.refusesNewWork() == null && vs.inService();
                boolean up = entry.getValue().announced(serving, available(vs.selector().farm()))
                        && healthy(name, boundAddress);
                Boolean before = announced.put(name, up);
                if (before == null || before != up) {
                    InetSocketAddress vip = boundAddress.apply(name);
                    String address = vip == null ? vs.config().listen().address().getHostAddress()
                            : vip.getAddress().getHostAddress();
                    addresses.put(name, address);
                    runs.add(new String[] {up ? "up" : "down", address, name});
                }
            }
            for (String name : withdrawn) {
                withdrawn.remove(name);
                if (Boolean.TRUE.equals(announced.remove(name))) {
                    runs.add(new String[] {"down", addresses.get(name), name});
                }
                addresses.remove(name);
            }
            announced.forEach((name, isUp) -> {
                if (isUp && addresses.containsKey(name)) {
                    // A literal (getHostAddress above): no name is looked up.
                    served.add(new InetSocketAddress(addresses.get(name), 0).getAddress());
                }
            });
        }
        if (bgp != null) {
            bgp.sync(vertx, served);
        }
        for (String[] run : runs) {
            changes.get(run[2] + "/" + run[0]).increment();
            if (bgp != null) {
                LOG.info("virtual server {} is {}: {} announced through BGP", run[2], run[0], run[1]);
                continue;
            }
            config.hook().ifPresentOrElse(
                    hook -> vertx.executeBlocking(() -> runHook(hook, run), true),
                    () -> LOG.info("virtual server {} is {} (no route-health hook configured)", run[2], run[0]));
        }
    }

    private Void runHook(Path hook, String[] run) {
        try {
            Process process = new ProcessBuilder(hook.toString(), run[0], run[1], run[2])
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(config.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                LOG.warn("route-health hook {} {} {} timed out", hook, run[0], run[1]);
            } else if (process.exitValue() != 0) {
                LOG.warn("route-health hook {} {} {} exited {}", hook, run[0], run[1], process.exitValue());
            } else {
                LOG.info("route-health: {} {} ({})", run[0], run[1], run[2]);
            }
        } catch (Exception e) {
            LOG.warn("route-health hook {} could not run: {}", hook, e.toString());
        }
        return null;
    }

    /**
     * With BGP, a virtual server whose listener is not bound (not yet, or lost) is not served here,
     * as the node's /health says; the hook keeps its first answer at start, up with the reals.
     */
    private boolean healthy(String name, Function<String, InetSocketAddress> boundAddress) {
        return bgp == null || boundAddress.apply(name) != null;
    }

    /** A real of the farm or one of its backups can serve clients. */
    private static boolean available(ServerFarm farm) {
        Set<ServerFarm> seen = new HashSet<>();
        for (ServerFarm f = farm; f != null && seen.add(f); f = f.backup()) {
            for (RealServer real : f.reals()) {
                if (real.state().takesNewWork() || real.servesBoundClients()) {
                    return true;
                }
            }
        }
        return false;
    }
}
