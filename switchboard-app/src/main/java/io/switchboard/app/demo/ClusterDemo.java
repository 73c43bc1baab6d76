package io.switchboard.app.demo;

import io.switchboard.app.LoopbackPorts;
import io.switchboard.app.SwitchboardCommand;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * {@code switchboard demo --nodes N}: N director nodes, each a JVM process of its own, clustered on
 * loopback in front of three SIMULATED backends. Simulated clients are bound through the first node;
 * the same clients, sent to the other nodes, reach the same backends (the sticky tables are shared);
 * then the first node is killed with SIGKILL and the survivors still hold every binding and serve
 * it. Exits 1 if any of that did not happen as printed.
 */
final class ClusterDemo {

    private static final Duration ASK = Duration.ofSeconds(2);
    private static final Duration STARTUP = Duration.ofSeconds(120);
    private static final int CLIENTS = 6;

    private final PrintWriter out;
    private final int nodeCount;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<NodeProcess> nodes = new ArrayList<>();
    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private final Map<String, String> boundThroughFirst = new LinkedHashMap<>();
    /** The node logs are kept when something went wrong, to read. */
    private boolean deleteLogs;

    ClusterDemo(PrintWriter out, int nodeCount) {
        this.out = out;
        this.nodeCount = nodeCount;
    }

    /** One node: its process, admin port and log file; the virtual server's port once it is up. */
    private record NodeProcess(String name, Process process, int adminPort, Path log, int[] vipPort) {
    }

    int play() throws Exception {
        Path dir = Files.createTempDirectory("switchboard-demo-cluster-");
        try {
            for (String name : List.of("sim-a", "sim-b", "sim-c")) {
                backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
            }
            out.printf("== Switchboard cluster demo: %d director nodes (separate JVMs) on loopback,"
                    + " three SIMULATED backends ==%n%n", nodeCount);
            startNodes(dir);
            boolean ok = bindThroughFirstNode() & honouredByTheOthers("Phase 2", 1)
                    & killFirstNodeAndServeOn();
            out.println(ok ? "Demo OK: bindings made through node-1 were honoured by every node, and after node-1"
                    + " was killed the others still held and served all of them."
                    : "Demo FAILED: see the lines marked MISMATCH or NOT above; node logs are in " + dir);
            out.flush();
            if (ok) {
                deleteLogs = true;
            }
            return ok ? 0 : 1;
        } finally {
            nodes.forEach(n -> n.process().destroy());
            for (NodeProcess n : nodes) {
                if (!n.process().waitFor(20, TimeUnit.SECONDS)) {
                    n.process().destroyForcibly();
                }
            }
            backends.forEach(SimulatedUdpBackend::close);
            if (deleteLogs) {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                }
                Files.deleteIfExists(dir);
            }
        }
    }

    private void startNodes(Path dir) throws Exception {
        String clusterName = "demo-" + UUID.randomUUID().toString().substring(0, 8);
        List<Integer> clusterPorts = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            clusterPorts.add(LoopbackPorts.freeTcpPort());
        }
        for (int i = 0; i < nodeCount; i++) {
            String name = "node-" + (i + 1);
            int adminPort = LoopbackPorts.freeTcpPort();
            Path config = dir.resolve(name + ".yaml");
            Files.writeString(config, DemoConfiguration.clusterYaml(backends, adminPort, clusterName,
                    clusterPorts.get(i), clusterPorts));
            Path log = dir.resolve(name + ".log");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
            command.addAll(ClusterMember.JVM_OPTIONS);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), SwitchboardCommand.class.getName(),
                    "run", "-c", config.toString()));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            nodes.add(new NodeProcess(name, process, adminPort, log, new int[1]));
        }
        out.printf("Started %d node processes (configurations and logs in %s); waiting for the cluster...%n",
                nodeCount, dir);
        out.flush();
        long started = System.nanoTime();
        for (NodeProcess n : nodes) {
            if (!waitFor(STARTUP, () -> n.process().isAlive() && members(n) == nodeCount)) {
                throw new IllegalStateException(n.name() + " did not join a cluster of " + nodeCount
                        + " (alive: " + n.process().isAlive() + "); see " + n.log());
            }
            n.vipPort()[0] = vipPort(n);
        }
        out.printf("%nCluster of %d formed in %.1f s:%n", nodeCount, (System.nanoTime() - started) / 1e9);
        String format = "  %-7s %7s %-22s %-18s %s%n";
        out.printf(format, "node", "pid", "virtual server", "admin API", "cluster slot");
        for (NodeProcess n : nodes) {
            JsonObject cluster = get(n, "/api/v1/cluster");
            out.printf(format, n.name(), n.process().pid(), "127.0.0.1:" + n.vipPort()[0],
                    "127.0.0.1:" + n.adminPort(), cluster.getInteger("slot"));
        }
        out.println();
    }

    /** Six clients on 127.0.3.11..16 each send one request through node-1: the predictor places them. */
    private boolean bindThroughFirstNode() throws IOException {
        NodeProcess first = nodes.get(0);
        out.printf("Phase 1: %d new clients send a request through %s (weighted round robin, weights 3/1/2).%n",
                CLIENTS, first.name());
        boolean ok = true;
        for (int c = 0; c < CLIENTS; c++) {
            String backend = ask(client(c), first);
            boundThroughFirst.put(client(c), backend);
            ok &= !backend.startsWith("(");
        }
        printBindings("Bound through " + first.name(), boundThroughFirst);
        out.printf("The other nodes get the same clients last first: on their own, their round robin would put"
                + " %s on sim-a; if they follow the shared table it stays on %s.%n%n", client(CLIENTS - 1),
                boundThroughFirst.get(client(CLIENTS - 1)));
        return ok;
    }

    /**
     * The same clients, in reverse order, through every node from {@code from} on. In reverse order
     * because a fresh round robin would then place them differently: a node that did not follow the
     * shared table would show.
     */
    private boolean honouredByTheOthers(String phase, int from) throws IOException {
        boolean ok = true;
        for (int i = from; i < nodes.size(); i++) {
            NodeProcess n = nodes.get(i);
            ok &= waitFor(Duration.ofSeconds(10), () -> stickyEntries(n) >= CLIENTS);
            out.printf("%s: %s holds %d bindings; the same clients, last first, send through it.%n", phase,
                    n.name(), stickyEntries(n));
            Map<String, String> seen = new LinkedHashMap<>();
            for (int c = CLIENTS - 1; c >= 0; c--) {
                seen.put(client(c), ask(client(c), n));
            }
            printBindings("Through " + n.name(), seen);
            ok &= seen.equals(reversed(boundThroughFirst));
        }
        return ok;
    }

    private boolean killFirstNodeAndServeOn() throws Exception {
        NodeProcess first = nodes.get(0);
        out.printf("Phase 3: %s (pid %d) is killed with SIGKILL.%n", first.name(), first.process().pid());
        first.process().destroyForcibly();
        first.process().waitFor(10, TimeUnit.SECONDS);
        boolean ok = true;
        for (int i = 1; i < nodes.size(); i++) {
            NodeProcess n = nodes.get(i);
            boolean left = waitFor(Duration.ofSeconds(30), () -> members(n) == nodeCount - 1);
            out.printf("  %s sees %d members%s%n", n.name(), members(n), left ? "" : "  NOT " + (nodeCount - 1));
            ok &= left;
        }
        out.println();
        return ok & honouredByTheOthers("After the kill", 1);
    }

    private void printBindings(String title, Map<String, String> bindings) {
        out.printf("  %-12s %s%n", "client", title);
        Map<String, String> expected = boundThroughFirst;
        bindings.forEach((client, backend) -> {
            boolean match = expected == bindings || backend.equals(expected.get(client));
            out.printf("  %-12s %s%s%n", client, backend, match ? "" : "  MISMATCH (bound to "
                    + expected.get(client) + ")");
        });
        out.println();
        out.flush();
    }

    private static Map<String, String> reversed(Map<String, String> map) {
        Map<String, String> r = new LinkedHashMap<>();
        List<String> keys = new ArrayList<>(map.keySet());
        for (int i = keys.size() - 1; i >= 0; i--) {
            r.put(keys.get(i), map.get(keys.get(i)));
        }
        return r;
    }

    private static String client(int c) {
        return "127.0.3." + (11 + c);
    }

    /** One request from {@code client} through node {@code n}: the simulated backend that answered. */
    private String ask(String client, NodeProcess n) throws IOException {
        try (SimulatedUdpClient udp = new SimulatedUdpClient(new InetSocketAddress(client, 0),
                new InetSocketAddress("127.0.0.1", n.vipPort()[0]))) {
            String answer = udp.ask(client + " via " + n.name(), ASK);
            return answer == null ? "(no answer)" : answer.substring(0, answer.indexOf('|'));
        }
    }

    private int members(NodeProcess n) {
        JsonObject cluster = get(n, "/api/v1/cluster");
        return cluster == null ? -1 : cluster.getJsonArray("members").size();
    }

    private long stickyEntries(NodeProcess n) {
        JsonObject cluster = get(n, "/api/v1/cluster");
        Long entries = cluster == null ? null
                : cluster.getJsonObject("stickyEntries").getLong(DemoConfiguration.VSERVER + "/client-address");
        return entries == null ? -1 : entries;
    }

    private int vipPort(NodeProcess n) {
        JsonArray vservers = new JsonArray(getText(n, "/api/v1/vservers"));
        String listen = vservers.getJsonObject(0).getString("listen");
        return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
    }

    /** The admin API's JSON answer, or null while the node is not up. */
    private JsonObject get(NodeProcess n, String path) {
        String body = getText(n, path);
        return body == null ? null : new JsonObject(body);
    }

    private String getText(NodeProcess n, String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + n.adminPort() + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Polls {@code condition} every 200 ms until it holds or {@code timeout} passes. */
    private static boolean waitFor(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
