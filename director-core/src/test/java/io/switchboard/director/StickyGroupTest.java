package io.switchboard.director;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.ip;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.PluginContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Sticky groups: virtual servers of different farms share one table and follow each other by address. */
class StickyGroupTest {

    private static final StickyKey ALICE = StickyKey.parse(TestKinds.CALLING_STATION_ID, "4915100000001");

    private static RealConfig real(String address, int port) {
        return new RealConfig(ip(address), port, 1, OptionalInt.empty(), true);
    }

    private static FarmConfig farm(String name, int port) {
        return new FarmConfig(name, PredictorKind.ROUNDROBIN, FAIL_AT_ONCE,
                List.of(real("10.0.0.1", port), real("10.0.0.2", port)), Optional.empty());
    }

    private static VirtualServerConfig vs(String name, String farm, String group) {
        return new VirtualServerConfig(name, new Endpoint(ip("127.0.0.1"), 0), "radius", farm,
                Optional.of(new StickyConfig(List.of(TestKinds.CALLING_STATION_ID), Duration.ofHours(1),
                        OptionalInt.empty(), 1000, Optional.ofNullable(group))),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true);
    }

    @Test
    void aKeyBoundByOneVirtualServerGoesToTheRealWithTheSameAddressInTheOthersFarm() {
        Map<String, FarmConfig> configs = new LinkedHashMap<>();
        configs.put("auth", farm("auth", 1812));
        configs.put("acct", farm("acct", 1813));
        Farms farms = new Farms(configs);
        StickyTable table = new io.switchboard.director.sticky.InMemoryStickyTable("group/s", Duration.ofHours(1), 100);
        RealSelector auth = new RealSelector(farms, farms.farm("auth"), table, true);
        RealSelector acct = new RealSelector(farms, farms.farm("acct"), table, true);

        Selection first = auth.select(ALICE, 0);
        assertThat(first.reason()).isEqualTo(Selection.Reason.PREDICTOR);
        String address = first.real().address().getAddress().getHostAddress();
        Selection followed = acct.select(ALICE, 1);
        assertThat(followed.reason()).isEqualTo(Selection.Reason.STICKY);
        assertThat(followed.real().farm()).isEqualTo("acct");
        assertThat(followed.real().id()).isEqualTo(address + ":1813");

        // The acct real of that address fails: acct rebinds the key, and auth follows the new address.
        RealServer failing = followed.real();
        failing.requestForwarded();
        failing.requestUnanswered(ip("192.0.2.1"), 2);
        assertThat(failing.state()).isEqualTo(RealState.FAILED);
        Selection moved = acct.select(ALICE, 3);
        assertThat(moved.reason()).isEqualTo(Selection.Reason.REASSIGNED);
        String other = moved.real().address().getAddress().getHostAddress();
        assertThat(other).isNotEqualTo(address);
        assertThat(auth.select(ALICE, 4).real().id()).isEqualTo(other + ":1812");
        assertThat(table.lookup(ALICE, 5)).isEqualTo(new StickyBinding("acct", other + ":1813"));
    }

    @Test
    void ungroupedSelectorsDoNotTranslate() {
        Map<String, FarmConfig> configs = new LinkedHashMap<>();
        configs.put("auth", farm("auth", 1812));
        configs.put("acct", farm("acct", 1813));
        Farms farms = new Farms(configs);
        RealSelector acct = new RealSelector(farms, farms.farm("acct"), null, false);
        assertThat(acct.resolve(new StickyBinding("auth", "10.0.0.1:1812")).farm()).isEqualTo("auth");
    }

    @Test
    void theDirectorGivesAGroupOneTableAndHandsItToThePlugins() {
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("auth", farm("auth", 1812));
        farms.put("acct", farm("acct", 1813));
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        vservers.put("a", vs("a", "auth", "subscribers"));
        vservers.put("b", vs("b", "acct", "subscribers"));
        vservers.put("c", vs("c", "acct", null));
        List<PluginContext> attached = new ArrayList<>();
        DatagramService service = new DatagramService() {
            @Override
            public ServiceSpec spec() {
                return ServiceSpec.udp("radius", EnumSet.allOf(PredictorKind.class));
            }

            @Override
            public DatagramPlugin create(VirtualServerConfig config) {
                return new DatagramPlugin() {
                    @Override
                    public io.switchboard.director.spi.Decision decide(io.netty.buffer.ByteBuf datagram,
                            java.net.InetSocketAddress sender, io.netty.buffer.ByteBufAllocator alloc) {
                        return io.switchboard.director.spi.Decision.direct(ALICE);
                    }

                    @Override
                    public void attach(PluginContext context) {
                        attached.add(context);
                    }
                };
            }
        };
        Director director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms,
                vservers), v -> service, new SimpleMeterRegistry(), Ticker.SYSTEM);
        StickyTable a = director.virtualServers().get("a").selector().sticky();
        StickyTable b = director.virtualServers().get("b").selector().sticky();
        StickyTable c = director.virtualServers().get("c").selector().sticky();
        assertThat(a).isSameAs(b).isNotSameAs(c);
        assertThat(a.name()).isEqualTo("group/subscribers");
        // Balancers outside the virtual servers (dispatched mode) read the same table by group name.
        assertThat(director.stickyGroup("subscribers")).isSameAs(a);
        assertThat(director.stickyGroup("nobody")).isNull();
        assertThat(attached).hasSize(3);
        assertThat(attached.get(1).sticky()).isSameAs(a);
        assertThat(attached.get(2).config().name()).isEqualTo("c");
    }
}
