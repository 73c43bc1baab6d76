package io.switchboard.cluster;

import static io.switchboard.cluster.HazelcastStickyTableTest.imsi;
import static io.switchboard.cluster.HazelcastStickyTableTest.now;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.Director;
import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two directors built with their members' sticky-table factory share their virtual server's table. */
class DirectorOnClusterTest {

    private final TestMembers members = new TestMembers();

    @AfterEach
    void stop() {
        members.close();
    }

    private static SwitchboardConfig config() throws Exception {
        List<RealConfig> reals = List.of(
                new RealConfig(InetAddress.getByName("10.0.0.1"), 2123, 8, OptionalInt.empty(), true),
                new RealConfig(InetAddress.getByName("10.0.0.2"), 2123, 8, OptionalInt.empty(), true),
                new RealConfig(InetAddress.getByName("10.0.0.3"), 2123, 8, OptionalInt.empty(), true));
        FarmConfig farm = new FarmConfig("ggsn", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT, reals,
                Optional.empty());
        VirtualServerConfig vs = new VirtualServerConfig("gtp", new Endpoint(InetAddress.getByName("127.0.0.1"), 0),
                "gtp", "ggsn", Optional.of(new StickyConfig(List.of(StickyKind.of("imsi", StickyKind.Format.TEXT)), Duration.ofMinutes(10),
                        OptionalInt.empty(), 100_000, Optional.empty())),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true);
        return new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, Map.of("ggsn", farm),
                Map.of("gtp", vs));
    }

    /** The plug-in is never called here: selection is driven directly. */
    private static DatagramService gtp() {
        return new DatagramService() {
            @Override
            public ServiceSpec spec() {
                return ServiceSpec.udp("gtp", EnumSet.allOf(PredictorKind.class));
            }

            @Override
            public DatagramPlugin create(VirtualServerConfig config) {
                return (ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) -> Decision.direct(null);
            }
        };
    }

    private static Director director(ClusterMember member) throws Exception {
        return new Director(config(), vs -> gtp(), new SimpleMeterRegistry(), Ticker.SYSTEM, member.stickyTables());
    }

    @Test
    void aSubscriberPlacedThroughOneDirectorIsStickyOnTheOther() throws Exception {
        RealSelector a = director(members.start()).virtualServers().get("gtp").selector();
        RealSelector b = director(members.start()).virtualServers().get("gtp").selector();
        assertThat(a.sticky()).isInstanceOf(HazelcastStickyTable.class);
        assertThat(a.sticky().name()).isEqualTo("gtp/imsi");
        b.select(imsi(999), now()); // B's round robin now starts elsewhere than A's

        for (int s = 0; s < 10; s++) {
            int subscriber = s;
            Selection onA = a.select(imsi(subscriber), now());
            await().atMost(Duration.ofSeconds(5)).until(() -> b.sticky().lookup(imsi(subscriber), now()) != null);
            Selection onB = b.select(imsi(subscriber), now());
            assertThat(onB.reason()).isEqualTo(Selection.Reason.STICKY);
            assertThat(onB.real().id()).isEqualTo(onA.real().id());
        }
    }
}
