package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * The dispatched-mode test network of {@code netns/topology.sh} (a client, the director, two
 * firewalls with nftables counters, a server, each in a network namespace of its own), for the tests
 * that run the packaged director in it: brought up with a random suffix so that runs do not collide,
 * torn down by {@link #close()}. Its users are skipped, with the reason, when not root or when a tool
 * is missing.
 */
final class NetnsTopology implements AutoCloseable {

    static final Path JAR = Path.of("target", "switchboard.jar");
    private static final Path SCRIPT = Path.of("src", "test", "resources", "netns", "topology.sh");
    private static final Pattern COUNTER = Pattern.compile("packets (\\d+) bytes \\d+ comment \"([a-z-]+)\"");

    record Result(int exit, String output) {
    }

    private final String suffix;

    private NetnsTopology(String suffix) {
        this.suffix = suffix;
    }

    /**
     * Skips the calling test unless this is root with {@code ip netns}, nft, ping, python3 and
     * {@code tools}; then builds the network.
     */
    static NetnsTopology up(String... tools) throws IOException, InterruptedException {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "dispatched-mode namespaces need root (ip netns, veth pairs, raw sockets)");
        List<String> needed = new ArrayList<>(List.of("ip", "nft", "ping", "python3"));
        needed.addAll(List.of(tools));
        for (String tool : needed) {
            Assumptions.assumeTrue(run(List.of("sh", "-c", "command -v " + tool)).exit() == 0,
                    tool + " is not installed (.ci/run installs iproute2, nftables, iputils-ping, freeradius, freeradius-utils)");
        }
        Assumptions.assumeTrue(run(List.of("ip", "netns", "list")).exit() == 0, "ip netns is not available here");
        assertThat(JAR).as("the shaded jar is built in the package phase").exists();
        NetnsTopology net = new NetnsTopology(Integer.toString(ThreadLocalRandom.current().nextInt(0x10000, 0xfffff), 16));
        Result up = run(List.of("bash", SCRIPT.toString(), "up", net.suffix));
        assertThat(up.exit()).as("topology: %s", up.output()).isZero();
        return net;
    }

    /** The name of namespace {@code c}, {@code d}, {@code f1}, {@code f2} or {@code s}. */
    String ns(String name) {
        return "sb-" + suffix + "-" + name;
    }

    /** Starts the packaged director in its namespace: {@code switchboard ARGS}, output to {@code log}. */
    Process director(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", ns("d"),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar", JAR.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Stops a director started by {@link #director} and prints its log, for whoever reads a failed run. */
    static void stop(Process director, Path log) throws IOException, InterruptedException {
        director.destroy();
        if (!director.waitFor(10, TimeUnit.SECONDS)) {
            director.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        System.out.println(java.nio.file.Files.readString(log));
    }

    static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        return new Result(p.exitValue(), out);
    }

    /** Pings {@code to} from address {@code from} of namespace {@code namespace}; how many replies came back. */
    int ping(String namespace, String from, String to, int count) throws IOException, InterruptedException {
        Result r = run(List.of("ip", "netns", "exec", ns(namespace), "ping", "-n", "-q", "-c", Integer.toString(count),
                "-i", "0.05", "-W", "1", "-I", from, to));
        Matcher m = Pattern.compile("(\\d+) received").matcher(r.output());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** A firewall's nftables counters: out-in, in-out (forwarded), esp, gre, ike, natt, pptp (received). */
    Map<String, Long> counters(String firewall) throws IOException, InterruptedException {
        Result r = run(List.of("ip", "netns", "exec", ns(firewall), "nft", "list", "table", "ip", "sb"));
        Map<String, Long> counters = new HashMap<>();
        Matcher m = COUNTER.matcher(r.output());
        while (m.find()) {
            counters.put(m.group(2), Long.parseLong(m.group(1)));
        }
        assertThat(counters).as(r.output()).containsKeys("out-in", "in-out", "esp", "gre", "ike", "natt", "pptp");
        return counters;
    }

    Map<String, Map<String, Long>> snapshot() throws IOException, InterruptedException {
        return Map.of("f1", counters("f1"), "f2", counters("f2"));
    }

    /** How much each counter of each firewall grew since {@code before}. */
    Map<String, Map<String, Long>> delta(Map<String, Map<String, Long>> before) throws IOException, InterruptedException {
        Map<String, Map<String, Long>> now = snapshot();
        Map<String, Map<String, Long>> delta = new HashMap<>();
        now.forEach((fw, counters) -> {
            Map<String, Long> d = new HashMap<>();
            counters.forEach((name, value) -> d.put(name, value - before.get(fw).get(name)));
            delta.put(fw, d);
        });
        return delta;
    }

    /** A value of the director's /metrics on {@code adminPort} (the sum over series starting with {@code series}); -1 if unreachable. */
    double metric(int adminPort, String series) throws IOException, InterruptedException {
        Result r = run(List.of("ip", "netns", "exec", ns("d"), "curl", "-s", "--max-time", "2",
                "http://127.0.0.1:" + adminPort + "/metrics"));
        if (r.exit() != 0) {
            return -1;
        }
        double sum = 0;
        boolean found = false;
        for (String line : r.output().split("\n")) {
            if (line.startsWith(series)) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                found = true;
            }
        }
        return found ? sum : -1;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run(List.of("bash", SCRIPT.toString(), "down", suffix));
    }
}
