package io.switchboard.director.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.BgpConfig;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the speakers hand their daemons: BIRD's include file, which BIRD 2 itself must parse
 * ({@code bird -p}, skipped where bird2 is not installed), and FRR's vtysh lines, which add only the
 * missing network statements and remove only Switchboard's own stale ones.
 */
class BgpSpeakerTextTest {

    @TempDir
    Path dir;

    private BgpConfig config(BgpConfig.Daemon daemon, boolean bfd) throws Exception {
        return new BgpConfig(daemon, 65001, Optional.of(InetAddress.getByName("10.0.1.2")),
                List.of(new BgpConfig.Neighbour(InetAddress.getByName("10.0.1.1"), 65000,
                                Optional.of(InetAddress.getByName("10.0.1.2"))),
                        new BgpConfig.Neighbour(InetAddress.getByName("fd00::1"), 65000, Optional.empty())),
                List.of("65001:100", "65001:1:2"), bfd, Duration.ofMillis(50), 3, dir.resolve("switchboard.conf"),
                Optional.empty());
    }

    private static Set<InetAddress> vips(String... addresses) throws Exception {
        java.util.Set<InetAddress> set = new java.util.LinkedHashSet<>();
        for (String a : addresses) {
            set.add(InetAddress.getByName(a));
        }
        return set;
    }

    @Test
    void birdsIncludeFileHoldsTheSessionsAndOneHostRoutePerServedAddress() throws Exception {
        String text = new BirdSpeaker(config(BgpConfig.Daemon.BIRD, true), Duration.ofSeconds(5))
                .render(vips("10.99.0.2", "10.99.0.1", "fd99::1"));
        assertThat(text).contains("router id 10.0.1.2;",
                "    route 10.99.0.1/32 blackhole;\n    route 10.99.0.2/32 blackhole;\n",
                "    route fd99::1/128 blackhole;",
                "        bgp_community.add((65001,100));", "        bgp_large_community.add((65001,1,2));",
                "    local 10.0.1.2 as 65001;\n    neighbor 10.0.1.1 as 65000;\n    bfd on;\n"
                        + "    connect delay time 1;\n    error wait time 1, 30;\n"
                        + "    ipv4 { import none; export filter switchboard_export; };",
                "    neighbor fd00::1 as 65000;", "    ipv6 { import none; export filter switchboard_export; };",
                "min rx interval 50 ms;", "multiplier 3;");
        String withoutBfd = new BirdSpeaker(config(BgpConfig.Daemon.BIRD, false), Duration.ofSeconds(5)).render(Set.of());
        assertThat(withoutBfd).doesNotContain("bfd").doesNotContain("route ");

        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/bird")), "bird2 is not installed (.ci/run installs it)");
        for (String include : List.of(text, withoutBfd)) {
            Path file = Files.writeString(dir.resolve("switchboard.conf"), include);
            Path main = Files.writeString(dir.resolve("bird.conf"), "protocol device { }\ninclude \"" + file + "\";\n");
            Process parse = new ProcessBuilder("/usr/sbin/bird", "-p", "-c", main.toString()).redirectErrorStream(true)
                    .start();
            String output = new String(parse.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(parse.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(parse.exitValue()).as("bird -p: %s%n%s", output, include).isZero();
        }
    }

    @Test
    void frrGetsTheMissingNetworksAndLosesOnlyItsOwnStaleOnes() throws Exception {
        FrrSpeaker frr = new FrrSpeaker(config(BgpConfig.Daemon.FRR, true), Duration.ofSeconds(5));
        String running = """
                router bgp 65001
                 address-family ipv4 unicast
                  network 10.99.0.1/32 route-map switchboard-vip
                  network 10.99.0.3/32 route-map switchboard-vip
                  network 192.0.2.0/24
                 exit-address-family
                 address-family ipv6 unicast
                  network fd99::9/128 route-map switchboard-vip
                 exit-address-family
                exit
                """;
        assertThat(FrrSpeaker.networks(running)).containsExactly("10.99.0.1/32", "10.99.0.3/32", "fd99::9/128");
        List<String> lines = frr.commands(vips("10.99.0.1", "10.99.0.2", "fd99::1"), FrrSpeaker.networks(running));
        assertThat(lines).containsSubsequence("configure terminal", "bfd", "profile switchboard",
                "transmit-interval 50", "receive-interval 50", "detect-multiplier 3", "exit", "exit",
                "route-map switchboard-vip permit 10", "set community 65001:100 additive",
                "set large-community 65001:1:2 additive", "exit", "router bgp 65001", "bgp router-id 10.0.1.2",
                "no bgp network import-check", "neighbor 10.0.1.1 remote-as 65000",
                "neighbor 10.0.1.1 update-source 10.0.1.2", "neighbor 10.0.1.1 bfd profile switchboard",
                "address-family ipv4 unicast", "neighbor 10.0.1.1 route-map switchboard-in in",
                "neighbor 10.0.1.1 route-map switchboard-out out",
                "network 10.99.0.2/32 route-map switchboard-vip", "no network 10.99.0.3/32 route-map switchboard-vip",
                "exit-address-family", "address-family ipv6 unicast", "neighbor fd00::1 activate",
                "network fd99::1/128 route-map switchboard-vip", "no network fd99::9/128 route-map switchboard-vip",
                "exit-address-family", "exit", "end");
        assertThat(lines).doesNotContain("network 10.99.0.1/32 route-map switchboard-vip")
                .noneMatch(line -> line.contains("192.0.2.0"));
    }

    @Test
    void addressesAreWrittenAsRfc5952Says() throws Exception {
        for (String[] c : new String[][] {{"::1", "::1"}, {"fd99:0:0:0:0:0:0:1", "fd99::1"}, {"::", "::"},
                {"2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"}, {"2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"},
                {"2001:0DB8:0:0:0:0:0:0", "2001:db8::"}, {"10.99.0.1", "10.99.0.1"}}) {
            assertThat(AddressText.of(InetAddress.getByName(c[0]))).as(c[0]).isEqualTo(c[1]);
        }
    }
}
