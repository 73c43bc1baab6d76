package io.switchboard.director.radius;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.testing.EngineHarness;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One RADIUS virtual server without sticky table, one real (127.0.0.2:1812, its own secret), a clock
 * the test moves, and the engine over it ({@link EngineHarness}): for the tests of what the plug-in
 * does on the wire, request to answer.
 */
final class RadiusFixture {

    static final String CLIENT_SECRET = "nas-secret";
    static final String REAL_SECRET = "aaa-secret-which-differs";
    static final InetSocketAddress NAS = new InetSocketAddress(RadiusPluginTest.addr("127.0.0.20"), 40000);

    final AtomicLong now = new AtomicLong(1_000_000_000L);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final RadiusPlugin plugin;
    final RealServer real;
    final EngineHarness engine;

    /**
     * @param realRequires the real's {@code require-message-authenticator}, or null for the default
     */
    RadiusFixture(RadiusOptions options, RadiusOptions.Tristate realRequires) {
        RealConfig rc = new RealConfig(RadiusPluginTest.addr("127.0.0.2"), 1812, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, REAL_SECRET);
        if (realRequires != null) {
            rc = rc.with(RadiusModule.REQUIRE_MESSAGE_AUTHENTICATOR, realRequires);
        }
        Farms farms = new Farms(Map.of("aaa", new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                List.of(rc), Optional.empty())));
        VirtualServerConfig vs = new VirtualServerConfig("radius-auth", new Endpoint(RadiusPluginTest.addr("127.0.0.1"), 0),
                "radius", "aaa", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
        this.plugin = (RadiusPlugin) new RadiusService().create(vs);
        plugin.attach(new PluginContext(vs, null, farms, now::get, registry, NodeSlot.SINGLE, SharedTables.IN_MEMORY));
        this.real = farms.farm("aaa").reals().get(0);
        this.engine = new EngineHarness(vs, farms, null, plugin, now::get);
    }

    /** The client 127.0.0.0/8 with {@code CLIENT_SECRET} and these defences, everything else at its default. */
    static RadiusOptions options(RadiusOptions.Tristate require, RadiusOptions.Tristate limitProxyState) {
        return new RadiusOptions(List.of(new RadiusOptions.Client(RadiusPluginTest.addr("127.0.0.0"), 8, CLIENT_SECRET,
                require, limitProxyState)));
    }

    /** A meter's count, 0 when it is not registered. */
    double count(String name, String tag, String value) {
        var counter = registry.find(name).tag(tag, value).counter();
        return counter == null ? 0 : counter.count();
    }

    static InetAddress address(String text) {
        return RadiusPluginTest.addr(text);
    }
}
