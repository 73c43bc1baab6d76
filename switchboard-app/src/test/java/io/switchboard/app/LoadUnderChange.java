package io.switchboard.app;

import static org.awaitility.Awaitility.await;

import io.switchboard.cluster.ClusterMember;
import io.switchboard.pcap.PcapWriter;
import io.switchboard.pcap.Replay;
import io.switchboard.pcap.SignalingProtocol;
import io.switchboard.pcap.Template;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of director node processes under constant load, for tests that change it while it runs
 * (a rolling restart; a reload under load). Each node is a JVM of its own started from the test's
 * class path ({@code switchboard run -c FILE}), clustered over 127.0.0.1, with virtual servers on an
 * address of its own (127.0.1.N): {@code gtp-c} (gtp-inspect, IMSI stickiness) in front of two
 * SIMULATED PGWs and {@code radius} (Access- and Accounting-Requests, Calling-Station-Id
 * stickiness) in front of two SIMULATED AAA servers ({@link SimulatedSignalingBackend}).
 *
 * <p>The load is {@link Replay} in closed loop (a window, at a bounded rate) as the clients of a farm
 * behind several directors: requests spread over every node's address, and one unanswered after the
 * timeout is sent again, the same bytes, to the next node. What the clients saw is the replay's
 * report; which real served which subscriber is what the simulated backends counted; the bindings
 * are read through each node's admin API ({@code GET /api/v1/sticky/{vserver}?key=}).
 */
final class LoadUnderChange implements AutoCloseable {

    static final String SECRET = "testing123";
    static final String GTP = "gtp-c";
    static final String RADIUS = "radius";
    /** Subscribers of each protocol: K of {@code --vary imsi:K} and {@code --vary calling-station-id:K}. */
    static final int IMSIS = 200;
    static final int STATIONS = 99; // odd: with two templates alternating, each station sends both
    static final Duration SHUTDOWN_DEADLINE = Duration.ofSeconds(10);
    private static final Duration STARTUP = Duration.ofSeconds(90);

    /** One node: its own address, admin port and configuration; its current process. */
    final class NodeProcess {
        final String name;
        final String address;
        final int adminPort;
        final Path config;
        final Path log;
        Process process;

        NodeProcess(String name, String address, int adminPort, Path config, Path log) {
            this.name = name;
            this.address = address;
            this.adminPort = adminPort;
            this.config = config;
            this.log = log;
        }

        void start() throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
            command.addAll(ClusterMember.JVM_OPTIONS);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), SwitchboardCommand.class.getName(),
                    "run", "-c", config.toString(), "--shutdown-deadline", SHUTDOWN_DEADLINE.toSeconds() + "s"));
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        }

        /** The admin API's JSON answer at {@code path}, or null while the node does not answer 200. */
        JsonObject get(String path) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort
                        + path)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 200 ? new JsonObject(r.body()) : null;
            } catch (IOException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        /** Up, in a cluster of every node, and the cluster safe (every partition's backups in place). */
        boolean clusteredAndSafe() {
            JsonObject cluster = process.isAlive() && get("/health") != null ? get("/api/v1/cluster") : null;
            return cluster != null && cluster.getJsonArray("members").size() == nodes.size()
                    && cluster.getBoolean("safe", false);
        }

        /** The node's meters of {@code name} (Prometheus text lines), or none while it does not answer. */
        List<String> metrics(String name) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort
                        + "/metrics")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                return r.body().lines().filter(l -> l.startsWith(name)).toList();
            } catch (IOException e) {
                return List.of();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }

        /**
         * The node's counters that show a subscriber placed afresh or a binding gone, where not 0:
         * selections by predictor and reassignment, sticky misses, bindings made and expired.
         */
        List<String> stickyCounters() {
            return metrics("switchboard_s").stream().filter(l -> !l.endsWith(" 0.0"))
                    .filter(l -> l.contains("\"predictor\"") || l.contains("\"reassigned\"") || l.contains("\"miss\"")
                            || l.startsWith("switchboard_sticky_bound") || l.startsWith("switchboard_sticky_expired"))
                    .map(l -> l.replaceAll("service=\"[^\"]*\",", "")).toList();
        }

        InetSocketAddress vip(int port) {
            return new InetSocketAddress(address, port);
        }

        /** {@code POST /api/v1/config} with {@code yaml}: the status and the JSON answer. */
        HttpResponse<String> reload(String yaml) throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/api/v1/config"))
                    .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private final Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<SimulatedSignalingBackend> pgws = new ArrayList<>();
    private final List<SimulatedSignalingBackend> aaas = new ArrayList<>();
    private final List<NodeProcess> nodes = new ArrayList<>();
    private int gtpPort;
    private int radiusPort;
    private Load load;

    LoadUnderChange(Path dir) {
        this.dir = dir;
    }

    List<NodeProcess> nodes() {
        return nodes;
    }

    List<SimulatedSignalingBackend> backends(String vserver) {
        return vserver.equals(GTP) ? pgws : aaas;
    }

    /** Starts one more SIMULATED PGW ({@link #GTP}) or AAA server on {@code address}, counted like the others. */
    SimulatedSignalingBackend addBackend(String vserver, String address) throws IOException {
        SimulatedSignalingBackend backend = new SimulatedSignalingBackend(vserver.equals(GTP)
                ? SimulatedSignalingBackend.Kind.PGW : SimulatedSignalingBackend.Kind.AAA,
                new InetSocketAddress(address, 0), SECRET);
        backends(vserver).add(backend);
        return backend;
    }

    /** The port both virtual servers of the nodes listen on: GTP's, or RADIUS's. */
    int port(String vserver) {
        return vserver.equals(GTP) ? gtpPort : radiusPort;
    }

    /** Starts the simulated backends and {@code count} nodes, and waits until they form a safe cluster. */
    LoadUnderChange start(int count) throws Exception {
        for (int i = 0; i < 2; i++) {
            pgws.add(new SimulatedSignalingBackend(SimulatedSignalingBackend.Kind.PGW,
                    new InetSocketAddress("127.0.2." + (1 + i), 0), SECRET));
            aaas.add(new SimulatedSignalingBackend(SimulatedSignalingBackend.Kind.AAA,
                    new InetSocketAddress("127.0.2." + (3 + i), 0), SECRET));
        }
        String cluster = "load-" + UUID.randomUUID().toString().substring(0, 8);
        List<Integer> clusterPorts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            clusterPorts.add(LoopbackPorts.freeTcpPort());
        }
        // One port number on every node's address: the nodes differ by address only.
        gtpPort = freeUdpPort(count);
        radiusPort = freeUdpPort(count);
        for (int i = 0; i < count; i++) {
            String name = "node-" + (i + 1);
            String address = "127.0.1." + (1 + i);
            int adminPort = LoopbackPorts.freeTcpPort();
            Path config = Files.writeString(dir.resolve(name + ".yaml"),
                    yaml(cluster, clusterPorts.get(i), clusterPorts, adminPort, address));
            NodeProcess node = new NodeProcess(name, address, adminPort, config, dir.resolve(name + ".log"));
            nodes.add(node);
            node.start();
        }
        awaitSafe();
        return this;
    }

    /** Waits until every node is up in a cluster of all of them and the cluster is safe. */
    void awaitSafe() {
        for (NodeProcess n : nodes) {
            await().atMost(STARTUP).pollInterval(Duration.ofMillis(200))
                    .until(() -> n.process.isAlive() ? n.clusteredAndSafe() : fail(n));
        }
    }

    private static boolean fail(NodeProcess n) throws IOException {
        throw new AssertionError(n.name + " exited with " + n.process.exitValue() + ":\n" + Files.readString(n.log));
    }

    /**
     * SIGTERM to {@code node}: returns how long it took to exit (its graceful shutdown: no new work,
     * answering what is in flight, leaving the cluster); fails when it outlives its deadline by more
     * than a JVM's exit.
     */
    Duration stop(NodeProcess node) throws Exception {
        long t0 = System.nanoTime();
        node.process.destroy();
        if (!node.process.waitFor(SHUTDOWN_DEADLINE.toSeconds() + 20, TimeUnit.SECONDS)) {
            throw new AssertionError(node.name + " did not exit within its shutdown deadline; log " + node.log);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Starts {@code node} again (the same build: see the tests' javadoc) and waits until the cluster is safe. */
    Duration restart(NodeProcess node) throws Exception {
        long t0 = System.nanoTime();
        node.start();
        awaitSafe();
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Starts the load, GTP and RADIUS, through every node; it runs until {@link Load#stop}. */
    Load startLoad() throws Exception {
        load = new Load();
        return load;
    }

    /** GTPv2 Create Session Requests and RADIUS Access- and Accounting-Requests, each its own replay. */
    final class Load {
        private final Replay gtp;
        private final Replay radius;
        private final CompletableFuture<Replay.Report> gtpRun;
        private final CompletableFuture<Replay.Report> radiusRun;

        Load() throws Exception {
            // benchmarks/gtp/create-session.pcap: an MME's Create Session Request for an initial
            // attach; every subscriber creates its default bearer again and again (each create
            // replaces the subscriber's session, TS 29.274 §7.2.1).
            Replay.Requests creates = Replay.read(Path.of("..", "benchmarks", "gtp", "create-session.pcap"), 0);
            Replay.Requests aaa = Replay.read(radiusCapture(), 0);
            gtp = replay(gtpPort);
            radius = replay(radiusPort);
            Template gtpTemplate = new Template(creates, List.of(Template.Variation.parse("imsi:" + IMSIS)), null);
            Template radiusTemplate = new Template(aaa, List.of(Template.Variation.parse("calling-station-id:"
                    + STATIONS)), SECRET.getBytes(StandardCharsets.US_ASCII));
            gtpRun = run(gtp, SignalingProtocol.GTPV2, gtpTemplate);
            radiusRun = run(radius, SignalingProtocol.RADIUS, radiusTemplate);
        }

        private Replay replay(int port) {
            List<InetSocketAddress> targets = nodes.stream().map(n -> n.vip(port)).toList();
            // A closed loop of 8 in flight at most 100/s a protocol: constant load that leaves the
            // 2-core machine the CPU to restart a node. One timeout (1 s), then the next node, twice.
            return new Replay(targets, nodes.size() - 1, Replay.Pacing.fixedRate(100), Duration.ofSeconds(1), null,
                    new Replay.Lanes(2, 8));
        }

        private CompletableFuture<Replay.Report> run(Replay replay, SignalingProtocol protocol, Template template) {
            CompletableFuture<Replay.Report> run = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    run.complete(replay.run(protocol, Duration.ofHours(1), template));
                } catch (Throwable e) {
                    run.completeExceptionally(e);
                }
            }, "load-" + protocol.label());
            thread.setDaemon(true);
            thread.start();
            return run;
        }

        /** Ends the load; returns what the GTP and RADIUS clients saw, by virtual server. */
        Map<String, Replay.Report> stop() throws Exception {
            gtp.stop();
            radius.stop();
            Map<String, Replay.Report> reports = new TreeMap<>();
            reports.put(GTP, gtpRun.get(60, TimeUnit.SECONDS));
            reports.put(RADIUS, radiusRun.get(60, TimeUnit.SECONDS));
            load = null;
            return reports;
        }
    }

    /** Every subscriber key some backend of {@code vserver} served. */
    List<String> servedKeys(String vserver) {
        return backends(vserver).stream().flatMap(b -> b.requestsByKey().keySet().stream()).distinct().sorted()
                .toList();
    }

    /** The bindings of {@code keys} in {@code vserver}'s sticky table, key to real, read through {@code node}'s API. */
    Map<String, String> bindings(NodeProcess node, String vserver, List<String> keys) {
        Map<String, String> bindings = new TreeMap<>();
        for (String key : keys) {
            JsonObject b = node.get("/api/v1/sticky/" + vserver + "?key=" + key);
            if (b != null) {
                bindings.put(key, b.getString("real"));
            }
        }
        return bindings;
    }

    /**
     * Forgets what the backends counted so far: what follows is counted afresh. After the first
     * requests: two nodes that place a new subscriber at the same moment (a cold node answering after
     * the client's timeout, the retransmission on another node) both send its first request to their
     * own choice until the cluster's binding reaches them (see {@code HazelcastStickyTable}); that is
     * how a binding is made, not what a change under load must keep.
     */
    void resetCounts() {
        pgws.forEach(SimulatedSignalingBackend::resetCounts);
        aaas.forEach(SimulatedSignalingBackend::resetCounts);
    }

    /** The keys that more than one real of {@code vserver} served, with the requests each real got. */
    Map<String, Map<String, Integer>> servedByMoreThanOne(String vserver) {
        Map<String, Map<String, Integer>> byKey = new TreeMap<>();
        for (SimulatedSignalingBackend b : backends(vserver)) {
            b.requestsByKey().forEach((key, n) -> byKey.computeIfAbsent(key, k -> new TreeMap<>())
                    .put(b.real() + " first at " + b.firstSeen(key), n));
        }
        byKey.values().removeIf(reals -> reals.size() == 1);
        return byKey;
    }

    /** Requests that reached a real other than the one the subscriber's binding names. */
    int wrongReal(String vserver, Map<String, String> bindings) {
        int wrong = 0;
        for (SimulatedSignalingBackend b : backends(vserver)) {
            for (Map.Entry<String, Integer> e : b.requestsByKey().entrySet()) {
                if (!b.real().equals(bindings.get(e.getKey()))) {
                    wrong += e.getValue();
                }
            }
        }
        return wrong;
    }

    @Override
    public void close() throws Exception {
        if (load != null) {
            load.stop();
        }
        for (NodeProcess n : nodes) {
            if (n.process != null) {
                n.process.destroy();
            }
        }
        for (NodeProcess n : nodes) {
            if (n.process != null && !n.process.waitFor(SHUTDOWN_DEADLINE.toSeconds() + 20, TimeUnit.SECONDS)) {
                n.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        pgws.forEach(SimulatedSignalingBackend::close);
        aaas.forEach(SimulatedSignalingBackend::close);
    }

    private String yaml(String cluster, int clusterPort, List<Integer> clusterPorts, int adminPort, String address) {
        String members = String.join(", ", clusterPorts.stream().map(p -> "127.0.0.1:" + p).toList());
        return """
                cluster: { enabled: true, name: %s, bind: 127.0.0.1, port: %d, members: [%s] }
                admin: { listen: 127.0.0.1:%d }
                farms:
                  pgw:
                    # A loaded machine delays answers: the test is about restarts, not failure detection.
                    failure: { numconns: 1000000, numclients: 1000 }
                    reals:
                      - { address: 127.0.2.1, port: %d, weight: 1 }
                      - { address: 127.0.2.2, port: %d, weight: 1 }
                  aaa:
                    failure: { numconns: 1000000, numclients: 1000 }
                    reals:
                      - { address: 127.0.2.3, port: %d, weight: 1, secret: %s }
                      - { address: 127.0.2.4, port: %d, weight: 1, secret: %s }
                virtual-servers:
                  %s:
                    listen: %s:%d
                    service: gtp-inspect
                    farm: pgw
                    sticky: { key: imsi, idle: 1h }
                    gtp: { versions: [2] }
                  %s:
                    listen: %s:%d
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 127.0.0.0/8, secret: %s } ]
                    sticky: { keys: [calling-station-id], idle: 1h }
                """.formatted(cluster, clusterPort, members, adminPort, pgws.get(0).port(), pgws.get(1).port(),
                aaas.get(0).port(), SECRET, aaas.get(1).port(), SECRET, GTP, address, gtpPort, RADIUS, address,
                radiusPort, SECRET);
    }

    /** A UDP port free on every node's address (127.0.1.1..count). */
    private static int freeUdpPort(int count) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.1.1", 0))) {
                port = s.getLocalPort();
            }
            boolean free = true;
            for (int i = 2; i <= count && free; i++) {
                try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.1." + i, port))) {
                    free = s.getLocalPort() == port;
                } catch (java.net.BindException e) {
                    free = false;
                }
            }
            if (free) {
                return port;
            }
        }
        throw new IOException("no UDP port free on 127.0.1.1.." + count);
    }

    /** The RADIUS template: an Access-Request and an Accounting-Request (Start) of one subscriber. */
    private Path radiusCapture() throws IOException {
        Path file = dir.resolve("radius-template.pcap");
        InetAddress nas = InetAddress.getByName("198.51.100.1");
        InetAddress aaa = InetAddress.getByName("192.0.2.1");
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.udp(nas, 40000, aaa, 1812, WhatIfCommandTest.accessRequest(1, "subscriber", "4420000000100"));
            writer.udp(nas, 40000, aaa, 1812, accountingStart(2, "subscriber", "4420000000100"));
        }
        return file;
    }

    /** RFC 2866 §4.1: User-Name, Calling-Station-Id, Acct-Status-Type Start, Acct-Session-Id; signed by the template. */
    private static byte[] accountingStart(int id, String userName, String callingStationId) {
        ByteArrayOutputStream attributes = new ByteArrayOutputStream();
        text(attributes, 1, userName);
        text(attributes, 31, callingStationId);
        attributes.writeBytes(new byte[] {40, 6, 0, 0, 0, 1});
        text(attributes, 44, "session-1");
        int length = 20 + attributes.size();
        ByteArrayOutputStream packet = new ByteArrayOutputStream();
        packet.writeBytes(new byte[] {4, (byte) id, (byte) (length >> 8), (byte) length});
        packet.writeBytes(new byte[16]);
        packet.writeBytes(attributes.toByteArray());
        return packet.toByteArray();
    }

    private static void text(ByteArrayOutputStream out, int type, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.write(type);
        out.write(bytes.length + 2);
        out.writeBytes(bytes);
    }
}
