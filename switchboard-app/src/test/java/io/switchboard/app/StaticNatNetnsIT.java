package io.switchboard.app;

import static io.switchboard.app.NetnsTopology.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.app.NetnsTopology.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code static-nat:} in a real network (docs/transparent.md, IOS {@code ip slb static}): the
 * outside (a namespace that knows only the virtual address), the packaged director in the reals'
 * gateway namespace, and two reals. What the {@code nat} real opens, a UDP flow and a TCP connection,
 * must reach the outside from the virtual address and be answered back to the real; what the
 * {@code drop} real opens must not pass, and both must be counted in the director's metrics; the
 * balanced traffic to the virtual server is untouched. Skipped unless root with ip netns, nft,
 * python3 and curl.
 */
class StaticNatNetnsIT {

    private static final Path SCRIPT = Path.of("src", "test", "resources", "netns", "static-nat-topology.sh");
    private static final Path PEER = Path.of("src", "test", "resources", "netns", "static_nat_peer.py");
    private static final String OUTSIDE = "10.9.1.2";
    private static final String VIRTUAL = "10.9.0.10";
    private static final String NAT_REAL = "10.9.2.2";
    private static final String DROP_REAL = "10.9.2.3";
    private static final String TABLE = "sb_static_it";

    @TempDir
    static Path dir;

    private static String suffix;
    private static Process director;
    private static final List<Process> peers = new ArrayList<>();

    @BeforeAll
    static void setUp() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root");
        for (String tool : List.of("ip", "nft", "python3", "curl")) {
            Assumptions.assumeTrue(run(List.of("sh", "-c", "command -v " + tool)).exit() == 0,
                    tool + " is not installed (.ci/run installs iproute2, nftables, curl)");
        }
        assertThat(NetnsTopology.JAR).as("the shaded jar is built in the package phase").exists();
        suffix = Integer.toString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff), 16);
        Result up = run(List.of("bash", SCRIPT.toString(), "up", suffix));
        assertThat(up.exit()).as("topology: %s", up.output()).isZero();

        peers.add(peer("c", dir.resolve("outside.log"), "serve", OUTSIDE, "7000", "7001", dir.resolve("seen").toString()));
        peers.add(peer("r", dir.resolve("echo.log"), "echo", "0.0.0.0", "53"));
        Path config = dir.resolve("switchboard.yaml");
        Files.writeString(config, """
                admin: { listen: 127.0.0.1:8080 }
                farms:
                  dns:
                    reals: [{ address: 10.9.2.2, port: 53 }, { address: 10.9.2.3, port: 53 }]
                virtual-servers:
                  dns: { listen: 10.9.0.10:53, service: udp, farm: dns }
                static-nat:
                  table: %s
                  entries:
                    - { action: nat, address: virtual, reals: [{ address: 10.9.2.2 }] }
                    - { action: drop, reals: [{ address: 10.9.2.3 }] }
                """.formatted(TABLE));
        director = new ProcessBuilder("ip", "netns", "exec", ns("d"),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
                NetnsTopology.JAR.toString(), "run", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("director.log").toFile()).start();
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250)).until(() -> {
            String log = Files.readString(dir.resolve("director.log"));
            return log.contains("static NAT: nftables table ip " + TABLE + " written")
                    && log.contains("virtual server dns (udp) listening")
                    && Files.readString(dir.resolve("outside.log")).contains("serving")
                    && Files.readString(dir.resolve("echo.log")).contains("echoing");
        });
    }

    private static Process peer(String namespace, Path log, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", ns(namespace), "python3", "-u",
                PEER.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (director != null) {
            NetnsTopology.stop(director, dir.resolve("director.log"));
        }
        for (Process p : peers) {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
        if (suffix != null) {
            run(List.of("bash", SCRIPT.toString(), "down", suffix));
        }
    }

    private static String ns(String name) {
        return "sb-" + suffix + "-" + name;
    }

    private static String fromReal(String kind, String source, int port) throws Exception {
        return run(List.of("ip", "netns", "exec", ns("r"), "python3", PEER.toString(), kind, source, OUTSIDE,
                Integer.toString(port))).output();
    }

    /** The sum of the director's series {@code name} whose labels contain {@code label}; -1 if none. */
    private static double metric(String name, String label) throws Exception {
        Result r = run(List.of("ip", "netns", "exec", ns("d"), "curl", "-s", "--max-time", "2",
                "http://127.0.0.1:8080/metrics"));
        double sum = -1;
        Matcher m = Pattern.compile("(?m)^" + name + "\\{([^}]*)\\} (\\S+)$").matcher(r.output());
        while (m.find()) {
            if (m.group(1).contains(label)) {
                sum = Math.max(sum, 0) + Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    @Test
    void whatTheNatRealOpensLeavesFromTheVirtualAddressAndItsAnswersComeBack() throws Exception {
        // The outside has no route to 10.9.2.0/24: an answer reaches the real only through the
        // director's connection tracking, which translates the virtual address back.
        assertThat(fromReal("udp", NAT_REAL, 7000)).as("UDP").contains("seen " + VIRTUAL + " from " + OUTSIDE);
        assertThat(fromReal("tcp", NAT_REAL, 7001)).as("TCP").contains("seen " + VIRTUAL + " from " + OUTSIDE);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(metric("switchboard_static_nat_flows_total", "real=\"" + NAT_REAL + "\""))
                        .as("flows translated").isGreaterThanOrEqualTo(2));
        assertThat(Files.readString(dir.resolve("seen"))).doesNotContain(NAT_REAL);
    }

    @Test
    void whatTheDropRealOpensDoesNotPassAndIsCounted() throws Exception {
        assertThat(fromReal("udp", DROP_REAL, 7000)).as("UDP").contains("timeout");
        assertThat(fromReal("tcp", DROP_REAL, 7001)).as("TCP").contains("timeout");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(metric("switchboard_static_nat_dropped_total", "real=\"" + DROP_REAL + "\""))
                        .as("packets dropped").isGreaterThanOrEqualTo(2));
        Path seen = dir.resolve("seen");
        assertThat(Files.exists(seen) ? Files.readString(seen) : "").doesNotContain(DROP_REAL);
        // The kernel's own counter, read independently of the director.
        Result nft = run(List.of("ip", "netns", "exec", ns("d"), "nft", "list", "counters", "table", "ip", TABLE));
        assertThat(nft.output()).as(nft.output()).containsPattern("counter drop_1 \\{\\s*packets [1-9]");
    }

    @Test
    void theBalancedTrafficOfBothRealsIsUntouched() throws Exception {
        // The outside asks the virtual server; the director relays from its own address (client NAT) and
        // the answers, to the director itself, are delivered locally: neither the SNAT nor the drop sees
        // them, whichever real (the drop one included) answers.
        for (int i = 0; i < 4; i++) {
            Result r = run(List.of("ip", "netns", "exec", ns("c"), "python3", PEER.toString(), "udp", OUTSIDE, VIRTUAL,
                    "53"));
            assertThat(r.output()).as("through the virtual server").contains("hello from " + VIRTUAL);
        }
    }
}
