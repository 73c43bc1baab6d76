package io.switchboard.app.demo;

import io.switchboard.app.Node;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.spi.DemoScenario;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard demo}: a director with an embedded configuration on loopback in front of three
 * SIMULATED backends, driven by simulated clients. It shows the IOS weighted round robin order,
 * client stickiness, and in-band failure detection with reassignment, then exits 0 — or 1 if the
 * director did not behave as shown. With {@code --nodes N} (2..9), a cluster of N node processes
 * instead ({@link ClusterDemo}). With {@code --service NAME}, the demo a plug-in module registers for
 * its service NAME ({@link ScenarioDemo}), such as {@code gtp-inspect}'s in front of simulated PGWs.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start a director in front of simulated backends, drive it, and print what happened.")
public final class DemoCommand implements Callable<Integer> {

    private static final Duration ASK = Duration.ofSeconds(2);

    @Option(names = "--keep-running", description = "leave the director and simulators up for the admin API")
    boolean keepRunning;

    @Option(names = "--clients", defaultValue = "6", description = "simulated clients (default: ${DEFAULT-VALUE})")
    int clientCount;

    @Option(names = "--requests", defaultValue = "50", description = "requests per client (default: ${DEFAULT-VALUE})")
    int requests;

    @Option(names = "--admin-port", defaultValue = "0", description = "admin port (default: any free port)")
    int adminPort;

    @Option(names = "--nodes", defaultValue = "1", description = "director nodes: 1 in this process, or 2..9"
            + " clustered, each a JVM of its own, the first killed half-way; --clients, --requests and"
            + " --keep-running apply to one node (default: ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--service", defaultValue = DemoServices.UDP, completionCandidates = DemoServices.class,
            description = "what the director serves, one of ${COMPLETION-CANDIDATES}: udp has three simulated UDP"
            + " backends and simulated clients; any other, the simulated peers of its plug-in module's demo"
            + " (--clients is then the number of clients it simulates, such as subscribers)"
            + " (default: ${DEFAULT-VALUE})")
    String service;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (clientCount < 1 || clientCount > 200 || requests < 1) {
            spec.commandLine().getErr().println("demo: --clients must be 1..200 and --requests positive");
            return 2;
        }
        if (nodes < 1 || nodes > 9) {
            spec.commandLine().getErr().println("demo: --nodes must be 1..9");
            return 2;
        }
        DemoServices services = new DemoServices();
        if (!services.offers(service)) {
            spec.commandLine().getErr().println("demo: --service must be " + services.listed() + ", not '" + service
                    + "'");
            return 2;
        }
        Optional<DemoScenario> scenario = services.scenario(service);
        if (scenario.isPresent()) {
            if (nodes > 1) {
                spec.commandLine().getErr().println("demo: --nodes applies to the udp demo only");
                return 2;
            }
            return new ScenarioDemo(out, scenario.get(), clientCount, adminPort).play(keepRunning);
        }
        if (nodes > 1) {
            return new ClusterDemo(out, nodes).play();
        }
        List<SimulatedUdpBackend> backends = new ArrayList<>();
        for (String name : List.of("sim-a", "sim-b", "sim-c")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        Node node = DemoConfiguration.node(out, "a udp virtual server in front of three SIMULATED backends",
                DemoConfiguration.yaml(backends, adminPort));
        List<SimulatedUdpClient> clients = new ArrayList<>();
        boolean ok;
        try {
            node.startAndWait();
            InetSocketAddress vip = DemoConfiguration.listening(out, node, DemoConfiguration.VSERVER);
            for (int i = 0; i < clientCount; i++) {
                clients.add(new SimulatedUdpClient(new InetSocketAddress(clientAddress(i), 0), vip));
            }
            ok = new DemoRun(node, backends, clients, out).play(requests);
            if (keepRunning) {
                DemoConfiguration.stillRunning(out, node, Optional.empty());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> shutdown(node, backends, clients)));
                return ok ? 0 : 1;
            }
        } catch (Exception e) {
            shutdown(node, backends, clients);
            throw e;
        }
        shutdown(node, backends, clients);
        return ok ? 0 : 1;
    }

    /** Clients on 127.0.0.11, .12, ...: distinct addresses, so client-address stickiness shows. */
    private static String clientAddress(int i) {
        return "127.0." + ((11 + i) / 250) + "." + ((11 + i) % 250);
    }

    private static void shutdown(Node node, List<SimulatedUdpBackend> backends, List<SimulatedUdpClient> clients) {
        clients.forEach(SimulatedUdpClient::close);
        node.close();
        backends.forEach(SimulatedUdpBackend::close);
    }

    /** The scripted traffic and the tables printed about it. */
    private static final class DemoRun {
        private final Node node;
        private final List<SimulatedUdpBackend> backends;
        private final List<SimulatedUdpClient> clients;
        private final PrintWriter out;
        private final ServerFarm farm;
        private final Map<SimulatedUdpClient, String> stuckTo = new LinkedHashMap<>();

        DemoRun(Node node, List<SimulatedUdpBackend> backends, List<SimulatedUdpClient> clients, PrintWriter out) {
            this.node = node;
            this.backends = backends;
            this.clients = clients;
            this.out = out;
            this.farm = node.director().farms().farm(DemoConfiguration.FARM);
        }

        boolean play(int requests) {
            out.printf("Phase 1: %d clients send %d requests each.%n", clients.size(), requests);
            boolean sticky = true;
            int unanswered = 0;
            for (int c = 0; c < clients.size(); c++) {
                SimulatedUdpClient client = clients.get(c);
                java.util.Set<String> seen = new java.util.TreeSet<>();
                for (int r = 0; r < requests; r++) {
                    String answer = client.ask("client" + c + "-request" + r, ASK);
                    if (answer == null) {
                        unanswered++;
                    } else {
                        seen.add(answer.substring(0, answer.indexOf('|')));
                    }
                }
                stuckTo.put(client, String.join(",", seen));
                sticky &= seen.size() == 1;
            }
            printReals("after phase 1");
            printClients();
            out.printf("Weighted round robin gives new clients to sim-a, sim-a, sim-a, sim-b, sim-c, sim-c (weights 3/1/2),"
                    + " then again; each client stays on its real.%n%n");

            SimulatedUdpBackend b = backends.get(1);
            RealServer realB = farm.real("127.0.0.1:" + b.address().getPort());
            out.println("Phase 2: sim-b stops answering. Its clients' requests go unanswered until failure detection"
                    + " (3 unanswered in a row) marks it FAILED; then they are reassigned.");
            b.silent(true);
            List<SimulatedUdpClient> onB = clients.stream().filter(c -> stuckTo.get(c).equals("sim-b")).toList();
            for (int attempt = 0; attempt < 40 && !onB.isEmpty() && realB.state() != RealState.FAILED; attempt++) {
                onB.get(attempt % onB.size()).ask("are-you-there", Duration.ofMillis(400));
            }
            boolean failedOver = onB.isEmpty() || realB.state() == RealState.FAILED;
            for (SimulatedUdpClient client : onB) {
                client.drain();
                String answer = client.ask("after-failover", ASK);
                String real = answer == null ? "(no answer)" : answer.substring(0, answer.indexOf('|'));
                stuckTo.put(client, real);
                failedOver &= answer != null && !real.equals("sim-b");
            }
            printReals("after phase 2");
            printClients();
            printCounters();
            boolean ok = sticky && unanswered == 0 && failedOver;
            out.println(ok ? "Demo OK: every client stayed on one real, sim-b's clients moved when it failed."
                    : "Demo FAILED: sticky=" + sticky + " unanswered=" + unanswered + " failedOver=" + failedOver);
            out.flush();
            return ok;
        }

        private void printReals(String when) {
            out.printf("%nReals %s:%n", when);
            String format = "  %-8s %-20s %6s %-14s %9s %9s %10s%n";
            out.printf(format, "backend", "real", "weight", "state", "received", "answered", "unanswered");
            for (int i = 0; i < backends.size(); i++) {
                SimulatedUdpBackend backend = backends.get(i);
                RealServer real = farm.reals().get(i);
                out.printf(format, backend.name(), real.id(), real.weight(), real.state(), backend.received(),
                        real.answered(), real.unanswered());
            }
        }

        private void printClients() {
            out.printf("%nClients:%n");
            out.printf("  %-18s %s%n", "client", "stuck to");
            stuckTo.forEach((client, real) -> out.printf("  %-18s %s%n",
                    client.address().getAddress().getHostAddress(), real));
        }

        private void printCounters() {
            VirtualServer vs = node.director().virtualServers().get(DemoConfiguration.VSERVER);
            var m = vs.metrics();
            var sticky = vs.selector().sticky().stats();
            out.printf("%nCounters of virtual server %s:%n", vs.name());
            out.printf("  received %d, forwarded %d, answers relayed %d, requests expired %d,"
                            + " dropped (no real available) %d%n",
                    (long) m.receivedCount(), (long) m.forwardedCount(), (long) m.relayedCount(),
                    (long) m.expiredCount(), (long) m.droppedCount(EngineDrops.NO_REAL_AVAILABLE));
            out.printf("  sticky lookups: %d hits, %d misses; bindings made %d%n%n", sticky.hits(), sticky.misses(),
                    sticky.bound());
        }
    }
}
