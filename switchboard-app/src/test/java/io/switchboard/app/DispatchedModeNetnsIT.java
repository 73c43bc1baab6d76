package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Firewall farm and VPN flows in dispatched mode, in network namespaces this test creates (see
 * {@code netns/topology.sh}): a client, the director, two firewalls (plain Linux forwarding, with
 * nftables counters) and a server. The director is the packaged jar, run in its namespace with
 * {@code ip netns exec}; it captures on its client and server interfaces with pcap4j and sends each
 * frame to the chosen firewall's MAC address. Traffic is ping (client to server and back) and, for
 * VPN, IKE datagrams, a PPTP control connection and raw ESP/GRE packets sent by python3 from the
 * client. For the Framed-IP table, the same director is a RADIUS accounting director (a {@code radius}
 * virtual server on its inside address) in front of a real FreeRADIUS 3.2 in each firewall namespace
 * (the firewalls are the subscribers' gateways, as in an IOS CSG/SSG sandwich); {@code radclient} in
 * the server namespace is the NAS.
 *
 * <p>One scenario with one director (starting the JVM is the slow part): each step builds on the
 * flows the previous ones left. Skipped, with the reason, when not root or when {@code ip netns},
 * {@code nft}, {@code ping}, {@code python3}, {@code freeradius} or {@code radclient} are missing.
 */
class DispatchedModeNetnsIT {

    private static final int ADMIN_PORT = 8080; // inside the director's own namespace
    /** The RADIUS test servers' configuration builder, shared with radius-director's FreeRadiusIT. */
    private static final Path FREERADIUS_INSTANCE = Path.of("..", "radius-director", "src", "test", "resources",
            "freeradius", "make-instance.sh");
    private static final String NAS_SECRET = "nas-to-director";
    private static final String GATEWAY_SECRET = "director-to-gateway";
    /** A subscriber's framed IP, on the server (inside) side; see topology.sh. */
    private static final String FRAMED_IP = "10.4.0.10";
    /** The firewalls' outside addresses, where their FreeRADIUS servers listen. */
    private static final Map<String, String> GATEWAY_ADDRESS = Map.of("f1", "10.2.1.2", "f2", "10.2.2.2");

    @TempDir
    static Path dir;

    private static NetnsTopology net;
    private static Process director;
    /** The gateways' FreeRADIUS servers (one in each firewall namespace), by firewall. */
    private static final Map<String, Process> gatewayServers = new HashMap<>();
    /** Which firewall (f1 or f2) each client address's flow went through in the first step. */
    private final Map<String, String> firewallOf = new HashMap<>();

    @BeforeAll
    static void network() throws Exception {
        net = NetnsTopology.up("freeradius", "radclient");

        Path config = Files.writeString(dir.resolve("switchboard.yaml"), """
                admin: { listen: 127.0.0.1:%d }
                probes:
                  alive: { type: ping, interval: 200ms, timeout: 300ms, failures: 2 }
                farms:
                  firewalls:
                    predictor: hash
                    probes: [alive]
                    reals:
                      - { address: 10.2.1.2, port: 1, maxconns: 2 }
                      - { address: 10.2.2.2, port: 1, maxconns: 2 }
                  vpn:
                    failure: { numconns: 100 }
                    reals:
                      - { address: 10.2.1.2, port: 500, weight: 1 }
                      - { address: 10.2.2.2, port: 500, weight: 1 }
                  pptp:
                    reals:
                      - { address: 10.2.1.2, port: 1723, weight: 1 }
                      - { address: 10.2.2.2, port: 1723, weight: 1 }
                  vpn-natt:
                    failure: { numconns: 100 }
                    reals:
                      - { address: 10.2.1.2, port: 4500, weight: 1 }
                      - { address: 10.2.2.2, port: 4500, weight: 1 }
                  gateways:
                    reals:
                      - { address: 10.2.1.2, port: 1813, weight: 1, secret: %2$s }
                      - { address: 10.2.2.2, port: 1813, weight: 1, secret: %2$s }
                virtual-servers:
                  radius-acct:
                    listen: 10.4.0.1:1813
                    service: radius
                    farm: gateways
                    clients: [ { subnet: 10.4.0.0/24, secret: %3$s } ]
                    sticky: { keys: [calling-station-id], idle: 1h, group: subscribers }
                  ike:
                    listen: 10.1.0.1:500
                    service: udp
                    farm: vpn
                    sticky: { key: client-address, idle: 10m, group: vpn }
                  pptp:
                    listen: 10.1.0.1:1723
                    service: tcp
                    farm: pptp
                    sticky: { key: client-address, idle: 10m, group: vpn }
                  ike-natt:
                    listen: 10.1.0.1:4500
                    service: udp
                    farm: vpn-natt
                    sticky: { key: client-address, idle: 10m, group: vpn }
                firewall-farms:
                  edge:
                    farm: firewalls
                    outside: cl
                    inside: sv
                    sticky: 2s
                    framed-ip-group: subscribers
                    firewalls:
                      - address: 10.2.1.2
                        outside: { interface: f1o, mac: "02:00:00:00:03:01" }
                        inside: { interface: f1i, mac: "02:00:00:00:03:02" }
                      - address: 10.2.2.2
                        outside: { interface: f2o, mac: "02:00:00:00:04:01" }
                        inside: { interface: f2i, mac: "02:00:00:00:04:02" }
                vpn-farms:
                  ipsec:
                    farm: vpn
                    interface: cl
                    address: 10.1.0.1
                    protocols: [esp, gre]
                    sticky-group: vpn
                    reals:
                      - { address: 10.2.1.2, interface: f1o, mac: "02:00:00:00:03:01" }
                      - { address: 10.2.2.2, interface: f2o, mac: "02:00:00:00:04:01" }
                """.formatted(ADMIN_PORT, GATEWAY_SECRET, NAS_SECRET));
        director = net.director(dir.resolve("director.log"), "run", "-c", config.toString());
        // The gateways' AAA servers start while the director's JVM does (they are ready long before it).
        for (String fw : List.of("f1", "f2")) {
            Path instance = gatewayInstance(fw);
            Result made = run(List.of("bash", FREERADIUS_INSTANCE.toString(), instance.toString(), fw,
                    GATEWAY_ADDRESS.get(fw), "1812", "1813", GATEWAY_SECRET, "10.0.0.0/8"));
            assertThat(made.exit).as("make-instance.sh: %s", made.output).isZero();
            gatewayServers.put(fw, new ProcessBuilder("ip", "netns", "exec", ns(fw), "freeradius", "-f", "-d",
                    instance.toString(), "-n", "radiusd", "-l", instance.resolve("log/radius.log").toString())
                    .redirectErrorStream(true).redirectOutput(instance.resolve("log/stdout.log").toFile()).start());
        }
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> metric("switchboard_dispatched_frames_total{farm=\"edge\",kind=\"firewall\",outcome=\"forwarded\"}") >= 0
                        && metric("switchboard_probe_checks_total") >= 2);
    }

    @AfterAll
    static void tearDown() throws Exception {
        try {
            for (Process server : gatewayServers.values()) {
                server.destroy();
                if (!server.waitFor(5, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
            if (director != null) {
                NetnsTopology.stop(director, dir.resolve("director.log"));
            }
        } finally {
            if (net != null) {
                net.close();
            }
        }
    }

    /** The configuration directory of the FreeRADIUS on firewall {@code fw}. */
    private static Path gatewayInstance(String fw) {
        return dir.resolve("aaa-" + fw);
    }

    private static String ns(String name) {
        return net.ns(name);
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        NetnsTopology.Result r = NetnsTopology.run(command);
        return new Result(r.exit(), r.output());
    }

    /** Pings the server from one client address; how many echo replies came back. */
    private static int ping(String from, int count) throws Exception {
        return ping("c", from, "10.4.0.2", count);
    }

    private static int ping(String namespace, String from, String to, int count) throws Exception {
        return net.ping(namespace, from, to, count);
    }

    /**
     * Sends IKE datagrams (UDP 500 to 500, or NAT-T 4500 to 4500) or raw ESP/GRE packets from a client
     * address to the VIP.
     */
    private static void vpn(String from, String kind, int count) throws Exception {
        String script = """
                import socket, sys
                src, kind, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
                if kind in ("ike", "natt"):
                    port = 500 if kind == "ike" else 4500
                    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind((src, port))
                    for i in range(count): s.sendto(b"IKE_SA_INIT", ("10.1.0.1", port))
                else:
                    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, 50 if kind == "esp" else 47); s.bind((src, 0))
                    for i in range(count): s.sendto(b"\\x00\\x00\\x10\\x01" + i.to_bytes(4, "big") + b"payload", ("10.1.0.1", 0))
                """;
        Result r = run(List.of("ip", "netns", "exec", ns("c"), "python3", "-c", script, from, kind,
                Integer.toString(count)));
        assertThat(r.exit).as(r.output).isZero();
    }

    private static Map<String, Map<String, Long>> snapshot() throws Exception {
        return net.snapshot();
    }

    private static Map<String, Map<String, Long>> delta(Map<String, Map<String, Long>> before) throws Exception {
        return net.delta(before);
    }

    private static double metric(String series) throws Exception {
        return net.metric(ADMIN_PORT, series);
    }

    /** The admin API's answer for a framed IP's bindings: the HTTP status, then the body. */
    private static Result framedIpBinding(String ip) throws Exception {
        Result r = run(List.of("ip", "netns", "exec", ns("d"), "curl", "-s", "--max-time", "2", "-w", "\n%{http_code}",
                "http://127.0.0.1:" + ADMIN_PORT + "/api/v1/sticky/framed-ip/" + ip));
        int cut = r.output.lastIndexOf('\n');
        return new Result(Integer.parseInt(r.output.substring(cut + 1).trim()), r.output.substring(0, cut));
    }

    /**
     * radclient in the server namespace (the NAS, on the subscribers' side) sends one
     * Accounting-Request to the director's radius virtual server and verifies the answer's
     * authenticator (exit status 0 only for a valid Accounting-Response).
     */
    private static void accounting(String status, String session, String callingStationId) throws Exception {
        String attributes = """
                Acct-Status-Type = %s
                Acct-Session-Id = "%s"
                User-Name = "subscriber"
                Calling-Station-Id = "%s"
                Framed-IP-Address = %s
                NAS-IP-Address = 10.4.0.2
                """.formatted(status, session, callingStationId, FRAMED_IP);
        Path file = Files.writeString(dir.resolve("acct-" + session + "-" + status + ".txt"), attributes);
        Result r = run(List.of("ip", "netns", "exec", ns("s"), "radclient", "-r", "3", "-t", "2", "-f",
                file.toString(), "10.4.0.1:1813", "acct", NAS_SECRET));
        assertThat(r.exit).as("radclient %s %s: %s", status, session, r.output).isZero();
    }

    /** Which gateway's FreeRADIUS logged (in its accounting detail files) a request of {@code session}, and how often. */
    private static Map<String, Integer> accountedBy(Map<String, Path> gateways, String session) throws IOException {
        Map<String, Integer> seen = new HashMap<>();
        for (var gateway : gateways.entrySet()) {
            int n = 0;
            try (var files = Files.walk(gateway.getValue().resolve("log").resolve("radacct"))) {
                for (Path detail : files.filter(Files::isRegularFile).toList()) {
                    n += Pattern.compile("Acct-Session-Id = \"" + session + "\"").matcher(Files.readString(detail))
                            .results().count();
                }
            }
            seen.put(gateway.getKey(), n);
        }
        return seen;
    }

    private static double frames(String farm, String outcome) throws Exception {
        return metric("switchboard_dispatched_frames_total{farm=\"" + farm + "\",kind=\""
                + (farm.equals("edge") ? "firewall" : "vpn") + "\",outcome=\"" + outcome + "\"}");
    }

    @Test
    void firewallFarmAndVpnFlowsInDispatchedMode() throws Exception {
        eachFlowCrossesOneFirewallBothWays();
        newFlowsAreDroppedWhileEveryFirewallIsAtMaxconns();
        espAndGreOfAClientFollowItsIkeBinding();
        malformedFramesAreCountedAndTheCaptureGoesOn();
        aFramedIpsFlowsCrossTheGatewayThatAnsweredItsAccounting();
        aFailedFirewallsFlowsMoveToTheOther();
    }

    private void eachFlowCrossesOneFirewallBothWays() throws Exception {
        for (String client : List.of("10.1.0.2", "10.1.0.3", "10.1.0.4", "10.1.0.5")) {
            var before = snapshot();
            assertThat(ping(client, 3)).as("replies to %s", client).isEqualTo(3);
            var d = delta(before);
            String used = d.get("f1").get("out-in") > 0 ? "f1" : "f2";
            String other = used.equals("f1") ? "f2" : "f1";
            // Requests out->in and replies in->out through the same firewall; nothing through the other.
            assertThat(d.get(used)).as("%s through %s", client, used).containsEntry("out-in", 3L).containsEntry("in-out", 3L);
            assertThat(d.get(other)).as("%s not through %s", client, other).containsEntry("out-in", 0L).containsEntry("in-out", 0L);
            firewallOf.put(client, used);
        }
        // maxconns 2 on each firewall: four flows fill both.
        assertThat(firewallOf.values()).containsOnly("f1", "f2");
        assertThat(firewallOf.values().stream().filter("f1"::equals).count()).isEqualTo(2);
        assertThat(metric("switchboard_dispatched_flows{farm=\"edge\"}")).isEqualTo(4);
    }

    private void newFlowsAreDroppedWhileEveryFirewallIsAtMaxconns() throws Exception {
        double refused = frames("edge", "no-real-available");
        // The four flows of step 1 live for the sticky time (2 s) after their last packet: keep them
        // alive, then a fifth client finds both firewalls full.
        for (String client : firewallOf.keySet()) {
            assertThat(ping(client, 1)).isEqualTo(1);
        }
        var before = snapshot();
        assertThat(ping("10.1.0.6", 2)).isZero();
        assertThat(frames("edge", "no-real-available")).isGreaterThanOrEqualTo(refused + 2);
        var d = delta(before);
        assertThat(d.get("f1").get("out-in") + d.get("f2").get("out-in")).isZero();

        // Once the flows have been idle for the sticky time they end, and the new client gets through.
        await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(200))
                .until(() -> metric("switchboard_dispatched_flows{farm=\"edge\"}") == 0);
        assertThat(ping("10.1.0.6", 2)).isEqualTo(2);
    }

    private void espAndGreOfAClientFollowItsIkeBinding() throws Exception {
        // Round robin on the IKE virtual server puts the two clients on different reals.
        Map<String, String> ikeOn = new HashMap<>();
        for (String client : List.of("10.1.0.8", "10.1.0.9")) {
            var before = snapshot();
            vpn(client, "ike", 1);
            await().atMost(Duration.ofSeconds(3)).until(() -> {
                var d = delta(before);
                return d.get("f1").get("ike") + d.get("f2").get("ike") == 1;
            });
            var d = delta(before);
            ikeOn.put(client, d.get("f1").get("ike") == 1 ? "f1" : "f2");
        }
        assertThat(ikeOn.values()).containsExactlyInAnyOrder("f1", "f2");
        // NAT-T (ESP-in-UDP on 4500) from the second client: its own virtual server and farm, but the
        // same group, so the same host. Round robin on that fresh farm would have chosen the first.
        var natt = snapshot();
        vpn("10.1.0.9", "natt", 2);
        await().atMost(Duration.ofSeconds(3)).until(() -> delta(natt).get(ikeOn.get("10.1.0.9")).get("natt") == 2);
        assertThat(delta(natt).get(ikeOn.get("10.1.0.8"))).containsEntry("natt", 0L);

        for (String client : List.of("10.1.0.8", "10.1.0.9")) {
            var before = snapshot();
            vpn(client, "esp", 5);
            vpn(client, "gre", 2);
            String ike = ikeOn.get(client);
            String other = ike.equals("f1") ? "f2" : "f1";
            await().atMost(Duration.ofSeconds(3)).until(() -> delta(before).get(ike).get("esp") == 5);
            var d = delta(before);
            assertThat(d.get(ike)).as("%s's tunnel packets on its IKE real %s", client, ike)
                    .containsEntry("esp", 5L).containsEntry("gre", 2L);
            assertThat(d.get(other)).containsEntry("esp", 0L).containsEntry("gre", 0L);
        }
        assertThat(frames("ipsec", "forwarded")).isEqualTo(14);

        // PPTP: the control connection (TCP 1723, directed mode, the group's tcp virtual server)
        // binds the client; its GRE follows. Each firewall namespace runs a listener on 1723.
        List<Process> listeners = new ArrayList<>();
        try {
            for (String fw : List.of("f1", "f2")) {
                listeners.add(new ProcessBuilder("ip", "netns", "exec", ns(fw), "python3", "-c", """
                        import socket
                        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                        s.bind(("0.0.0.0", 1723)); s.listen(8)
                        print("listening", flush=True)
                        while True:
                            c, _ = s.accept(); c.recv(64); c.close()
                        """).redirectErrorStream(true).start());
            }
            // Both listen before the client connects: a refused attempt would be reassigned and
            // count a SYN on both firewalls.
            for (Process listener : listeners) {
                String line = new java.io.BufferedReader(new java.io.InputStreamReader(listener.getInputStream(),
                        StandardCharsets.UTF_8)).readLine();
                assertThat(line).isEqualTo("listening");
            }
            var before = snapshot();
            String connect = """
                    import socket, time
                    for attempt in range(50):
                        try:
                            s = socket.create_connection(("10.1.0.1", 1723), timeout=1, source_address=("10.1.0.7", 0))
                            s.sendall(b"start-control-connection"); s.close(); break
                        except OSError:
                            time.sleep(0.1)
                    """;
            assertThat(run(List.of("ip", "netns", "exec", ns("c"), "python3", "-c", connect)).exit).isZero();
            await().atMost(Duration.ofSeconds(3)).until(() -> {
                var d = delta(before);
                return d.get("f1").get("pptp") + d.get("f2").get("pptp") >= 1;
            });
            var syn = delta(before);
            assertThat(syn.get("f1").get("pptp") * syn.get("f2").get("pptp")).as("one firewall got the connection").isZero();
            String pptpOn = syn.get("f1").get("pptp") >= 1 ? "f1" : "f2";
            String other = pptpOn.equals("f1") ? "f2" : "f1";
            var gre = snapshot();
            vpn("10.1.0.7", "gre", 3);
            await().atMost(Duration.ofSeconds(3)).until(() -> delta(gre).get(pptpOn).get("gre") == 3);
            assertThat(delta(gre).get(other)).containsEntry("gre", 0L);
        } finally {
            for (Process listener : listeners) {
                listener.destroy();
                if (!listener.waitFor(5, TimeUnit.SECONDS)) {
                    listener.destroyForcibly();
                }
            }
        }
    }

    private void malformedFramesAreCountedAndTheCaptureGoesOn() throws Exception {
        double malformed = frames("edge", "malformed");
        // An IPv4 EtherType with a header claiming 1000 octets in a 34-octet frame, and one cut
        // inside the IPv4 header, sent raw on the client's interface to the director's MAC.
        String script = """
                import socket
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW); s.bind(("c0", 0))
                eth = bytes.fromhex("020000000201" "020000000101" "0800")
                s.send(eth + bytes.fromhex("450003e8000000004001") + bytes(10))
                s.send(eth + bytes.fromhex("4500"))
                """;
        Result r = run(List.of("ip", "netns", "exec", ns("c"), "python3", "-c", script));
        assertThat(r.exit).as(r.output).isZero();
        await().atMost(Duration.ofSeconds(3)).until(() -> frames("edge", "malformed") == malformed + 2);
        assertThat(ping("10.1.0.7", 2)).isEqualTo(2);
    }

    /**
     * The framed-IP sticky table end to end: a real FreeRADIUS on each firewall (the subscribers'
     * gateways) answers the accounting that the director balances; the Framed-IP-Address of the
     * Accounting-Start is bound to the gateway that acknowledged it, in the sticky group the firewall
     * farm reads; the subscriber's traffic then crosses that gateway both ways, until the
     * Accounting-Stop removes the binding. Two sessions of the same framed IP go to the two gateways
     * in turn (round robin on the accounting farm), so the same address pair crosses both firewalls:
     * the binding, not the flow hash, chose them.
     */
    private void aFramedIpsFlowsCrossTheGatewayThatAnsweredItsAccounting() throws Exception {
        Map<String, Path> gateways = Map.of("f1", gatewayInstance("f1"), "f2", gatewayInstance("f2"));
        for (var gateway : gateways.entrySet()) {
            Path log = gateway.getValue().resolve("log/radius.log");
            Process server = gatewayServers.get(gateway.getKey());
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
                assertThat(server.isAlive()).as("freeradius on %s: %s", gateway.getKey(), Files.exists(log)
                        ? Files.readString(log) : "no log").isTrue();
                return Files.exists(log) && Files.readString(log).contains("Ready to process requests");
            });
        }
        String selections = "switchboard_dispatched_selections_total{farm=\"edge\",kind=\"firewall\",reason=";
        List<String> answeredBy = new ArrayList<>();
        for (int session = 1; session <= 2; session++) {
            String id = "fw-session-" + session;
            accounting("Start", id, "49170000000" + session);
            Map<String, Integer> logged = accountedBy(gateways, id);
            String gateway = logged.get("f1") > 0 ? "f1" : "f2";
            String other = gateway.equals("f1") ? "f2" : "f1";
            // Once, or more if radclient had to retransmit; never by the other gateway.
            assertThat(logged.get(gateway)).as("the Start of %s logged: %s", id, logged).isPositive();
            assertThat(logged).containsEntry(other, 0);
            Result binding = framedIpBinding(FRAMED_IP);
            assertThat(binding.exit).as(binding.output).isEqualTo(200);
            assertThat(binding.output).contains("\"group\" : \"subscribers\"")
                    .contains("\"real\" : \"" + GATEWAY_ADDRESS.get(gateway) + ":1813\"");

            double byFramedIp = metric(selections + "\"framed-ip\"}");
            var before = snapshot();
            // From the subscriber (inside) to a client (outside) and back.
            assertThat(ping("s", FRAMED_IP, "10.1.0.2", 3)).isEqualTo(3);
            var d = delta(before);
            assertThat(d.get(gateway)).as("session %d: %s's traffic through %s", session, FRAMED_IP, gateway)
                    .containsEntry("in-out", 3L).containsEntry("out-in", 3L);
            assertThat(d.get(other)).as("session %d: nothing through %s", session, other)
                    .containsEntry("in-out", 0L).containsEntry("out-in", 0L);
            assertThat(metric(selections + "\"framed-ip\"}")).isEqualTo(Math.max(byFramedIp, 0) + 1);
            answeredBy.add(gateway);

            accounting("Stop", id, "49170000000" + session);
            Map<String, Integer> stopped = accountedBy(gateways, id);
            assertThat(stopped.get(gateway)).as("the Stop of %s logged by %s: %s", id, gateway, stopped)
                    .isGreaterThan(logged.get(gateway));
            assertThat(stopped).containsEntry(other, 0);
            assertThat(framedIpBinding(FRAMED_IP).exit).as("binding gone after the Stop").isEqualTo(404);
            // The open flow keeps its firewall for the sticky time; the next session's flow is new.
            await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(200))
                    .until(() -> metric("switchboard_dispatched_flows{farm=\"edge\"}") == 0);
        }
        assertThat(answeredBy).as("the two sessions' gateways").containsExactlyInAnyOrder("f1", "f2");

        // Without a binding the same flow goes by the farm's hash again.
        double byFramedIp = metric(selections + "\"framed-ip\"}");
        double byHash = metric(selections + "\"hash\"}");
        var before = snapshot();
        assertThat(ping("s", FRAMED_IP, "10.1.0.2", 2)).isEqualTo(2);
        var d = delta(before);
        assertThat(d.get("f1").get("in-out") + d.get("f2").get("in-out")).isEqualTo(2);
        assertThat(metric(selections + "\"framed-ip\"}")).isEqualTo(byFramedIp);
        assertThat(metric(selections + "\"hash\"}")).isEqualTo(byHash + 1);
    }

    private void aFailedFirewallsFlowsMoveToTheOther() throws Exception {
        String client = "10.1.0.2";
        var before = snapshot();
        assertThat(ping(client, 2)).isEqualTo(2);
        String used = delta(before).get("f1").get("out-in") == 2 ? "f1" : "f2";
        String other = used.equals("f1") ? "f2" : "f1";
        assertThat(delta(before).get(used)).containsEntry("out-in", 2L);

        // The firewall's outside leg goes down: its ping probe fails, the director fails it, and the
        // flow (kept alive by the pings that meanwhile go nowhere) moves to the other firewall.
        assertThat(run(List.of("ip", "-n", ns(used), "link", "set", "o", "down")).exit).isZero();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> ping(client, 1) == 1);
        var moved = snapshot();
        assertThat(ping(client, 3)).isEqualTo(3);
        var d = delta(moved);
        assertThat(d.get(other)).containsEntry("out-in", 3L).containsEntry("in-out", 3L);
        assertThat(d.get(used)).containsEntry("out-in", 0L).containsEntry("in-out", 0L);
        assertThat(metric("switchboard_dispatched_selections_total{farm=\"edge\",kind=\"firewall\",reason=\"reassigned\"}"))
                .isGreaterThanOrEqualTo(1);
    }
}
