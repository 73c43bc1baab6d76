package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's failure scenarios, measured (run by {@code benchmarks/bgp/run.sh}, not by the suite:
 * its name matches no test pattern). Each scenario builds the network of {@link BgpEcmpNetnsIT}
 * afresh, puts RADIUS accounting load through the virtual address, makes one node fail, and records
 * the time from the event until the router's route no longer names that node, and the requests that
 * needed a retransmission or were never answered. Then the replication lag as traffic sees it: a
 * subscriber authenticated through one node, the same subscriber DELAY later through another.
 * Writes a Markdown table to {@code bgp.report} (default {@code target/bgp-benchmark.md}).
 */
class BgpFailoverBenchmark {

    private static final int SUBSCRIBERS = 24;
    private static final String SGW = "10.10.0.2";

    @TempDir
    Path dir;

    private final List<String> rows = new ArrayList<>();
    private final List<String> lagRows = new ArrayList<>();
    private final List<String> vrrpRows = new ArrayList<>();

    @Test
    void scenarios() throws Exception {
        for (String scenario : System.getProperty("bgp.scenarios", "sigkill,reals,graceful,link").split(",")) {
            Path work = Files.createDirectories(dir.resolve(scenario));
            try (BgpTestNetwork net = BgpEcmpNetnsIT.network(work)) {
                if (scenario.equals("vrrp")) {
                    vrrpRows.add(vrrp(net, work));
                    continue;
                }
                rows.add(scenario(net, work, scenario));
                if (scenario.equals("sigkill")) {
                    lagRows.addAll(lag(net, work));
                }
            }
        }
        String table = "| Scenario | Event to withdrawal at the router | Path count after | RADIUS requests sent"
                + " | answered only after a retransmission | never answered |\n|---|---|---|---|---|---|\n"
                + String.join("\n", rows) + "\n" + String.join("\n", lagRows) + "\n"
                + (vrrpRows.isEmpty() ? "" : "\n| VRRP (keepalived, docs/deploying-a-cluster.md) | SIGKILL of the master's director"
                        + " to the address on the standby |\n|---|---|\n" + String.join("\n", vrrpRows) + "\n");
        String header = "<!-- " + Instant.now() + ", " + Runtime.getRuntime().availableProcessors()
                + " cores, load average " + Files.readString(Path.of("/proc/loadavg")).strip() + ", BFD "
                + BgpTestNetwork.BFD_MILLIS + " ms x " + BgpTestNetwork.BFD_MULTIPLIER + " -->\n";
        Path report = Path.of(System.getProperty("bgp.report", "target/bgp-benchmark.md"));
        Files.writeString(report, header + table);
        System.out.println(header + table);
    }

    private String scenario(BgpTestNetwork net, Path work, String scenario) throws Exception {
        BgpEcmpNetnsIT.nas(net, work, "auth", SUBSCRIBERS).waitFor(30, TimeUnit.SECONDS);
        int victim = net.nodeOf(SGW);
        Process load = BgpEcmpNetnsIT.nas(net, work, "load", SUBSCRIBERS, 8, 5);
        await().atMost(Duration.ofSeconds(20)).until(() -> net.accountedAt(0).size() + net.accountedAt(1).size()
                >= SUBSCRIBERS);
        String gone = BgpTestNetwork.routerSide(victim);
        long start = System.nanoTime();
        switch (scenario) {
            case "sigkill":
                net.director(victim).destroyForcibly();
                break;
            case "graceful":
                net.director(victim).destroy();
                break;
            case "reals":
                // The node's process is alive, its reals are not reachable from it (its cluster peers are).
                for (String real : BgpTestNetwork.REALS) {
                    net.in("d" + victim, "ip", "route", "add", "blackhole", real + "/32");
                }
                break;
            case "link":
                net.in("d" + victim, "ip", "link", "set", "rt0", "down");
                break;
            default:
                throw new IllegalArgumentException("scenario " + scenario);
        }
        String withdrawn;
        try {
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
                    .until(() -> !net.nexthops().contains(gone));
            withdrawn = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms";
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            withdrawn = "not within 15 s";
        }
        int paths = net.nexthops().size();
        assertThat(load.waitFor(60, TimeUnit.SECONDS)).isTrue();
        JsonObject c = new JsonObject(new String(load.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        return "| " + scenario + " (node " + victim + ") | " + withdrawn + " | " + paths + " | " + c.getInteger("sent")
                + " | " + c.getInteger("answered_after_retransmission") + " | " + c.getInteger("lost") + " |";
    }

    /** Rows for the replication lag: the second request of a subscriber through another node, DELAY after the first. */
    private List<String> lag(BgpTestNetwork net, Path work) throws Exception {
        // Two client addresses of the surviving nodes that the router hashes to different nodes.
        String a = null;
        String b = null;
        for (int i = 50; i < 90 && b == null; i++) {
            String address = "10.10.0." + i;
            net.in("c", "ip", "addr", "add", address + "/24", "dev", "c0");
            if (a == null) {
                a = address;
            } else if (net.nodeOf(address) != net.nodeOf(a)) {
                b = address;
            }
        }
        assertThat(b).isNotNull();
        List<String> out = new ArrayList<>();
        out.add("\n| Second request, through another node, after | Subscribers | Same AAA server as the first"
                + " (2 servers: 50 % by chance) |\n|---|---|---|");
        int tag = 1;
        for (int delay : new int[] {0, 1, 5, 20, 100}) {
            Process p = BgpEcmpNetnsIT.nasRaw(net, work, "rehash", a, b, 100, delay, tag++);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            JsonObject r = new JsonObject(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            out.add("| " + delay + " ms | " + r.getInteger("answered") + " | " + r.getInteger("same_server") + " |");
        }
        return out;
    }

    /**
     * The documented keepalived configuration on nodes 1 and 2 (their reals' LAN interface, address
     * 10.30.0.100), each asking its own director's /health: node 1's director is SIGKILLed, and the
     * time until node 2 holds the address is measured.
     */
    private String vrrp(BgpTestNetwork net, Path work) throws Exception {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("```keepalived\n(.*?)```", java.util.regex.Pattern.DOTALL)
                .matcher(Files.readString(Path.of("..", "docs", "deploying-a-cluster.md")));
        assertThat(m.find()).isTrue();
        String conf = m.group(1).replace("eth0", "be").replace("10.99.0.1/32", "10.30.0.100/32");
        List<Process> keepalived = new ArrayList<>();
        try {
            for (int i = 1; i <= 2; i++) {
                Path file = Files.writeString(work.resolve("keepalived-d" + i + ".conf"), conf);
                keepalived.add(new ProcessBuilder("ip", "netns", "exec", net.ns("d" + i), "keepalived", "-n", "-l", "-D",
                        "-f", file.toString(), "-p", work.resolve("k" + i + ".pid").toString(), "-r",
                        work.resolve("k" + i + "-vrrp.pid").toString(), "-c", work.resolve("k" + i + "-chk.pid").toString())
                        .redirectErrorStream(true).redirectOutput(work.resolve("keepalived-d" + i + ".log").toFile()).start());
                if (i == 1) {
                    // Node 1 first, so that it is the master (equal priorities, nopreempt).
                    await().atMost(Duration.ofSeconds(20)).until(() -> holds(net, 1));
                }
            }
            await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> holds(net, 1)
                    && !holds(net, 2));
            long start = System.nanoTime();
            net.director(1).destroyForcibly();
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).until(() -> holds(net, 2));
            return "| node 1 to node 2 | " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms |";
        } finally {
            for (Process p : keepalived) {
                BgpTestNetwork.stop(p);
            }
        }
    }

    private static boolean holds(BgpTestNetwork net, int node) throws Exception {
        return net.in("d" + node, "ip", "-4", "addr", "show", "dev", "be").output().contains("10.30.0.100/32");
    }
}
