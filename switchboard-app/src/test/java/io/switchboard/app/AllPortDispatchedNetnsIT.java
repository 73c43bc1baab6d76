package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An all-port virtual server in dispatched mode (IOS {@code virtual 10.1.0.1 tcp 0} and {@code udp 0}:
 * every port, the reals reached by their MAC addresses), in the namespaces of {@code
 * netns/topology.sh}: the packaged director captures on its client interface and sends each TCP and
 * UDP packet to 10.1.0.1, whatever its port, to one of the two "firewall" namespaces, which count what
 * they receive (nftables). Each client address stays on one real for all its ports; UDP to the GTP
 * ports is left to the host, where a gtp virtual server listens on the same address (IOS: an all-port
 * virtual server takes every port but GTP's). Skipped unless root with ip netns, nft, ping and python3.
 */
class AllPortDispatchedNetnsIT {

    private static final int ADMIN_PORT = 8080;
    private static final List<String> CLIENTS = List.of("10.1.0.2", "10.1.0.3", "10.1.0.4", "10.1.0.5",
            "10.1.0.6", "10.1.0.7", "10.1.0.8", "10.1.0.9");
    /** UDP ports 9000..9004 and one TCP SYN to 8000+n from each client address. */
    private static final int UDP_PORTS = 5;
    /** From each source address (argv[1]): datagrams to ports 9000.., a SYN to port argv[2] (no answer awaited). */
    private static final String CLIENT = """
            import socket, sys
            src = sys.argv[1]
            u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            u.bind((src, 0))
            for port in range(9000, 9000 + %d):
                u.sendto(b"all-port", ("10.1.0.1", port))
            t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            t.bind((src, 0))
            t.setblocking(False)
            t.connect_ex(("10.1.0.1", int(sys.argv[2])))
            """.formatted(UDP_PORTS);
    private static final String GTP = """
            import socket
            u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            u.bind(("10.1.0.2", 0))
            for port in (2123, 2152):
                u.sendto(b"\\x32\\x01\\x00\\x04\\x00\\x00\\x00\\x00", ("10.1.0.1", port))
            """;

    @TempDir
    static Path dir;

    private static NetnsTopology net;
    private static Process director;

    @BeforeAll
    static void network() throws Exception {
        net = NetnsTopology.up("curl");
        Path config = Files.writeString(dir.resolve("switchboard.yaml"), """
                admin: { listen: 127.0.0.1:%d }
                farms:
                  firewalls:
                    failure: { numconns: 1000 }
                    reals:
                      - { address: 10.2.1.2, port: 1, weight: 1 }
                      - { address: 10.2.2.2, port: 1, weight: 1 }
                  ggsn:
                    reals:
                      - { address: 10.4.0.2, port: 2123 }
                virtual-servers:
                  gtp:
                    listen: 10.1.0.1:2123
                    service: gtp
                    farm: ggsn
                vpn-farms:
                  all-ports:
                    farm: firewalls
                    interface: cl
                    address: 10.1.0.1
                    protocols: [tcp, udp]
                    sticky: 10m
                    reals:
                      - { address: 10.2.1.2, interface: f1o, mac: "02:00:00:00:03:01" }
                      - { address: 10.2.2.2, interface: f2o, mac: "02:00:00:00:04:01" }
                """.formatted(ADMIN_PORT));
        director = net.director(dir.resolve("director.log"), "run", "-c", config.toString());
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250)).until(() ->
                Files.readString(dir.resolve("director.log")).contains("dispatched mode: 0 firewall farm(s), 1 VPN farm(s)")
                        && frames("forwarded") >= 0);
    }

    @AfterAll
    static void tearDown() throws Exception {
        try {
            if (director != null) {
                NetnsTopology.stop(director, dir.resolve("director.log"));
            }
        } finally {
            if (net != null) {
                net.close();
            }
        }
    }

    private static double frames(String outcome) throws Exception {
        return net.metric(ADMIN_PORT, "switchboard_dispatched_frames_total{farm=\"all-ports\",kind=\"vpn\",outcome=\""
                + outcome + "\"}");
    }

    private static void send(String script, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("ip", "netns", "exec", net.ns("c"), "python3", "-c",
                script));
        command.addAll(List.of(args));
        NetnsTopology.Result r = NetnsTopology.run(command);
        assertThat(r.exit()).as(r.output()).isZero();
    }

    @Test
    void everyPortOfAClientGoesToOneRealAndTheGtpPortsStayWithTheHost() throws Exception {
        Map<String, Map<String, Long>> before = net.snapshot();
        double forwardedBefore = frames("forwarded");
        for (int i = 0; i < CLIENTS.size(); i++) {
            send(CLIENT, CLIENTS.get(i), Integer.toString(8000 + i));
        }
        int expectedFrames = CLIENTS.size() * (UDP_PORTS + 1);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            Map<String, Map<String, Long>> d = net.delta(before);
            assertThat(d.get("f1").get("all-udp") + d.get("f2").get("all-udp")).isEqualTo(CLIENTS.size() * UDP_PORTS);
            assertThat(d.get("f1").get("all-tcp") + d.get("f2").get("all-tcp")).isGreaterThanOrEqualTo(CLIENTS.size());
        });
        Map<String, Map<String, Long>> d = net.delta(before);
        // Client-address stickiness: a client's five ports all reach one firewall, so each firewall's
        // count is a multiple of five; round robin with weights 1/1 gives each half of the clients.
        for (String fw : List.of("f1", "f2")) {
            assertThat(d.get(fw).get("all-udp")).as("%s: %s", fw, d).isEqualTo(CLIENTS.size() / 2 * UDP_PORTS);
            assertThat(d.get(fw).get("all-tcp")).as("%s: %s", fw, d).isGreaterThanOrEqualTo(CLIENTS.size() / 2);
        }
        assertThat(frames("forwarded") - forwardedBefore).isGreaterThanOrEqualTo(expectedFrames);

        double gtpBefore = frames("gtp-port");
        send(GTP);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(frames("gtp-port") - gtpBefore).isEqualTo(2));
        Map<String, Map<String, Long>> after = net.delta(before);
        assertThat(after.get("f1").get("gtp") + after.get("f2").get("gtp")).as("GTP reached a real").isZero();
    }
}
