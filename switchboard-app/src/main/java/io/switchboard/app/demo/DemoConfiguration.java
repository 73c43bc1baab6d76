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
        int[] weights = {3, 1, 2};
        StringBuilder reals = new StringBuilder();
        for (int i = 0; i < backends.size(); i++) {
            reals.append("      - { address: 127.0.0.1, port: ").append(backends.get(i).address().getPort())
                    .append(", weight: ").append(weights[i % weights.length]).append(" }   # ")
                    .append(backends.get(i).name()).append(" (simulated)\n");
        }
        return """
                cluster: { enabled: false }
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
                """.formatted(adminPort, FARM, reals.toString().stripTrailing(), VSERVER, FARM);
    }
}
