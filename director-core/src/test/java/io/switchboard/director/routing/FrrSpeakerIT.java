package io.switchboard.director.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.director.config.BgpConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code route-health.bgp} with {@code daemon: frr} against the real thing: FRR 8's zebra, bfdd and
 * bgpd in a network namespace, their configuration and vty sockets in the test's directory, peering
 * (eBGP, BFD) with a BIRD router in a second namespace. The speaker announces two addresses (the
 * router sees them with the community), withdraws one, then the {@link Withdrawal} shuts the session
 * (the router loses the rest) and the next announcement brings it back. Skipped, with the reason,
 * when not root or when frr, bird2 or ip netns are missing.
 */
class FrrSpeakerIT {

    private static final String ROUTER = "10.40.0.1";
    private static final String NODE = "10.40.0.2";

    @TempDir
    Path dir;

    private final String suffix = Integer.toString(ThreadLocalRandom.current().nextInt(0x10000, 0xfffff), 16);
    private final List<Process> daemons = new ArrayList<>();
    private final List<Path> pidFiles = new ArrayList<>();
    private boolean namespaces;

    @AfterEach
    void stop() throws Exception {
        for (Process p : daemons) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        // FRR's daemons fork into the background (-d): stopped by the pids they wrote.
        for (Path pid : pidFiles) {
            if (Files.exists(pid)) {
                run("kill", Files.readString(pid).strip());
            }
        }
        if (namespaces) {
            run("ip", "netns", "del", ns("rt"));
            run("ip", "netns", "del", ns("frr"));
        }
    }

    private String ns(String name) {
        return "sb-" + suffix + "-" + name;
    }

    @Test
    void frrAnnouncesWithdrawsAndShutsTheSessionWhenTheNodeIsGone() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root (ip netns)");
        for (String tool : List.of("/usr/lib/frr/bgpd", "/usr/bin/vtysh", "/usr/sbin/bird")) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of(tool)), tool + " is missing (.ci/run installs frr, bird2)");
        }
        Assumptions.assumeTrue(run("ip", "netns", "list").startsWith("ok"), "ip netns is not available here");
        namespaces = true;
        for (String n : List.of("rt", "frr")) {
            assertThat(run("ip", "netns", "add", ns(n))).startsWith("ok");
            run("ip", "-n", ns(n), "link", "set", "lo", "up");
        }
        assertThat(run("ip", "-n", ns("rt"), "link", "add", "n0", "type", "veth", "peer", "name", "r0", "netns", ns("frr")))
                .startsWith("ok");
        run("ip", "-n", ns("rt"), "addr", "add", ROUTER + "/24", "dev", "n0");
        run("ip", "-n", ns("frr"), "addr", "add", NODE + "/24", "dev", "r0");
        run("ip", "-n", ns("rt"), "link", "set", "n0", "up");
        run("ip", "-n", ns("frr"), "link", "set", "r0", "up");

        Path rtConf = Files.writeString(dir.resolve("rt-bird.conf"), """
                router id %s;
                protocol device { }
                protocol bfd { interface "*" { min rx interval 100 ms; min tx interval 100 ms; multiplier 5; }; }
                protocol bgp node {
                    local as 65000; neighbor %s as 65001; bfd on; connect retry time 1; error wait time 1, 2;
                    ipv4 { import all; export none; };
                }
                """.formatted(ROUTER, NODE));
        Path birdSocket = dir.resolve("rt-bird.ctl");
        daemons.add(new ProcessBuilder("ip", "netns", "exec", ns("rt"), "bird", "-f", "-c", rtConf.toString(), "-s",
                birdSocket.toString(), "-P", dir.resolve("rt-bird.pid").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("rt-bird.log").toFile()).start());

        // FRR's daemons drop to the frr user (in the frrvty group their vty sockets need): their directory is frr's.
        Path frr = Files.createDirectory(dir.resolve("frr"));
        run("chown", "frr:frr", frr.toString());
        run("chmod", "o+x", dir.toString()); // JUnit makes it root's alone; frr must get through to its own

        for (String daemon : List.of("zebra", "bfdd", "bgpd")) {
            Path conf = Files.writeString(frr.resolve(daemon + ".conf"), "");
            run("chown", "frr:frr", conf.toString());
            Path pid = frr.resolve(daemon + ".pid");
            pidFiles.add(pid);
            List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", ns("frr"), "/usr/lib/frr/" + daemon,
                    "-d", "-f", conf.toString(), "-i", pid.toString(), "-z", frr.resolve("zserv.api").toString(),
                    "--vty_socket", frr.toString()));
            if (daemon.equals("bfdd")) {
                command.addAll(List.of("--bfdctl", frr.resolve("bfdd.sock").toString()));
            }
            assertThat(run(command.toArray(String[]::new))).startsWith("ok");
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(frr.resolve(daemon + ".vty")));
        }

        BgpConfig config = new BgpConfig(BgpConfig.Daemon.FRR, 65001, Optional.of(InetAddress.getByName(NODE)),
                List.of(new BgpConfig.Neighbour(InetAddress.getByName(ROUTER), 65000, Optional.empty())),
                List.of("65001:100"), true, Duration.ofMillis(100), 5, BgpConfig.DEFAULT_INCLUDE_FILE, Optional.of(frr));
        BgpSpeaker speaker = BgpSpeaker.of(config, Duration.ofSeconds(10));
        InetAddress vip1 = InetAddress.getByName("10.99.0.1");
        InetAddress vip2 = InetAddress.getByName("10.99.0.2");

        speaker.announce(Set.of(vip1, vip2));
        await().atMost(Duration.ofSeconds(30)).until(() -> routes(birdSocket).contains("10.99.0.1/32")
                && routes(birdSocket).contains("10.99.0.2/32"));
        assertThat(routes(birdSocket)).contains("BGP.community: (65001,100)", "BGP.as_path: 65001");
        // BIRD's BGP does not wait for BFD: the route may arrive while the BFD session is still Init (seen in CI).
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                run("birdc", "-s", birdSocket.toString(), "show", "bfd", "sessions")).contains(NODE).contains("Up"));

        speaker.announce(Set.of(vip2));
        await().atMost(Duration.ofSeconds(10)).until(() -> !routes(birdSocket).contains("10.99.0.1/32"));
        assertThat(routes(birdSocket)).contains("10.99.0.2/32");
        // Announcing the same set again changes nothing in bgpd's configuration.
        speaker.announce(Set.of(vip2));
        assertThat(FrrSpeaker.networks(run("vtysh", "--vty_socket", frr.toString(), "-c", "show running-config bgpd")))
                .containsExactly("10.99.0.2/32");

        Withdrawal.arm(speaker.withdrawAll()).fire();
        await().atMost(Duration.ofSeconds(10)).until(() -> !routes(birdSocket).contains("10.99.0.2/32"));

        speaker.announce(Set.of(vip1));
        await().atMost(Duration.ofSeconds(30)).until(() -> routes(birdSocket).contains("10.99.0.1/32"));
    }

    private String routes(Path birdSocket) throws IOException, InterruptedException {
        return run("birdc", "-s", birdSocket.toString(), "show", "route", "all");
    }

    /** "ok" or "failed N" and the command's output. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "timed out " + out;
        }
        return (p.exitValue() == 0 ? "ok " : "failed " + p.exitValue() + " ") + out;
    }
}
