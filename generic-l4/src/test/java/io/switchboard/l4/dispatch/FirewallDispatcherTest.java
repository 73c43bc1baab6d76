package io.switchboard.l4.dispatch;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static io.switchboard.l4.dispatch.Frames.frame;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.l4.dispatch.DispatchMetrics.Outcome;
import io.switchboard.l4.dispatch.FirewallDispatcher.Side;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The firewall farm's choices, frame by frame, without capture (a recording output). */
class FirewallDispatcherTest {

    private static final int TCP = FrameView.TCP;
    private final ManualTicker ticker = new ManualTicker();
    private final Frames.Recorder out = new Frames.Recorder();
    private final FrameView view = new FrameView();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final DispatchMetrics metrics = new DispatchMetrics(registry, "edge", "firewall");
    private final InMemoryStickyTable framedIp = new InMemoryStickyTable("group/subscribers", Duration.ofHours(1), 100);

    private Farms farms(int maxconns) {
        Map<String, FarmConfig> configs = new LinkedHashMap<>();
        configs.put("firewalls", new FarmConfig("firewalls", PredictorKind.HASH, FAIL_AT_ONCE,
                List.of(real("10.2.1.2", 8, maxconns), real("10.2.2.2", 8, maxconns)), Optional.empty()));
        configs.put("aaa", new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE,
                List.of(real("10.2.2.2", 8)), Optional.empty()));
        return new Farms(configs);
    }

    private FirewallDispatcher dispatcher(Farms farms, boolean hashPorts, boolean withFramedIp) {
        var config = new DispatchedConfig.FirewallFarm("edge", "firewalls", "cl", "sv", hashPorts, Duration.ofSeconds(30),
                List.of(new DispatchedConfig.Firewall(ip("10.2.1.2"), new DispatchedConfig.Link("f1o", "02:00:00:00:03:01"),
                                new DispatchedConfig.Link("f1i", "02:00:00:00:03:02")),
                        new DispatchedConfig.Firewall(ip("10.2.2.2"), new DispatchedConfig.Link("f2o", "02:00:00:00:04:01"),
                                new DispatchedConfig.Link("f2i", "02:00:00:00:04:02"))),
                withFramedIp ? Optional.of("subscribers") : Optional.empty());
        return new FirewallDispatcher(config, farms, withFramedIp ? framedIp : null, Set.of(Frames.ip("10.1.0.1")),
                metrics, ticker);
    }

    private Frames.Sent send(FirewallDispatcher d, Side side, byte[] frame) {
        int before = out.sent.size();
        d.dispatch(side, frame, frame.length, view, out);
        return out.sent.size() > before ? out.last() : null;
    }

    @Test
    void bothDirectionsOfEveryFlowCrossOneFirewallAndTheFrameIsUnchangedButForItsMac() {
        FirewallDispatcher d = dispatcher(farms(1000), false, false);
        Set<String> used = new HashSet<>();
        for (int client = 2; client < 40; client++) {
            byte[] request = frame("10.1.0." + client, "10.4.0.2", TCP, 40000 + client, 80);
            Frames.Sent outbound = send(d, Side.OUTSIDE, request.clone());
            Frames.Sent inbound = send(d, Side.INSIDE, frame("10.4.0.2", "10.1.0." + client, TCP, 80, 40000 + client));
            String firewall = outbound.interfaceName().substring(0, 2);
            used.add(firewall);
            assertThat(outbound.interfaceName()).isEqualTo(firewall + "o");
            assertThat(inbound.interfaceName()).isEqualTo(firewall + "i");
            assertThat(outbound.destinationMac()).isEqualTo(firewall.equals("f1") ? "02:00:00:00:03:01" : "02:00:00:00:04:01");
            assertThat(inbound.destinationMac()).isEqualTo(firewall.equals("f1") ? "02:00:00:00:03:02" : "02:00:00:00:04:02");
            // No NAT: everything after the destination MAC is the frame as captured (the source MAC is
            // the output's to write).
            assertThat(Arrays.copyOfRange(outbound.frame(), 6, request.length)).isEqualTo(Arrays.copyOfRange(request, 6, request.length));
        }
        assertThat(used).containsExactlyInAnyOrder("f1", "f2");
        assertThat(d.flows()).isEqualTo(38);
        assertThat(metrics.frames(Outcome.FORWARDED)).isEqualTo(76);
    }

    @Test
    void withPortsAPairsNewConnectionsStickToItsFirewallForTheStickyTime() {
        FirewallDispatcher d = dispatcher(farms(1000), true, false);
        String first = send(d, Side.OUTSIDE, frame("10.1.0.2", "10.4.0.2", TCP, 40000, 80)).interfaceName();
        for (int port = 40001; port < 40020; port++) {
            assertThat(send(d, Side.OUTSIDE, frame("10.1.0.2", "10.4.0.2", TCP, port, 443)).interfaceName()).isEqualTo(first);
        }
        assertThat(d.flows()).isEqualTo(20);
        assertThat(metrics.selectedCount("sticky")).isEqualTo(19);

        ticker.advance(Duration.ofSeconds(31));
        d.expire(ticker.nanos());
        assertThat(d.flows()).isZero();
        // Without the pair binding the ports spread the pair's connections over both firewalls.
        Set<String> used = new HashSet<>();
        for (int port = 41000; port < 41040; port++) {
            used.add(send(d, Side.OUTSIDE, frame("10.1.0.2", "10.4.0.2", TCP, port, 443)).interfaceName());
            ticker.advance(Duration.ofSeconds(31));
            d.expire(ticker.nanos());
        }
        assertThat(used).containsExactlyInAnyOrder("f1o", "f2o");
    }

    @Test
    void maxconnsDropsNewFlowsWhenEveryFirewallIsFullAndExpiryGivesThemBack() {
        Farms farms = farms(1);
        FirewallDispatcher d = dispatcher(farms, false, false);
        assertThat(send(d, Side.OUTSIDE, frame("10.1.0.2", "10.4.0.2", TCP, 1, 80))).isNotNull();
        assertThat(send(d, Side.OUTSIDE, frame("10.1.0.3", "10.4.0.2", TCP, 1, 80))).isNotNull();
        assertThat(send(d, Side.OUTSIDE, frame("10.1.0.4", "10.4.0.2", TCP, 1, 80))).isNull();
        assertThat(metrics.frames(Outcome.NO_REAL)).isEqualTo(1);
        // Open flows are still served.
        assertThat(send(d, Side.INSIDE, frame("10.4.0.2", "10.1.0.2", TCP, 80, 1))).isNotNull();

        ticker.advance(Duration.ofSeconds(31));
        d.expire(ticker.nanos());
        assertThat(farms.farm("firewalls").reals()).allSatisfy(r -> assertThat(r.connections()).isZero());
        assertThat(send(d, Side.OUTSIDE, frame("10.1.0.4", "10.4.0.2", TCP, 1, 80))).isNotNull();
    }

    @Test
    void aFailedFirewallsFlowsMoveToTheOther() {
        Farms farms = farms(1000);
        FirewallDispatcher d = dispatcher(farms, false, false);
        Frames.Sent first = send(d, Side.OUTSIDE, frame("10.1.0.2", "10.4.0.2", TCP, 1, 80));
        RealServer used = farms.farm("firewalls").reals().get(first.interfaceName().startsWith("f1") ? 0 : 1);
        used.probesFailing(true);
        Frames.Sent after = send(d, Side.INSIDE, frame("10.4.0.2", "10.1.0.2", TCP, 80, 1));
        assertThat(after.interfaceName().substring(0, 2)).isNotEqualTo(first.interfaceName().substring(0, 2));
        assertThat(metrics.selectedCount("reassigned")).isEqualTo(1);
        assertThat(used.connections()).isZero();
    }

    @Test
    void aSubscribersFlowsFollowTheGatewayOfItsFramedIpBinding() {
        FirewallDispatcher d = dispatcher(farms(1000), false, true);
        // The RADIUS director bound the subscriber 10.4.0.9 to its real 10.2.2.2 (the gateway that is
        // also firewall f2).
        framedIp.bindIfAbsent(StickyKey.of(TestKinds.FRAMED_IP, ip("10.4.0.9").getAddress()),
                new StickyBinding("aaa", "10.2.2.2:2123"), ticker.nanos());
        for (int server = 2; server < 20; server++) {
            assertThat(send(d, Side.OUTSIDE, frame("10.1.7." + server, "10.4.0.9", TCP, 1, 80)).interfaceName()).isEqualTo("f2o");
            assertThat(send(d, Side.INSIDE, frame("10.4.0.9", "10.1.8." + server, TCP, 80, 1)).interfaceName()).isEqualTo("f2i");
        }
        assertThat(metrics.selectedCount("framed-ip")).isEqualTo(36);
    }

    @Test
    void badAndForeignFramesAreCountedNotSentAndFramesToTheDirectorAreLeftToIt() {
        FirewallDispatcher d = dispatcher(farms(1000), false, false);
        byte[] arp = frame("10.1.0.2", "10.4.0.2", TCP, 1, 80);
        arp[12] = 0x08;
        arp[13] = 0x06;
        byte[] lying = frame("10.1.0.2", "10.4.0.2", TCP, 1, 80);
        lying[16] = 0x05; // total length 1280 in a 42-octet frame
        byte[] notV4 = frame("10.1.0.2", "10.4.0.2", TCP, 1, 80);
        notV4[14] = 0x65;
        byte[] shortIhl = frame("10.1.0.2", "10.4.0.2", TCP, 1, 80);
        shortIhl[14] = 0x44;
        assertThat(send(d, Side.OUTSIDE, arp)).isNull();
        assertThat(send(d, Side.OUTSIDE, lying)).isNull();
        assertThat(send(d, Side.OUTSIDE, notV4)).isNull();
        assertThat(send(d, Side.OUTSIDE, shortIhl)).isNull();
        assertThat(send(d, Side.OUTSIDE, Arrays.copyOf(frame("10.1.0.2", "10.4.0.2", TCP, 1, 80), 20))).isNull();
        assertThat(send(d, Side.OUTSIDE, frame("10.1.0.2", "10.1.0.1", TCP, 1, 80))).isNull();
        assertThat(metrics.frames(Outcome.UNEXPECTED)).isEqualTo(1);
        assertThat(metrics.frames(Outcome.MALFORMED)).isEqualTo(4);
        assertThat(metrics.frames(Outcome.LOCAL)).isEqualTo(1);
        assertThat(d.flows()).isZero();

        out.refuse = true;
        assertThat(send(d, Side.OUTSIDE, frame("10.1.0.2", "10.4.0.2", TCP, 1, 80))).isNotNull();
        assertThat(metrics.frames(Outcome.SEND_FAILED)).isEqualTo(1);
    }

    @Test
    void aVlanTaggedFrameIsReadPastItsTag() {
        FirewallDispatcher d = dispatcher(farms(1000), true, false);
        byte[] plain = frame("10.1.0.2", "10.4.0.2", TCP, 40000, 80);
        byte[] tagged = new byte[plain.length + 4];
        System.arraycopy(plain, 0, tagged, 0, 12);
        tagged[12] = (byte) 0x81; // IEEE 802.1Q TPID, VLAN 7
        tagged[15] = 7;
        System.arraycopy(plain, 12, tagged, 16, plain.length - 12);
        Frames.Sent sent = send(d, Side.OUTSIDE, tagged);
        assertThat(sent).isNotNull();
        assertThat(sent.frame()).hasSize(tagged.length);
        // The same flow as the untagged frame: one flow, one firewall.
        assertThat(send(d, Side.OUTSIDE, plain).interfaceName()).isEqualTo(sent.interfaceName());
        assertThat(d.flows()).isEqualTo(1);
    }
}
