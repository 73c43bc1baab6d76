package io.switchboard.director.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.codec.mip.MipFlags;
import io.switchboard.codec.mip.MipReplyCode;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.testing.DeclaredMeters;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.director.testing.TestFarms;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The meters the {@code ipmobile} plug-in registers are the ones {@link HaModule} declares. */
class HaMetricsTest {

    private static final int VIRTUAL_HA = 0x7f00000a;   // 127.0.0.10
    private static final int HOME = 0x0a630001;         // 10.99.0.1
    private static final int CARE_OF = 0xc0000201;      // 192.0.2.1
    private static final InetSocketAddress FOREIGN_AGENT = new InetSocketAddress("127.0.0.20", 434);

    @Test
    void aRegistrationAndItsReplyRegisterWhatTheModuleDeclares() {
        HaModule module = new HaModule();
        DatagramService service = module.services().get(0);
        VirtualServerConfig vs = new VirtualServerConfig("ha", new Endpoint(TestFarms.ip("127.0.0.10"), 434),
                service.spec().name(), "ha", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true);
        Farms farms = new Farms(Map.of("ha", TestFarms.farm("ha", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                new RealConfig(TestFarms.ip("10.30.0.3"), 434, 1, OptionalInt.empty(), true))));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EngineHarness engine = new EngineHarness(vs, farms, null, (HaPlugin) service.create(vs, registry),
                new ManualTicker());

        engine.fromClient(MipMessages.request(MipFlags.T, 1800, HOME, VIRTUAL_HA, CARE_OF, 0x11111111_00000001L, null),
                FOREIGN_AGENT);
        engine.answer(engine.lastToReal(), MipMessages.reply(MipReplyCode.ACCEPTED.value(), 1800, HOME, VIRTUAL_HA,
                0x11111111_00000001L, null));

        assertThat(engine.toClients()).as("the reply relayed").hasSize(1);
        DeclaredMeters.assertDeclared(module, registry);
    }
}
