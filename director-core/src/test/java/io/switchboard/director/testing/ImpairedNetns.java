package io.switchboard.director.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bad network made in the kernel, for the tests of issue 22 point 3 (loss, duplication and
 * reordering on both sides of the director): two network namespaces, the client side (MME, NAS) and
 * the real side (PGW, AAA), each on a veth pair whose other end is in the test's own namespace, where
 * the director runs in the test's JVM. {@code netem/net.sh} (a resource of this test jar) builds it
 * with nftables and an HTB slow lane, since this kernel has no sch_netem: docs/overload.md, "Bad
 * networks". Rates are per mille of the UDP datagrams on each of the four egresses.
 */
public final class ImpairedNetns implements AutoCloseable {

    /** Per egress: datagrams dropped, duplicated, put in the slow lane, and passed on. */
    public record Counts(long lost, long duplicated, long delayed, long passed) {
    }

    /** What the probe saw arrive of 1000 numbered datagrams from the client side. */
    public record Probe(int received, int duplicates, int late) {
    }

    private static final Pattern PROBE = Pattern.compile("probe sent 1000 received (\\d+) duplicates (\\d+) late (\\d+)");

    private final Path script;
    private final String suffix;
    private final int net;
    private boolean up;

    private ImpairedNetns(Path script, String suffix, int net) {
        this.script = script;
        this.suffix = suffix;
        this.net = net;
    }

    /** Why these tests cannot run here (they need root, ip, tc, nft, ping and python3), or empty. */
    public static Optional<String> unavailable() throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("needs root (ip netns, tc, nft)");
        }
        for (String tool : List.of("ip", "tc", "nft", "ping", "python3")) {
            if (new ProcessBuilder("sh", "-c", "command -v " + tool).start().waitFor() != 0) {
                return Optional.of(tool + " is not installed (.ci/run installs iproute2, nftables, iputils-ping,"
                        + " python3)");
            }
        }
        return Optional.empty();
    }

    /** Builds the namespaces and impairs the four egresses; {@link #close} takes it all down again. */
    public static ImpairedNetns up(Path work, int lossPerMille, int duplicatePerMille, int reorderPerMille)
            throws IOException, InterruptedException {
        Path script = work.resolve("net.sh");
        try (InputStream in = ImpairedNetns.class.getResourceAsStream("/netem/net.sh")) {
            Files.copy(in, script);
        }
        // A suffix and a /24 of their own per run: the links' ends in the test's namespace are shared
        // with whatever else runs on the machine.
        ThreadLocalRandom random = ThreadLocalRandom.current();
        ImpairedNetns n = new ImpairedNetns(script, Integer.toString(random.nextInt(0x1000, 0xffff), 16),
                random.nextInt(1, 250));
        n.up = true;
        try {
            n.script("up", String.valueOf(n.net));
            n.script("impair", String.valueOf(n.net), String.valueOf(lossPerMille), String.valueOf(duplicatePerMille),
                    String.valueOf(reorderPerMille));
        } catch (IOException | RuntimeException e) {
            n.close();
            throw e;
        }
        return n;
    }

    public String clientNamespace() {
        return "sbn-" + suffix + "-c";
    }

    public String realNamespace() {
        return "sbn-" + suffix + "-r";
    }

    /** The director's address toward the client side. */
    public InetAddress directorClientSide() {
        return address("10.96." + net + ".1");
    }

    /** The client side's address. */
    public InetAddress client() {
        return address("10.96." + net + ".2");
    }

    /** The director's address toward the real side. */
    public InetAddress directorRealSide() {
        return address("10.97." + net + ".1");
    }

    /** The real side's addresses: {@code i} 0 or 1. */
    public InetAddress real(int i) {
        return address("10.97." + net + "." + (2 + i));
    }

    /**
     * 1000 numbered datagrams from the client side through its impaired egress; with the counters
     * zeroed afterwards, so that what the test counts is its own traffic.
     */
    public Probe probe() throws IOException, InterruptedException {
        String out = script("probe", String.valueOf(net));
        script("reset");
        Matcher m = PROBE.matcher(out);
        if (!m.find()) {
            throw new IOException("probe: " + out);
        }
        return new Probe(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    /** Each egress's counts, by name ({@code c->director}, {@code director->r}, ...). */
    public Map<String, Counts> counters() throws IOException, InterruptedException {
        Map<String, Counts> counts = new LinkedHashMap<>();
        for (String line : script("counters").strip().split("\n")) {
            String[] f = line.trim().split(" ");
            counts.put(f[0], new Counts(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                    Long.parseLong(f[4])));
        }
        return counts;
    }

    /** {@code command} run in {@code namespace}: what to give a ProcessBuilder. */
    public static List<String> in(String namespace, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        all.addAll(command);
        return all;
    }

    /** A JVM with this test's class path running {@code main} in {@code namespace}. */
    public static List<String> java(String namespace, Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xmx128m", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")), main.getName()));
        command.addAll(List.of(args));
        return in(namespace, command);
    }

    private String script(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString(), args[0], suffix));
        command.addAll(List.of(args).subList(1, args.length));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (up) {
            up = false;
            script("down");
        }
    }
}
