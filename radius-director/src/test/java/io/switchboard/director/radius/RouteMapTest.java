package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accountingRequest;
import static io.switchboard.director.radius.RadiusPluginTest.addr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.ServiceKind;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.StickyKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.udp.PluginContext;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The route-map ("turbo") predictor: Framed-IP-Address against prefixes, longest wins. */
class RouteMapTest {

    private static final InetSocketAddress NAS = new InetSocketAddress(addr("127.0.0.20"), 1);

    private final Farms farms;
    private final RadiusPlugin plugin;
    private final RealSelector selector;
    private final InMemoryStickyTable table = new InMemoryStickyTable("t", Duration.ofHours(1), 100);

    RouteMapTest() {
        Map<String, FarmConfig> configs = new LinkedHashMap<>();
        configs.put("gw", new FarmConfig("gw", PredictorKind.ROUNDROBIN, new FailureDetection(1, 1, Duration.ofMinutes(1)),
                List.of(real("127.0.0.2"), real("127.0.0.3"), real("127.0.0.4")), Optional.empty()));
        farms = new Farms(configs);
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(addr("127.0.0.0"), 8, "s")),
                RadiusOptions.FramedIp.DEFAULT, RadiusOptions.DEFAULT_STATE_IDLE, List.of(
                        new RadiusOptions.Route(addr("10.1.0.0"), 16, "127.0.0.2:1813"),
                        new RadiusOptions.Route(addr("10.1.2.0"), 24, "127.0.0.3:1813")));
        VirtualServerConfig vs = vs(options);
        plugin = (RadiusPlugin) new RadiusService().create(vs);
        plugin.attach(new PluginContext(vs, table, farms, () -> 0));
        selector = new RealSelector(farms, farms.farm("gw"), table);
    }

    private static RealConfig real(String address) {
        return new RealConfig(addr(address), 1813, 1, OptionalInt.empty(), true, Optional.empty());
    }

    private static VirtualServerConfig vs(RadiusOptions options) {
        return new VirtualServerConfig("acct", new Endpoint(addr("127.0.0.1"), 0), ServiceKind.RADIUS, "gw",
                Optional.of(new StickyConfig(List.of(StickyKind.CALLING_STATION_ID), Duration.ofHours(1),
                        OptionalInt.empty(), 100)),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
    }

    private Selection select(String framedIp) throws Exception {
        var request = accountingRequest(1, "s", List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START),
                RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001"),
                new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), addr(framedIp).getAddress())));
        StickyKey key = plugin.classify(request, NAS);
        return selector.select(key, 1);
    }

    @Test
    void theLongestMatchingPrefixChoosesTheReal() throws Exception {
        assertThat(select("10.1.2.3").real().id()).isEqualTo("127.0.0.3:1813");
        assertThat(select("10.1.9.9").real().id()).isEqualTo("127.0.0.2:1813");
        // No route: the configured keys and the farm's predictor.
        assertThat(select("192.168.0.1").reason()).isEqualTo(Selection.Reason.PREDICTOR);
    }

    @Test
    void aFailedRouteRealIsBypassedAndTakenBackWhenItServesAgain() throws Exception {
        RealServer routed = farms.real("gw", "127.0.0.3:1813");
        routed.requestForwarded();
        routed.requestUnanswered(addr("192.0.2.1"), 0);
        assertThat(select("10.1.2.3").real().id()).isNotEqualTo("127.0.0.3:1813");
        routed.putInService();
        assertThat(select("10.1.2.3").real().id()).isEqualTo("127.0.0.3:1813");
    }

    @Test
    void aRouteToARealOutsideTheFarmIsRefused() {
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(addr("127.0.0.0"), 8, "s")),
                RadiusOptions.FramedIp.DEFAULT, RadiusOptions.DEFAULT_STATE_IDLE,
                List.of(new RadiusOptions.Route(addr("10.1.0.0"), 16, "127.0.0.9:1813")));
        VirtualServerConfig vs = vs(options);
        RadiusPlugin p = (RadiusPlugin) new RadiusService().create(vs);
        assertThatThrownBy(() -> p.attach(new PluginContext(vs, table, farms, () -> 0)))
                .hasMessageContaining("route-map real 127.0.0.9:1813 is not a real of farm gw");
    }
}
