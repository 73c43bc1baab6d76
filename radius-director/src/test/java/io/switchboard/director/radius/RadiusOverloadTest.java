package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.OverloadConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.testing.ManualTicker;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * A RADIUS virtual server limited to 3 new requests a second, through the engine: Access-Requests past
 * the rate are discarded without an answer (RFC 2865 §2) and counted, Accounting-Requests (session
 * work) all go to the real, and a NAS's retransmission of an admitted request still follows it.
 */
class RadiusOverloadTest {

    private static final InetSocketAddress NAS = new InetSocketAddress(RadiusPluginTest.addr("127.0.0.20"), 40000);

    @Test
    void accessRequestsPastTheRateAreDiscardedAndCountedAccountingIsServed() {
        ManualTicker ticker = new ManualTicker();
        Farms farms = new Farms(Map.of("aaa", new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                List.of(new RealConfig(RadiusPluginTest.addr("127.0.0.2"), 1812, 1, OptionalInt.empty(), true)
                        .with(RadiusModule.SECRET, RadiusFixture.REAL_SECRET)), Optional.empty())));
        VirtualServerConfig vs = new VirtualServerConfig("radius-auth", new Endpoint(RadiusPluginTest.addr("127.0.0.1"), 0),
                "radius", "aaa", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true,
                new RadiusOptions(List.of(new RadiusOptions.Client(RadiusPluginTest.addr("127.0.0.0"), 8,
                        RadiusFixture.CLIENT_SECRET))), new OverloadConfig(3, 0, 0, 20, Duration.ofSeconds(1)));
        RadiusPlugin plugin = (RadiusPlugin) new RadiusService().create(vs);
        EngineHarness engine = new EngineHarness(vs, farms, null, plugin, ticker);
        plugin.attach(new PluginContext(vs, null, farms, ticker, engine.registry(), NodeSlot.SINGLE,
                SharedTables.IN_MEMORY));

        byte[] first = null;
        for (int id = 0; id < 10; id++) {
            ByteBuf request = RadiusPackets.accessRequest(id, RadiusFixture.CLIENT_SECRET, "user" + id, "pw", List.of());
            byte[] bytes = ByteBufUtil.getBytes(request);
            request.release();
            first = first == null ? bytes : first;
            engine.fromClient(bytes, NAS);
        }
        assertThat(engine.toReals()).as("3 a second, burst 1 s").hasSize(3);
        assertThat(engine.toClients()).as("a shed RADIUS request gets no answer").isEmpty();
        assertThat(engine.metrics().droppedCount(EngineDrops.OVERLOAD)).isEqualTo(7);
        assertThat(engine.registry().get("switchboard.overload.refused").tag("work", "new").tag("limit", "new-rate")
                .counter().count()).isEqualTo(7);

        engine.fromClient(first, NAS);
        assertThat(engine.toReals()).as("the retransmission of an admitted request goes where it went").hasSize(4);
        assertThat(engine.metrics().retransmittedCount()).isEqualTo(1);

        for (int id = 10; id < 30; id++) {
            ByteBuf stop = RadiusPackets.accountingRequest(id, RadiusFixture.CLIENT_SECRET, List.of(
                    RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, id % 2 == 0
                            ? RadiusAcctStatusType.STOP : RadiusAcctStatusType.INTERIM_UPDATE),
                    RadiusPackets.text(RadiusAttributeType.USER_NAME, "user" + id)));
            engine.fromClient(ByteBufUtil.getBytes(stop), NAS);
            stop.release();
        }
        assertThat(engine.toReals()).as("every Stop and Interim-Update is session work").hasSize(24);
        assertThat(engine.metrics().droppedCount(EngineDrops.OVERLOAD)).isEqualTo(7);
        engine.close();
    }
}
