package io.switchboard.director.staticnat;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.StaticNatConfig;
import io.switchboard.director.config.StaticNatConfig.Action;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nftables table of {@code static-nat:}: its text, and nft's own check of it where nft runs. */
class NftRulesetTest {

    private static StaticNatConfig config() throws Exception {
        InetAddress vip = InetAddress.getByName("10.9.0.10");
        return new StaticNatConfig("switchboard_static", List.of(
                new StaticNatConfig.Entry(Action.NAT, Optional.empty(), List.of(
                        new StaticNatConfig.Real(InetAddress.getByName("10.9.2.2"), 0, Optional.of(vip)),
                        new StaticNatConfig.Real(InetAddress.getByName("10.9.2.3"), 53, Optional.of(vip)))),
                new StaticNatConfig.Entry(Action.DROP, Optional.empty(), List.of(
                        new StaticNatConfig.Real(InetAddress.getByName("10.9.2.4"), 0, Optional.empty())))));
    }

    @Test
    void natIsSnatInPostroutingAndDropIsInForwardEachWithANamedCounter() throws Exception {
        List<NftRuleset.Rule> rules = NftRuleset.rules(config());
        assertThat(rules).extracting(NftRuleset.Rule::counter).containsExactly("nat_0", "nat_1", "drop_2");
        assertThat(rules).extracting(NftRuleset.Rule::realText).containsExactly("10.9.2.2", "10.9.2.3:53", "10.9.2.4");
        assertThat(NftRuleset.render("switchboard_static", rules)).isEqualTo("""
                # Written by Switchboard from static-nat: (docs/transparent.md); replaced whole at each change.
                table ip switchboard_static {}
                delete table ip switchboard_static
                table ip switchboard_static {
                  counter nat_0 { }
                  counter nat_1 { }
                  counter drop_2 { }
                  chain forward {
                    type filter hook forward priority filter; policy accept;
                    ip saddr 10.9.2.4 counter name "drop_2" drop
                  }
                  chain prerouting {
                    type nat hook prerouting priority dstnat; policy accept;
                  }
                  chain postrouting {
                    type nat hook postrouting priority srcnat; policy accept;
                    ip saddr 10.9.2.2 counter name "nat_0" snat to 10.9.0.10
                    ip saddr 10.9.2.3 meta l4proto { tcp, udp } th sport 53 counter name "nat_1" snat to 10.9.0.10
                  }
                }
                """);
    }

    /** nft -c parses the table and checks it against the kernel without committing it (nft(8)). */
    @Test
    void nftTakesTheTable(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "nft -c needs CAP_NET_ADMIN");
        Process which = new ProcessBuilder("sh", "-c", "command -v nft").start();
        Assumptions.assumeTrue(which.waitFor() == 0, "nft is not installed (.ci/run installs nftables)");
        Path file = dir.resolve("static.nft");
        Files.writeString(file, NftRuleset.render("switchboard_static_check", NftRuleset.rules(config())),
                StandardCharsets.UTF_8);
        Process nft = new ProcessBuilder("nft", "-c", "-f", file.toString()).redirectErrorStream(true).start();
        String out = new String(nft.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(nft.waitFor()).as(out).isZero();
    }
}
