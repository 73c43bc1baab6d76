package io.switchboard.app.demo;

import io.switchboard.director.sim.SimulatedUdpBackend;
import java.util.List;

/** The demo's embedded configuration, in the same YAML a user writes, with the simulators' ports. */
final class DemoConfiguration {

    static final String FARM = "simulated";
    static final String VSERVER = "demo-udp";

    private DemoConfiguration() {
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
            reals.append("      - { address: 127.0.0.1, port: ").append(backends.get(i).address().getPort())
                    .append(", weight: ").append(weights[i % weights.length]).append(" }   # ")
                    .append(backends.get(i).name()).append(" (simulated)\n");
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
