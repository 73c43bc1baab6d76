package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import io.switchboard.director.spi.RealView;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.testing.RunningDirector;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real that restarts (its GTP Echo Recovery changes) while clients are stuck to it: the director
 * counts the restart and, with {@code purge-on-restart}, removes exactly the bindings to that real
 * and tells the plug-in of the virtual server ({@link DatagramPlugin#realRestarted}); without it,
 * only counts. Peers on 127.0.6.3/.4, virtual address 127.0.6.5.
 */
class RealRestartsIT {

    /** A plug-in that keys by client address and records the restarts it is told of. */
    private static final class RecordingPlugin implements DatagramPlugin {
        final List<String> restarted = new CopyOnWriteArrayList<>();

        @Override
        public io.switchboard.director.spi.Decision decide(io.netty.buffer.ByteBuf datagram,
                java.net.InetSocketAddress sender, io.netty.buffer.ByteBufAllocator alloc) {
            return io.switchboard.director.spi.Decision.direct(StickyKey.clientAddress(sender.getAddress(), 32));
        }

        @Override
        public void realRestarted(RealView real) {
            restarted.add(real.id());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aRestartedRealLosesItsBindingsAndThePlugInIsTold(boolean purge) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RecordingPlugin plugin = new RecordingPlugin();
        DatagramService service = new DatagramService() {
            @Override
            public ServiceSpec spec() {
                return ServiceSpec.udp("udp", EnumSet.allOf(PredictorKind.class));
            }

            @Override
            public DatagramPlugin create(VirtualServerConfig config) {
                return plugin;
            }
        };
        try (GtpEchoResponder a = new GtpEchoResponder("127.0.6.3", 1);
                GtpEchoResponder b = new GtpEchoResponder("127.0.6.4", 1)) {
            List<RealConfig> reals = List.of(
                    new RealConfig(a.address().getAddress(), a.address().getPort(), 1, OptionalInt.empty(), true),
                    new RealConfig(b.address().getAddress(), b.address().getPort(), 1, OptionalInt.empty(), true));
            FarmConfig farm = new FarmConfig("pgw", PredictorKind.ROUNDROBIN, RunningDirector.LENIENT, reals,
                    Optional.empty(), List.of("echo"));
            VirtualServerConfig vs = new VirtualServerConfig("vs", new Endpoint(InetAddress.getByName("127.0.6.5"), 0),
                    "udp", "pgw", Optional.of(new StickyConfig(List.of(StickyKind.CLIENT_ADDRESS),
                            Duration.ofHours(1), OptionalInt.empty(), 1000)),
                    Duration.ofSeconds(1), Duration.ofMinutes(1), 4096, true);
            ProbeConfig echo = new ProbeConfig("echo", new GtpEchoCheck(2, 3, purge), Duration.ofMillis(100),
                    Duration.ofMillis(500), 3, OptionalInt.empty());
            SwitchboardConfig config = new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                    Map.of("pgw", farm), Map.of("vs", vs), Map.of("echo", echo));
            Director director = new Director(config, v -> service, registry, Ticker.SYSTEM);
            Vertx vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true)); // epoll, as `switchboard run`
            try {
                director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                RealServer realA = director.farms().farm("pgw").reals().get(0);
                RealServer realB = director.farms().farm("pgw").reals().get(1);
                StickyTable sticky = director.virtualServers().get("vs").selector().sticky();
                long now = Ticker.SYSTEM.nanos();
                for (int i = 1; i <= 10; i++) {
                    RealServer to = i % 2 == 0 ? realA : realB;
                    sticky.bindIfAbsent(StickyKey.clientAddress(InetAddress.getByName("10.0.0." + i), 32),
                            new StickyBinding("pgw", to.id()), now);
                }
                await().atMost(Duration.ofSeconds(10)).until(() -> a.requests.get() >= 2 && b.requests.get() >= 2);

                a.recovery = 2;
                await().atMost(Duration.ofSeconds(10)).until(() -> restarts(registry, realA) == 1);
                if (purge) {
                    await().atMost(Duration.ofSeconds(10)).until(() -> sticky.size() == 5);
                    assertThat(plugin.restarted).containsExactly(realA.id());
                } else {
                    // Give a purge every chance to show up: more checks after the restart was counted.
                    int seen = a.requests.get();
                    await().atMost(Duration.ofSeconds(10)).until(() -> a.requests.get() >= seen + 3);
                    assertThat(sticky.size()).isEqualTo(10);
                    assertThat(plugin.restarted).isEmpty();
                }
                for (int i = 1; i <= 10; i++) {
                    StickyBinding binding = sticky.lookup(
                            StickyKey.clientAddress(InetAddress.getByName("10.0.0." + i), 32), Ticker.SYSTEM.nanos());
                    if (i % 2 == 1) {
                        assertThat(binding).isEqualTo(new StickyBinding("pgw", realB.id()));
                    } else {
                        assertThat(binding).isEqualTo(purge ? null : new StickyBinding("pgw", realA.id()));
                    }
                }
                assertThat(restarts(registry, realB)).isZero();
            } finally {
                director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        }
    }

    private static double restarts(SimpleMeterRegistry registry, RealServer real) {
        var counter = registry.find("switchboard.real.restarts").tag("real", real.id()).counter();
        return counter == null ? 0 : counter.count();
    }
}
