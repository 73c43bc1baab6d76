package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.answer;
import static io.switchboard.director.radius.RadiusPackets.text;
import static io.switchboard.director.radius.RadiusPluginTest.addr;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.testing.DeclaredMeters;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.director.radius.radsec.RadsecOptions;
import io.switchboard.director.radius.radsec.TestCertificates;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meters the {@code radius} and {@code radius-dae} plug-ins register are the ones {@link RadiusModule} declares. */
class RadiusMetricsTest {

    private static final InetSocketAddress NAS = new InetSocketAddress(addr("127.0.0.20"), 40000);

    @TempDir
    Path certificates;

    /**
     * With {@code vsa-correlation} and {@code radsec}, whose counters exist only when they are
     * configured (RadSec's certificates made by openssl).
     */
    @Test
    void anAuthenticationRegistersWhatTheModuleDeclares() throws Exception {
        RadiusModule module = new RadiusModule();
        DatagramService service = module.services().get(0);
        RadsecOptions.TlsFiles tls = new TestCertificates(certificates).issue("director", "director.test",
                "DNS:director.test");
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(addr("127.0.0.0"), 8, "nas")),
                RadiusOptions.FramedIp.DEFAULT, RadiusOptions.DEFAULT_STATE_IDLE,
                Optional.of(new RadiusOptions.VsaCorrelation(VsaCorrelationTest.VENDOR, VsaCorrelationTest.TYPE,
                        Duration.ofMinutes(10)))).withRadsec(new RadsecOptions(true, Optional.empty(),
                RadsecOptions.Identify.ADDRESS, tls));
        VirtualServerConfig vs = new VirtualServerConfig("radius-auth", new Endpoint(addr("127.0.0.1"), 1812),
                service.spec().name(), "aaa", Optional.of(new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID),
                        Duration.ofHours(1), OptionalInt.empty(), 100)),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
        Farms farms = new Farms(Map.of("aaa", new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                List.of(new RealConfig(addr("127.0.0.2"), 1812, 1, OptionalInt.empty(), true)
                        .with(RadiusModule.SECRET, "real")), Optional.empty())));
        InMemoryStickyTable table = new InMemoryStickyTable("radius-auth", Duration.ofHours(1), 100);
        ManualTicker ticker = new ManualTicker();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RadiusPlugin plugin = (RadiusPlugin) service.create(vs, registry);
        plugin.attach(new PluginContext(vs, table, farms, ticker, registry, NodeSlot.SINGLE, SharedTables.IN_MEMORY));
        EngineHarness engine = new EngineHarness(vs, farms, table, plugin, ticker);

        ByteBuf request = accessRequest(1, "nas", "bob", "pw",
                List.of(text(RadiusAttributeType.CALLING_STATION_ID, VsaCorrelationTest.CSID)));
        engine.fromClient(ByteBufUtil.getBytes(request), NAS);
        request.release();
        ByteBuf forwarded = Unpooled.wrappedBuffer(engine.lastToReal().bytes());
        ByteBuf accept = answer(RadiusCode.ACCESS_ACCEPT, forwarded, "real", List.of(
                RadiusAttribute.vendorSpecific(VsaCorrelationTest.VENDOR, VsaCorrelationTest.TYPE, new byte[] {1, 2})));
        engine.answer(engine.lastToReal(), ByteBufUtil.getBytes(accept));
        accept.release();

        assertThat(engine.toClients()).as("the Access-Accept relayed").hasSize(1);
        // The radius-dae listener registers the DAE counters.
        DatagramService dae = module.services().get(1);
        VirtualServerConfig daeVs = new VirtualServerConfig("dae", new Endpoint(addr("127.0.0.1"), 3799),
                dae.spec().name(), "aaa", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true,
                new DaeOptions(List.of(new DaeOptions.Nas(options.clients().get(0), 3799)), "radius-auth"));
        dae.create(daeVs, registry).attach(new PluginContext(daeVs, null, farms, ticker, registry, NodeSlot.SINGLE,
                SharedTables.IN_MEMORY));
        DeclaredMeters.assertDeclared(module, registry);
    }
}
