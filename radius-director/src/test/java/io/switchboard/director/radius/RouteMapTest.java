package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accountingRequest;
import static io.switchboard.director.radius.RadiusPluginTest.addr;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.PluginContext;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The route-map ("turbo") predictor: the Framed-IP-Address of a request against the prefixes of the
 * virtual server's farm, longest wins. End to end through the director: {@code FreeRadiusIT}.
 */
class RouteMapTest {

    private static final InetSocketAddress NAS = new InetSocketAddress(addr("127.0.0.20"), 1);
    private static final String SECRET = "s";

    private final Farms farms;
    private final InMemoryStickyTable group = new InMemoryStickyTable("subscribers", Duration.ofHours(1), 100);

    RouteMapTest() {
        Map<String, FarmConfig> configs = new LinkedHashMap<>();
        // The acct farm routes 10.1.0.0/16 to .2 and 10.1.2.0/24 to .3; the auth farm 10.1.0.0/16 to .3.
        configs.put("acct", farm("acct", 1813, Map.of("10.1.0.0/16", "127.0.0.2", "10.1.2.0/24", "127.0.0.3"),
                "127.0.0.2", "127.0.0.3", "127.0.0.4"));
        configs.put("auth", farm("auth", 1812, Map.of("10.1.0.0/16", "127.0.0.3"), "127.0.0.2", "127.0.0.3"));
        configs.put("plain", new FarmConfig("plain", PredictorKind.ROUNDROBIN, failure(),
                List.of(real("127.0.0.2", 1813)), Optional.empty()));
        farms = new Farms(configs);
    }

    private static FailureDetection failure() {
        return new FailureDetection(1, 1, Duration.ofMinutes(1));
    }

    private static FarmConfig farm(String name, int port, Map<String, String> routes, String... reals) {
        List<RealConfig> list = new ArrayList<>();
        for (String address : reals) {
            list.add(real(address, port));
        }
        Map<Subnet, Endpoint> map = new LinkedHashMap<>();
        routes.forEach((prefix, real) -> map.put(new Subnet(addr(prefix.split("/")[0]),
                Integer.parseInt(prefix.split("/")[1])), new Endpoint(addr(real), port)));
        return new FarmConfig(name, PredictorKind.ROUTE_MAP, failure(), list, Optional.empty(), List.of(),
                Optional.empty(), map);
    }

    private static RealConfig real(String address, int port) {
        return new RealConfig(addr(address), port, 1, OptionalInt.empty(), true);
    }

    /** The plug-in of a virtual server on {@code farm}, in the sticky group, or without sticky. */
    private RadiusPlugin plugin(String farm, boolean sticky) {
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(addr("127.0.0.0"), 8, SECRET)));
        VirtualServerConfig vs = new VirtualServerConfig(farm, new Endpoint(addr("127.0.0.1"), 0), "radius",
                farm, sticky ? Optional.of(new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID), Duration.ofHours(1),
                        OptionalInt.empty(), 100, Optional.of("subscribers"))) : Optional.empty(),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
        RadiusPlugin plugin = (RadiusPlugin) new RadiusService().create(vs);
        plugin.attach(new PluginContext(vs, sticky ? group : null, farms, () -> 0));
        return plugin;
    }

    private static ByteBuf start(String framedIp) {
        List<RadiusAttribute> attributes = new ArrayList<>(List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START),
                RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001")));
        if (framedIp != null) {
            attributes.add(new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(),
                    addr(framedIp).getAddress()));
        }
        return accountingRequest(1, SECRET, attributes);
    }

    /** The real {@code plugin} routes an Accounting-Start with {@code framedIp} to, or null. */
    private static String routed(RadiusPlugin plugin, String framedIp) throws Exception {
        ByteBuf request = start(framedIp);
        try {
            StickyKey key = plugin.classify(request, NAS);
            // Classified as any request: by its sticky key, not by the Framed-IP-Address.
            assertThat(key.kind()).isEqualTo(RadiusModule.CALLING_STATION_ID);
            StickyBinding binding = plugin.route(request);
            return binding == null ? null : binding.farm() + "/" + binding.real();
        } finally {
            request.release();
        }
    }

    @Test
    void theLongestMatchingPrefixOfTheFarmChoosesTheReal() throws Exception {
        RadiusPlugin acct = plugin("acct", true);
        assertThat(routed(acct, "10.1.2.3")).isEqualTo("acct/127.0.0.3:1813");
        assertThat(routed(acct, "10.1.9.9")).isEqualTo("acct/127.0.0.2:1813");
        // No matching prefix, or no Framed-IP-Address: selected as usual (sticky keys, predictor).
        assertThat(routed(acct, "192.168.0.1")).isNull();
        assertThat(routed(acct, null)).isNull();
        // The route map is the binding: nothing is written to the sticky table.
        assertThat(group.size()).isZero();
    }

    @Test
    void eachVirtualServerOfAStickyGroupUsesItsOwnFarmsRouteMap() throws Exception {
        assertThat(routed(plugin("acct", true), "10.1.9.9")).isEqualTo("acct/127.0.0.2:1813");
        assertThat(routed(plugin("auth", true), "10.1.9.9")).isEqualTo("auth/127.0.0.3:1812");
        assertThat(routed(plugin("plain", true), "10.1.9.9")).isNull();
    }

    @Test
    void theRouteMapNeedsNoStickyTable() throws Exception {
        assertThat(routed(plugin("acct", false), "10.1.2.3")).isEqualTo("acct/127.0.0.3:1813");
    }

    @Test
    void aRealThatCannotServeIsNotRoutedToUntilItServesAgain() throws Exception {
        RadiusPlugin acct = plugin("acct", true);
        RealServer routedReal = farms.real("acct", "127.0.0.3:1813");
        routedReal.requestForwarded();
        routedReal.requestUnanswered(addr("192.0.2.1"), 0);
        assertThat(routedReal.servesBoundClients()).isFalse();
        // Not to the shorter prefix's real either: the request is selected like an unrouted one.
        assertThat(routed(acct, "10.1.2.3")).isNull();
        routedReal.putInService();
        assertThat(routed(acct, "10.1.2.3")).isEqualTo("acct/127.0.0.3:1813");
    }
}
