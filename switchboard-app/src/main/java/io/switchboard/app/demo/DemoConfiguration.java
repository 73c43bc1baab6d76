package io.switchboard.app.demo;

import io.switchboard.app.Node;
import io.switchboard.app.Services;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.spi.DemoScenario;
import io.switchboard.sim.SimulatedUdpBackend;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * The demo's embedded configuration, in the same YAML a user writes, with the simulators' ports; and
 * what every single-node demo prints around its run.
 */
final class DemoConfiguration {

    static final String FARM = "simulated";
    static final String VSERVER = "demo-udp";

    private DemoConfiguration() {
    }

    /** Prints the demo's title and embedded configuration, and builds the node it configures (not started). */
    static Node node(PrintWriter out, String title, String yaml) {
        out.println("== Switchboard demo: " + title + " ==");
        out.println();
        out.println("Configuration (embedded):");
        yaml.lines().forEach(l -> out.println("  " + l));
        out.println();
        out.flush();
        Services services = Services.discover();
        SwitchboardConfig config = new ConfigLoader(services.available()).parse(yaml);
        return new Node(config, services);
    }

    /** Prints where the started node's virtual server listens and its admin API; returns the former. */
    static InetSocketAddress listening(PrintWriter out, Node node, String virtualServer) {
        InetSocketAddress vip = node.director().localAddress(virtualServer);
        out.printf("Director listening on %s:%d, admin API on http://%s:%d%n%n", vip.getAddress().getHostAddress(),
                vip.getPort(), node.adminAddress().getAddress().getHostAddress(), node.adminAddress().getPort());
        return vip;
    }

    /** What to try against a demo left running; {@code metricsPrefix}: the service's own meters, if any. */
    static void stillRunning(PrintWriter out, Node node, Optional<String> metricsPrefix) {
        int port = node.adminAddress().getPort();
        out.printf("%nStill running (Ctrl-C to stop). Try:%n  curl http://127.0.0.1:%d/api/v1/farms%n"
                + "  curl http://127.0.0.1:%d/metrics%s%n  ./switchboard show reals --admin http://127.0.0.1:%d%n",
                port, port, metricsPrefix.map(p -> " | grep " + p).orElse(""), port);
        out.flush();
    }

    static String yaml(List<SimulatedUdpBackend> backends, int adminPort) {
        return yaml(backends, adminPort, "{ enabled: false }");
    }

    /**
     * One node of a cluster on loopback: farms and virtual servers as for a single node (the virtual
     * server on an ephemeral port, so that every node has the same configuration digest), the cluster
     * member on {@code port}, joining {@code members}.
     */
    static String clusterYaml(List<SimulatedUdpBackend> backends, int adminPort, String name, int port,
            List<Integer> members) {
        String list = String.join(", ", members.stream().map(p -> "127.0.0.1:" + p).toList());
        return yaml(backends, adminPort, "{ enabled: true, name: %s, bind: 127.0.0.1, port: %d, members: [%s] }"
                .formatted(name, port, list));
    }

    private static String yaml(List<SimulatedUdpBackend> backends, int adminPort, String cluster) {
        int[] weights = {3, 1, 2};
        StringBuilder reals = new StringBuilder();
        for (int i = 0; i < backends.size(); i++) {
            reals.append(DemoScenario.realLine(backends.get(i).address().getPort(), weights[i % weights.length],
                    backends.get(i).name()));
        }
        return """
                cluster: %s
                admin: { listen: 127.0.0.1:%d }
                farms:
                  %s:
                    predictor: roundrobin
                    failure: { numconns: 3, numclients: 1, retry: 30s }
                    reals:
                %s
                virtual-servers:
                  %s:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: %s
                    sticky: { key: client-address, idle: 10m }
                    response-timeout: 1s
                """.formatted(cluster, adminPort, FARM, reals.toString().stripTrailing(), VSERVER, FARM);
    }
}
