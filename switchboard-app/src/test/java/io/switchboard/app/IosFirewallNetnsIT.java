package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.app.ios.IosLoopback;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The firewall-farm example (src/test/resources/ios/firewall.ios) run as {@code switchboard run -c
 * firewall.ios --firewall-links LINKS} runs it: the packaged director in the namespaces of
 * {@link NetnsTopology}, its two firewalls plain Linux forwarding with nftables counters. The example's
 * addresses are replaced by the topology's (firewalls 10.2.1.2 and 10.2.2.2, the web virtual server on
 * the director's inside address, its reals in the server namespace); the links file names the
 * topology's interfaces and MAC addresses. Skipped, with the reason, when not root or when a tool is
 * missing.
 */
class IosFirewallNetnsIT {

    /** The translation keeps IOS's admin default, 127.0.0.1:8080, here inside the director's namespace. */
    private static final int ADMIN_PORT = 8080;

    @TempDir
    static Path dir;

    private static NetnsTopology net;
    private static Process director;

    @BeforeAll
    static void start() throws Exception {
        net = NetnsTopology.up();
        String ios = IosLoopback.example("firewall.ios")
                .replace("real 10.1.1.2", "real 10.2.1.2").replace("real 10.1.2.2", "real 10.2.2.2")
                .replace("virtual 10.1.4.100", "virtual 10.4.0.1")
                .replace("real 10.1.4.10", "real 10.4.0.2").replace("real 10.1.4.11", "real 10.4.0.10");
        Path config = Files.writeString(dir.resolve("firewall.ios"), ios);
        Path links = Files.writeString(dir.resolve("firewall.links"), """
                ! the topology's director interfaces and the firewalls' legs (netns/topology.sh)
                FIRE1 outside cl inside sv
                FIRE1 10.2.1.2 f1o 02:00:00:00:03:01 f1i 02:00:00:00:03:02
                FIRE1 10.2.2.2 f2o 02:00:00:00:04:01 f2i 02:00:00:00:04:02
                """);
        director = net.director(dir.resolve("director.log"), "run", "-c", config.toString(), "--firewall-links",
                links.toString());
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> net.metric(ADMIN_PORT,
                "switchboard_dispatched_frames_total{farm=\"FIRE1\",kind=\"firewall\",outcome=\"forwarded\"}") >= 0);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (director != null) {
                NetnsTopology.stop(director, dir.resolve("director.log"));
            }
        } finally {
            if (net != null) {
                net.close();
            }
        }
    }

    @Test
    void eachFlowCrossesOneFirewallBothWaysAndKeepsIt() throws Exception {
        Map<String, String> firewallOf = new HashMap<>();
        for (String client : List.of("10.1.0.2", "10.1.0.3", "10.1.0.4", "10.1.0.5", "10.1.0.6", "10.1.0.7",
                "10.1.0.8", "10.1.0.9")) {
            var before = net.snapshot();
            assertThat(net.ping("c", client, "10.4.0.2", 3)).as("replies to %s", client).isEqualTo(3);
            var d = net.delta(before);
            String used = d.get("f1").get("out-in") > 0 ? "f1" : "f2";
            String other = used.equals("f1") ? "f2" : "f1";
            // predictor hash address port: requests out->in and replies in->out through one firewall.
            assertThat(d.get(used)).as("%s through %s", client, used).containsEntry("out-in", 3L)
                    .containsEntry("in-out", 3L);
            assertThat(d.get(other)).as("%s not through %s", client, other).containsEntry("out-in", 0L)
                    .containsEntry("in-out", 0L);
            firewallOf.put(client, used);
        }
        assertThat(firewallOf.values()).as("the hash spreads the clients").contains("f1", "f2");
        // protocol ... sticky 180: a client's next flow goes through the same firewall.
        for (var e : firewallOf.entrySet()) {
            var before = net.snapshot();
            assertThat(net.ping("c", e.getKey(), "10.4.0.2", 2)).isEqualTo(2);
            assertThat(net.delta(before).get(e.getValue())).containsEntry("out-in", 2L).containsEntry("in-out", 2L);
        }
    }
}
