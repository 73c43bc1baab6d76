package io.switchboard.l4.dispatch;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.l4.dispatch.Frames.frame;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.l4.dispatch.DispatchMetrics.Outcome;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** ESP and GRE follow the client's IKE or PPTP binding in the sticky group. */
class VpnDispatcherTest {

    private static final int ESP = 50;
    private static final int GRE = 47;
    private final ManualTicker ticker = new ManualTicker();
    private final Frames.Recorder out = new Frames.Recorder();
    private final FrameView view = new FrameView();
    private final DispatchMetrics metrics = new DispatchMetrics(new SimpleMeterRegistry(), "ipsec", "vpn");
    /** The group of the IKE (udp 500, farm vpn) and PPTP (tcp 1723, farm pptp) virtual servers. */
    private final InMemoryStickyTable group = new InMemoryStickyTable("group/vpn", Duration.ofMinutes(10), 100);
    private final Farms farms;
    private final VpnDispatcher dispatcher;

    VpnDispatcherTest() {
        Map<String, FarmConfig> configs = new LinkedHashMap<>();
        configs.put("vpn", new FarmConfig("vpn", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE,
                List.of(real("10.2.1.2", 500), real("10.2.2.2", 500)), Optional.empty()));
        configs.put("pptp", new FarmConfig("pptp", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE,
                List.of(real("10.2.1.2", 1723), real("10.2.2.2", 1723)), Optional.empty()));
        farms = new Farms(configs);
        dispatcher = new VpnDispatcher(new DispatchedConfig.VpnFarm("ipsec", "vpn", "cl", ip("10.1.0.1"), Set.of(ESP, GRE),
                "vpn", List.of(new DispatchedConfig.VpnReal(ip("10.2.1.2"), new DispatchedConfig.Link("f1o", "02:00:00:00:03:01")),
                        new DispatchedConfig.VpnReal(ip("10.2.2.2"), new DispatchedConfig.Link("f2o", "02:00:00:00:04:01")))),
                farms, group, metrics, ticker);
    }

    private static RealConfig real(String address, int port) {
        return new RealConfig(ip(address), port, 1, OptionalInt.empty(), true);
    }

    private Frames.Sent send(byte[] frame) {
        int before = out.sent.size();
        dispatcher.dispatch(frame, frame.length, view, out);
        return out.sent.size() > before ? out.last() : null;
    }

    private static StickyKey client(String address) {
        return StickyKey.clientAddress(ip(address), 32);
    }

    @Test
    void espFollowsTheIkeBindingAndGreThePptpBindingOfTheSameGroup() {
        // IKE from .5 went to the second real; PPTP (a tcp virtual server of another farm) bound .6 to
        // the first host, by its port-1723 real.
        group.bindIfAbsent(client("10.1.0.5"), new StickyBinding("vpn", "10.2.2.2:500"), ticker.nanos());
        group.bindIfAbsent(client("10.1.0.6"), new StickyBinding("pptp", "10.2.1.2:1723"), ticker.nanos());
        for (int i = 0; i < 5; i++) {
            assertThat(send(frame("10.1.0.5", "10.1.0.1", ESP, 0, i)).interfaceName()).isEqualTo("f2o");
            Frames.Sent gre = send(frame("10.1.0.6", "10.1.0.1", GRE, 0x3001, 0x880b));
            assertThat(gre.interfaceName()).isEqualTo("f1o");
            assertThat(gre.destinationMac()).isEqualTo("02:00:00:00:03:01");
        }
        assertThat(metrics.frames(Outcome.FORWARDED)).isEqualTo(10);
    }

    @Test
    void aClientWithoutBindingIsBoundInTheGroupSoItsIkeFollows() {
        String first = send(frame("10.1.0.7", "10.1.0.1", ESP, 0, 1)).interfaceName();
        StickyBinding bound = group.lookup(client("10.1.0.7"), ticker.nanos());
        assertThat(bound).isNotNull();
        assertThat(bound.farm()).isEqualTo("vpn");
        assertThat(bound.real()).startsWith(first.equals("f1o") ? "10.2.1.2" : "10.2.2.2");
        assertThat(send(frame("10.1.0.7", "10.1.0.1", ESP, 0, 2)).interfaceName()).isEqualTo(first);
    }

    @Test
    void aFailedRealsClientsAreRebound() {
        group.bindIfAbsent(client("10.1.0.5"), new StickyBinding("vpn", "10.2.2.2:500"), ticker.nanos());
        farms.real("vpn", "10.2.2.2:500").probesFailing(true);
        assertThat(send(frame("10.1.0.5", "10.1.0.1", ESP, 0, 1)).interfaceName()).isEqualTo("f1o");
        assertThat(group.lookup(client("10.1.0.5"), ticker.nanos()).real()).isEqualTo("10.2.1.2:500");
    }

    @Test
    void otherProtocolsAndAddressesAreNotDispatched() {
        assertThat(send(frame("10.1.0.5", "10.1.0.1", FrameView.UDP, 500, 500))).isNull();
        assertThat(send(frame("10.1.0.5", "10.1.0.2", ESP, 0, 1))).isNull();
        assertThat(metrics.frames(Outcome.UNEXPECTED)).isEqualTo(2);
    }
}
