package io.switchboard.app.demo;

import io.switchboard.app.Node;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.spi.DemoDirector;
import io.switchboard.director.spi.DemoScenario;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code switchboard demo --service NAME} for a service whose plug-in module registers a
 * {@link DemoScenario}: the scenario's simulated peers started, a node built from the scenario's
 * configuration and started, and the scenario played through a read-only view of the node's one
 * virtual server. Exit 0, or 1 if the director did not behave as the scenario shows.
 */
final class ScenarioDemo {

    private final PrintWriter out;
    private final DemoScenario scenario;
    private final int clients;
    private final int adminPort;

    ScenarioDemo(PrintWriter out, DemoScenario scenario, int clients, int adminPort) {
        this.out = out;
        this.scenario = scenario;
        this.clients = clients;
        this.adminPort = adminPort;
    }

    /** Runs the demo; with {@code keepRunning} the director and the peers stay up (returns at once). */
    int play(boolean keepRunning) throws Exception {
        DemoScenario.Run run = scenario.start(clients);
        Node node = null;
        try {
            node = DemoConfiguration.node(out, scenario.title(), run.configuration(adminPort));
            String virtualServer = onlyVirtualServer(node);
            node.startAndWait();
            DemoConfiguration.listening(out, node, virtualServer);
            boolean ok = run.play(new NodeView(node, virtualServer), out);
            if (keepRunning) {
                DemoConfiguration.stillRunning(out, node, scenario.metricsPrefix());
                Node stays = node;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> shutdown(stays, run)));
                return ok ? 0 : 1;
            }
            shutdown(node, run);
            return ok ? 0 : 1;
        } catch (Exception e) {
            shutdown(node, run);
            throw e;
        }
    }

    private String onlyVirtualServer(Node node) {
        Set<String> names = node.director().config().virtualServers().keySet();
        if (names.size() != 1) {
            throw new IllegalStateException("the demo of service " + scenario.service() + " configures "
                    + names.size() + " virtual servers, not one");
        }
        return names.iterator().next();
    }

    private static void shutdown(Node node, DemoScenario.Run run) {
        if (node != null) {
            node.close();
        }
        run.close();
    }

    /** The started node's virtual server as the scenario sees it. */
    private record NodeView(Node node, String virtualServer) implements DemoDirector {

        @Override
        public InetSocketAddress address() {
            return node.director().localAddress(virtualServer);
        }

        @Override
        public List<Real> reals() {
            String farm = server().config().farm();
            return node.director().farms().farm(farm).reals().stream()
                    .map(r -> new Real(r.id(), r.weight(), r.state(), r.connections())).toList();
        }

        @Override
        public Optional<String> boundReal(StickyKey key) {
            return Optional.ofNullable(server().selector().sticky().lookup(key, Ticker.SYSTEM.nanos()))
                    .map(StickyBinding::real);
        }

        @Override
        public Counters counters() {
            VirtualServerMetrics m = server().metrics();
            return new Counters((long) m.receivedCount(), (long) m.forwardedCount(), (long) m.relayedCount(),
                    (long) m.reassignedCount(), (long) m.expiredCount());
        }

        private VirtualServer server() {
            return node.director().virtualServers().get(virtualServer);
        }
    }
}
