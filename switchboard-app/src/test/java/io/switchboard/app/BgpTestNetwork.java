package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * The BGP/ECMP network of {@code netns/bgp-topology.sh}, with its daemons: BIRD on the router
 * (ECMP: its kernel protocol merges the equal paths, BFD on every session), a BIRD speaker per
 * director namespace driven by that node's {@code route-health.bgp}, three director nodes (the
 * packaged jar, clustered over the reals' LAN), two FreeRADIUS servers and two scapy PGWs in the
 * reals' namespace. Every process is started here, with its configuration, socket and pid file in
 * the test's directory, and stopped by {@link #close()} by its own pid.
 */
final class BgpTestNetwork implements AutoCloseable {

    static final String VIP = "10.99.0.1";
    static final String NAS_SECRET = "nas-to-director";
    static final String AAA_SECRET = "director-to-aaa";
    static final List<String> REALS = List.of("10.30.0.2", "10.30.0.3");
    private static final Path SCRIPT = Path.of("src", "test", "resources", "netns", "bgp-topology.sh");
    static final Path NAS = Path.of("src", "test", "resources", "netns", "radius_nas.py");
    private static final Path SCAPY = Path.of("..", "gtp-director", "src", "test", "resources", "scapy");
    private static final Path FREERADIUS_INSTANCE = Path.of("..", "radius-director", "src", "test", "resources",
            "freeradius", "make-instance.sh");
    /**
     * BFD on every session: 100 ms × 10, a second to detect a silent node. The suite's machines run
     * at load averages of 10 and more on two cores, where 50 ms × 3 sessions flap (and each flap costs
     * a BGP session); benchmarks/bgp/run.sh measures the tighter timers on a quiet machine.
     */
    static final int BFD_MILLIS = Integer.getInteger("bgp.bfd.millis", 100);
    static final int BFD_MULTIPLIER = Integer.getInteger("bgp.bfd.multiplier", 10);
    private static final Pattern NEXTHOP = Pattern.compile("via (10\\.20\\.\\d\\.2)");

    private final String suffix = Integer.toString(ThreadLocalRandom.current().nextInt(0x10000, 0xfffff), 16);
    private final Path dir;
    private final List<Process> daemons = new ArrayList<>();
    private final Process[] directors = new Process[3];
    private final String cluster = "bgp-it-" + suffix;
    private boolean up;

    private BgpTestNetwork(Path dir) {
        this.dir = dir;
    }

    /** Skips the caller unless root with ip netns, bird, freeradius and scapy; then builds the network. */
    static BgpTestNetwork up(Path dir) throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "the BGP/ECMP network needs root (ip netns, veth pairs, a router)");
        for (String tool : List.of("ip", "bird", "birdc", "freeradius", "python3")) {
            Assumptions.assumeTrue(NetnsTopology.run(List.of("sh", "-c", "command -v " + tool)).exit() == 0,
                    tool + " is not installed (.ci/run installs iproute2, bird2, freeradius, python3-scapy)");
        }
        Assumptions.assumeTrue(NetnsTopology.run(List.of("/usr/bin/python3", "-c", "import scapy.contrib.gtp_v2")).exit() == 0,
                "python3-scapy is not installed (.ci/run installs it)");
        Assumptions.assumeTrue(NetnsTopology.run(List.of("ip", "netns", "list")).exit() == 0, "ip netns is not available here");
        assertThat(NetnsTopology.JAR).as("the shaded jar is built in the package phase").exists();
        BgpTestNetwork net = new BgpTestNetwork(dir);
        NetnsTopology.Result r = NetnsTopology.run(List.of("bash", SCRIPT.toString(), "up", net.suffix));
        net.up = true;
        assertThat(r.exit()).as("bgp-topology.sh: %s", r.output()).isZero();
        return net;
    }

    String ns(String name) {
        return "sb-" + suffix + "-" + name;
    }

    /** The router's BIRD: one eBGP session with BFD per director, equal paths merged into one ECMP route. */
    void startRouter() throws IOException {
        StringBuilder conf = new StringBuilder("""
                router id 10.10.0.1;
                protocol device { }
                protocol kernel { ipv4 { export all; }; merge paths on; }
                protocol bfd { interface "*" { min rx interval %1$d ms; min tx interval %1$d ms; multiplier %2$d; }; }
                template bgp director {
                    local as 65000; bfd on; connect delay time 1; connect retry time 1; error wait time 1, 2;
                    ipv4 { import all; export none; };
                }
                """.formatted(BFD_MILLIS, BFD_MULTIPLIER));
        for (int i = 1; i <= 3; i++) {
            conf.append("protocol bgp d").append(i).append(" from director { neighbor 10.20.").append(i)
                    .append(".2 as 65001; }\n");
        }
        daemons.add(bird("rt", conf.toString()));
    }

    /** Node {@code i}'s BIRD: a device protocol and the include its director writes (empty until then). */
    void startSpeaker(int i) throws IOException {
        Path include = dir.resolve("d" + i + "-switchboard.conf");
        Files.writeString(include, "");
        daemons.add(bird("d" + i, "protocol device { }\ninclude \"" + include + "\";\n"));
    }

    private Process bird(String node, String conf) throws IOException {
        Path file = Files.writeString(dir.resolve(node + "-bird.conf"), conf);
        return new ProcessBuilder("ip", "netns", "exec", ns(node), "bird", "-f", "-c", file.toString(),
                "-s", socket(node).toString(), "-P", dir.resolve(node + "-bird.pid").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve(node + "-bird.log").toFile()).start();
    }

    Path socket(String node) {
        return dir.resolve(node + "-bird.ctl");
    }

    /** The reals: a FreeRADIUS (auth and accounting) and a scapy PGW on each real address. */
    void startReals() throws Exception {
        for (int i = 0; i < REALS.size(); i++) {
            Path instance = aaa(i);
            NetnsTopology.Result made = NetnsTopology.run(List.of("bash", FREERADIUS_INSTANCE.toString(),
                    instance.toString(), "aaa" + i, REALS.get(i), "1812", "1813", AAA_SECRET, "10.30.0.0/24"));
            assertThat(made.exit()).as("make-instance.sh: %s", made.output()).isZero();
            daemons.add(new ProcessBuilder("ip", "netns", "exec", ns("r"), "freeradius", "-f", "-d", instance.toString(),
                    "-n", "radiusd", "-l", instance.resolve("log/radius.log").toString()).redirectErrorStream(true)
                    .redirectOutput(instance.resolve("log/stdout.log").toFile()).start());
            daemons.add(pgw(i).process);
        }
        // Ready before the first request, which would otherwise find a real that does not answer yet.
        for (int i = 0; i < REALS.size(); i++) {
            Path log = aaa(i).resolve("log/radius.log");
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(log)
                    && Files.readString(log).contains("Ready to process requests"));
        }
    }

    Path aaa(int i) {
        return dir.resolve("aaa" + i);
    }

    private final List<ScapyDriver> pgws = new ArrayList<>();

    private ScapyDriver pgw(int i) throws IOException {
        ScapyDriver d = new ScapyDriver(new ProcessBuilder("ip", "netns", "exec", ns("r"), "/usr/bin/python3",
                SCAPY.resolve("gtpv2_responder.py").toString(), "--interface", "s5s8", "--address", REALS.get(i),
                "--teid-base", i == 0 ? "0x10000000" : "0x18000000")
                .redirectError(dir.resolve("pgw" + i + ".err").toFile()).start());
        pgws.add(d);
        return d;
    }

    List<ScapyDriver> pgws() {
        return pgws;
    }

    /** An SGW in the client namespace on {@code address}, sending to the virtual address. */
    ScapyDriver sgw(String address) throws IOException {
        ScapyDriver d = new ScapyDriver(new ProcessBuilder("ip", "netns", "exec", ns("c"), "/usr/bin/python3",
                SCAPY.resolve("gtpv2_requester.py").toString(), "--interface", "s5s8", "--address", address,
                "--peer", VIP).redirectError(dir.resolve("sgw.err").toFile()).start());
        daemons.add(d.process);
        return d;
    }

    /** Starts director node {@code i} (1..3) in its namespace. */
    void startDirector(int i) throws IOException {
        String yaml = """
                cluster:
                  enabled: true
                  name: %1$s
                  bind: 10.30.0.1%2$d
                  port: 5701
                  members: [10.30.0.11:5701, 10.30.0.12:5701, 10.30.0.13:5701]
                admin: { listen: 127.0.0.1:8080 }
                route-health:
                  timeout: 5s
                  bgp:
                    daemon: bird
                    local-as: 65001
                    router-id: 10.20.%2$d.2
                    neighbours: [{ address: 10.20.%2$d.1, as: 65000 }]
                    communities: ["65001:100"]
                    bfd-interval: %8$dms
                    bfd-multiplier: %9$d
                    include-file: %3$s
                    socket: %4$s
                probes:
                  alive: { type: ping, interval: 200ms, timeout: 300ms, failures: 2 }
                farms:
                  pgws:
                    probes: [alive]
                    reals: [{ address: 10.30.0.2, port: 2123 }, { address: 10.30.0.3, port: 2123 }]
                  auth:
                    probes: [alive]
                    reals:
                      - { address: 10.30.0.2, port: 1812, secret: %5$s }
                      - { address: 10.30.0.3, port: 1812, secret: %5$s }
                  acct:
                    probes: [alive]
                    reals:
                      - { address: 10.30.0.2, port: 1813, secret: %5$s }
                      - { address: 10.30.0.3, port: 1813, secret: %5$s }
                virtual-servers:
                  gtp:
                    listen: %6$s:2123
                    service: gtp-inspect
                    farm: pgws
                    sticky: { key: imsi, idle: 1h }
                    advertise: true
                  auth:
                    listen: %6$s:1812
                    service: radius
                    farm: auth
                    clients: [{ subnet: 10.10.0.0/24, secret: %7$s }]
                    sticky: { keys: [calling-station-id], idle: 1h, group: subscribers }
                    advertise: true
                  acct:
                    listen: %6$s:1813
                    service: radius
                    farm: acct
                    clients: [{ subnet: 10.10.0.0/24, secret: %7$s }]
                    sticky: { keys: [calling-station-id], idle: 1h, group: subscribers }
                    advertise: true
                """.formatted(cluster, i, dir.resolve("d" + i + "-switchboard.conf"), socket("d" + i), AAA_SECRET, VIP,
                        NAS_SECRET, BFD_MILLIS, BFD_MULTIPLIER);
        Path config = Files.writeString(dir.resolve("d" + i + ".yaml"), yaml);
        directors[i - 1] = new ProcessBuilder("ip", "netns", "exec", ns("d" + i),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-jar", NetnsTopology.JAR.toString(), "run", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("d" + i + ".log").toFile()).start();
    }

    Process director(int i) {
        return directors[i - 1];
    }

    /** The directors the router sends the virtual address to now (their router-side addresses). */
    Set<String> nexthops() throws IOException, InterruptedException {
        NetnsTopology.Result r = NetnsTopology.run(List.of("ip", "-n", ns("rt"), "route", "show", VIP + "/32"));
        Set<String> via = new LinkedHashSet<>();
        Matcher m = NEXTHOP.matcher(r.output());
        while (m.find()) {
            via.add(m.group(1));
        }
        return via;
    }

    /** The director (1..3) the router's hash sends {@code client}'s flows to. */
    int nodeOf(String client) throws IOException, InterruptedException {
        NetnsTopology.Result r = NetnsTopology.run(List.of("ip", "-n", ns("rt"), "route", "get", VIP, "from", client,
                "iif", "c"));
        Matcher m = NEXTHOP.matcher(r.output());
        assertThat(m.find()).as(r.output()).isTrue();
        return m.group(1).charAt(6) - '0';
    }

    static String routerSide(int node) {
        return "10.20." + node + ".2";
    }

    /** Waits until all three nodes are announced and the router spreads the address over them. */
    void awaitAllAnnounced(Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(200)).until(() -> nexthops().size() == 3);
    }

    /** Runs {@code command} in namespace {@code node}. */
    NetnsTopology.Result in(String node, String... command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", ns(node)));
        full.addAll(List.of(command));
        return NetnsTopology.run(full);
    }

    /** Every Calling-Station-Id the accounting of AAA server {@code i} logged. */
    Set<String> accountedAt(int i) throws IOException {
        Set<String> ids = new LinkedHashSet<>();
        Path radacct = aaa(i).resolve("log/radacct");
        try (var files = Files.walk(radacct)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Matcher m = Pattern.compile("Calling-Station-Id = \"([^\"]+)\"").matcher(Files.readString(f));
                while (m.find()) {
                    ids.add(m.group(1));
                }
            }
        }
        return ids;
    }

    /** The logs of the directors and daemons, for whoever reads a failed run. */
    void printLogs() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".log") || p.toString().endsWith(".err")).sorted()
                    .toList()) {
                String text = Files.readString(f);
                System.out.println("---- " + f.getFileName() + "\n" + text.substring(Math.max(0, text.length() - 4000)));
            }
        }
    }

    @Override
    public void close() throws Exception {
        try {
            // All at once: one after the other, each waited for, would add seconds to the test. The
            // nodes are killed (nothing of theirs needs a graceful end here); each withdraws as it goes.
            List<Process> all = new ArrayList<>();
            for (Process p : directors) {
                if (p != null) {
                    p.destroyForcibly();
                    all.add(p);
                }
            }
            for (Process p : daemons) {
                p.destroy();
                all.add(p);
            }
            for (Process p : all) {
                stop(p);
            }
        } finally {
            if (up) {
                NetnsTopology.run(List.of("bash", SCRIPT.toString(), "down", suffix));
            }
        }
    }

    static void stop(Process p) throws InterruptedException {
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A scapy GTPv2 peer of gtp-director's test resources, driven by JSON lines on its stdin. */
    static final class ScapyDriver {

        final Process process;
        private final Writer in;
        private final BufferedReader out;

        ScapyDriver(Process process) throws IOException {
            this.process = process;
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            assertThat(ready).as("the scapy peer's first line").isNotNull().contains("\"ready\": true");
        }

        synchronized JsonObject command(JsonObject command) throws IOException {
            in.write(command.encode() + "\n");
            in.flush();
            String line = out.readLine();
            assertThat(line).as("answer to %s", command).isNotNull();
            return new JsonObject(line);
        }
    }
}
