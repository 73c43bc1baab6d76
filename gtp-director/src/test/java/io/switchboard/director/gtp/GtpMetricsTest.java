package io.switchboard.director.gtp;

import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.testing.DeclaredMeters;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.director.testing.TestFarms;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The meters the {@code gtp} and {@code gtp-inspect} plug-ins register are the ones {@link GtpModule} declares. */
class GtpMetricsTest {

    private static final InetSocketAddress SGSN = new InetSocketAddress(ip("127.0.1.20"), 2123);

    private final ManualTicker ticker = new ManualTicker();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Farms farms = TestFarms.farms(farm("ggsn", PredictorKind.ROUNDROBIN, TestFarms.FAIL_AT_ONCE,
            real("127.0.1.30", 1)));

    /** Each service's plug-in, made and attached as the director does, counting into {@link #registry}. */
    private EngineHarness virtualServer(DatagramService service, String address) {
        VirtualServerConfig vs = new VirtualServerConfig(service.spec().name(), new Endpoint(ip(address), 2123),
                service.spec().name(), "ggsn", Optional.empty(), Duration.ofSeconds(5), Duration.ofMinutes(1), 4096,
                true);
        DatagramPlugin plugin = service.create(vs, registry);
        plugin.attach(new PluginContext(vs, null, farms, ticker, registry));
        return new EngineHarness(vs, farms, null, (TransactionPlugin<?>) plugin, ticker);
    }

    @Test
    void bothServicesAndASessionRegisterWhatTheModuleDeclares() throws Exception {
        GtpModule module = new GtpModule();
        virtualServer(module.services().get(0), "127.0.1.10");
        EngineHarness inspect = virtualServer(module.services().get(1), "127.0.1.11");

        // A create and its acceptance: the messages of both ways, and the real's open-sessions gauge.
        inspect.fromClient(GtpMessages.v1CreateRequest("262420000006001", 0x0100, 5, SGSN.getAddress().getAddress()),
                SGSN);
        EngineHarness.ToReal sent = inspect.lastToReal();
        long realFacing = new GtpMessageView().wrap(Unpooled.wrappedBuffer(sent.bytes())).senderControlPlane().teid();
        inspect.answer(sent, GtpMessages.v1CreateResponse((int) sent.transactionId(), 128, realFacing, 0x7777,
                new byte[] {10, 9, 8, 7}));

        assertThat(inspect.toClients()).as("the Create PDP Context Response relayed").hasSize(1);
        DeclaredMeters.assertDeclared(module, registry);
    }
}
