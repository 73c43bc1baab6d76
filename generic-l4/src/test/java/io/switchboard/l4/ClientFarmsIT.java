package io.switchboard.l4;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClientFarm;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.OverloadConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Client-assigned load balancing (IOS SLB configuration guide, "Client-Assigned Load Balancing":
 * one set of client subnets to one server farm, another set to another, on one virtual address):
 * one UDP virtual server on 127.0.0.1, clients on distinct loopback addresses, each answered by a
 * real of the farm its subnet is assigned to; the most specific subnet wins; others go to the
 * virtual server's own farm.
 */
class ClientFarmsIT {

    private static final Duration ASK = Duration.ofSeconds(2);

    private final Map<String, SimulatedUdpBackend> backends = new LinkedHashMap<>();
    private final List<SimulatedUdpClient> clients = new ArrayList<>();
    private Vertx vertx;
    private Director director;
    private InetSocketAddress vip;

    @BeforeEach
    void start() throws Exception {
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farm(farms, "PUBLIC", "P1", "P2");
        farm(farms, "INSIDE", "I1");
        farm(farms, "LAB", "L1");
        VirtualServerConfig vs = new VirtualServerConfig("echo", new Endpoint(InetAddress.getByName("127.0.0.1"), 0),
                "udp", "PUBLIC", Optional.empty(), Duration.ofMillis(500), Duration.ofMinutes(1), 4096, true,
                ServiceOptions.NONE, OverloadConfig.NONE, List.of(
                        new ClientFarm(List.of(new Subnet(InetAddress.getByName("127.0.0.16"), 28)), "INSIDE"),
                        new ClientFarm(List.of(new Subnet(InetAddress.getByName("127.0.0.20"), 32)), "LAB")));
        SwitchboardConfig config = new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms,
                Map.of("echo", vs));
        vertx = Vertx.vertx();
        director = new Director(config, v -> new UdpService(), new SimpleMeterRegistry(), Ticker.SYSTEM);
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vip = director.localAddress("echo");
    }

    private void farm(Map<String, FarmConfig> farms, String name, String... reals) throws Exception {
        List<RealConfig> configs = new ArrayList<>();
        for (String real : reals) {
            SimulatedUdpBackend backend = new SimulatedUdpBackend(real, new InetSocketAddress("127.0.0.1", 0));
            backends.put(real, backend);
            configs.add(new RealConfig(backend.address().getAddress(), backend.address().getPort(), 1,
                    OptionalInt.empty(), true));
        }
        farms.put(name, new FarmConfig(name, PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT, configs,
                Optional.empty()));
    }

    @AfterEach
    void stop() throws Exception {
        clients.forEach(SimulatedUdpClient::close);
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        backends.values().forEach(SimulatedUdpBackend::close);
    }

    @Test
    void eachClientSubnetIsServedByItsOwnFarm() throws Exception {
        // 127.0.0.16/28 is INSIDE's, except 127.0.0.20/32, LAB's (the longer prefix).
        assertThat(answeredBy("127.0.0.17")).containsExactly("I1");
        assertThat(answeredBy("127.0.0.30")).containsExactly("I1");
        assertThat(answeredBy("127.0.0.20")).containsExactly("L1");
        // Outside every assigned subnet: the virtual server's own farm, both of its reals in turn.
        Set<String> outside = new HashSet<>();
        outside.addAll(answeredBy("127.0.0.40"));
        outside.addAll(answeredBy("127.0.0.41"));
        assertThat(outside).containsExactlyInAnyOrder("P1", "P2");
        assertThat(backends.get("I1").received()).isEqualTo(8);
        assertThat(backends.get("L1").received()).isEqualTo(4);
    }

    /** The reals that answered four requests from a client on {@code address}. */
    private Set<String> answeredBy(String address) throws Exception {
        SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress(address, 0), vip);
        clients.add(client);
        Set<String> reals = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            String answer = client.ask("req-" + address + "-" + i, ASK);
            assertThat(answer).endsWith("|req-" + address + "-" + i);
            reals.add(answer.substring(0, answer.indexOf('|')));
        }
        return reals;
    }
}
