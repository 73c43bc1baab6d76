package io.switchboard.director.asn;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.director.config.Endpoint;
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

/** The meters the {@code asn} plug-in registers are the ones {@link AsnModule} declares. */
class AsnMetricsTest {

    private static final InetSocketAddress BS = new InetSocketAddress(TestFarms.ip("127.0.2.20"), 2231);
    private static final long MSID = 0x0a1b2c3d4e5fL;

    @Test
    void aPreAttachmentExchangeRegistersWhatTheModuleDeclares() {
        AsnModule module = new AsnModule();
        DatagramService service = module.services().get(0);
        NwgRelease release = NwgRelease.R1_0_V1_2_1;
        VirtualServerConfig vs = new VirtualServerConfig("asn", new Endpoint(TestFarms.ip("127.0.2.10"), 2231),
                service.spec().name(), "gateways", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096,
                true, new AsnOptions(release, true));
        Farms farms = new Farms(Map.of("gateways", TestFarms.farm("gateways", PredictorKind.ROUNDROBIN,
                TestFarms.FAIL_AT_ONCE, new RealConfig(TestFarms.ip("127.0.2.30"), 2231, 1, OptionalInt.empty(), true))));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EngineHarness engine = new EngineHarness(vs, farms, null, (AsnPlugin) service.create(vs, registry),
                new ManualTicker());

        engine.fromClient(R6Messages.preAttachment(release, R6PreAttachment.REQUEST, MSID, 0x0777), BS);
        engine.answer(engine.lastToReal(), R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, MSID, 0x0777));

        assertThat(engine.toClients()).as("the response relayed").hasSize(1);
        DeclaredMeters.assertDeclared(module, registry);
    }
}
