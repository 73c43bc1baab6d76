package io.switchboard.director.transaction;

import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.ip;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.director.testing.TestFarms;
import io.switchboard.director.testing.ToyPlugin;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/** One virtual server "toy" over farm "toys" (round robin, weight 1 each), for the engine's tests. */
final class EngineFixture {

    static final Duration TIMEOUT = Duration.ofSeconds(2);
    static final Duration IDLE = Duration.ofMinutes(1);
    static final InetSocketAddress ALICE = new InetSocketAddress(ip("192.0.2.1"), 1000);
    static final InetSocketAddress BOB = new InetSocketAddress(ip("192.0.2.2"), 1000);

    final ManualTicker ticker = new ManualTicker();
    final Farms farms;

    /** @param reals addresses of the farm's reals, port 2123 */
    EngineFixture(FailureDetection failure, String... reals) {
        RealConfig[] configs = Arrays.stream(reals).map(a -> TestFarms.real(a, 1)).toArray(RealConfig[]::new);
        this.farms = new Farms(Map.of("toys", farm("toys", PredictorKind.ROUNDROBIN, failure, configs)));
    }

    static VirtualServerConfig config(int maxDatagram) {
        return new VirtualServerConfig("toy", new Endpoint(ip("127.0.0.1"), 0), "udp", "toys",
                Optional.empty(), TIMEOUT, IDLE, maxDatagram, true);
    }

    RealServer real(String address) {
        return farms.real("toys", TestFarms.id(address));
    }

    /** The engine over the farm for {@code plugin}; {@code sticky}: with a sticky table (by the toy's key). */
    EngineHarness harness(ToyPlugin plugin, boolean sticky) {
        return new EngineHarness(config(2048), farms, sticky ? new InMemoryStickyTable("toy", Duration.ofHours(1), 1000)
                : null, plugin, ticker);
    }
}
