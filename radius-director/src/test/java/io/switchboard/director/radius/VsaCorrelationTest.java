package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.accountingRequest;
import static io.switchboard.director.radius.RadiusPackets.answer;
import static io.switchboard.director.radius.RadiusPackets.bytes;
import static io.switchboard.director.radius.RadiusPackets.text;
import static io.switchboard.director.radius.RadiusPackets.view;
import static io.switchboard.director.radius.RadiusPluginTest.addr;
import static org.assertj.core.api.Assertions.assertThat;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.cluster.TestMembers;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.sticky.StickyKey;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.spi.PluginContext;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A VSA from authentication, injected into the subscriber's Accounting-Start by the grouped acct
 * virtual server: on one node, and across two cluster nodes (Hazelcast members in this JVM) when the
 * Start reaches another node than the authentication.
 */
class VsaCorrelationTest {

    static final int VENDOR = 10415;
    static final int TYPE = 22;
    static final InetSocketAddress NAS = new InetSocketAddress(addr("127.0.0.20"), 1);
    static final String CSID = "4915100000001";

    private final AtomicLong now = new AtomicLong(1);
    private final Farms farms = farms();
    private RadiusPlugin auth;
    private RadiusPlugin acct;
    private final TestMembers cluster = new TestMembers();

    VsaCorrelationTest() {
        InMemoryStickyTable group = new InMemoryStickyTable("group/s", Duration.ofHours(1), 100);
        auth = plugin("auth", group, farms, SharedTables.IN_MEMORY);
        acct = plugin("acct", group, farms, SharedTables.IN_MEMORY);
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private static Farms farms() {
        Map<String, FarmConfig> configs = new LinkedHashMap<>();
        configs.put("auth", farm("auth", 1812));
        configs.put("acct", farm("acct", 1813));
        return new Farms(configs);
    }

    private static FarmConfig farm(String name, int port) {
        return new FarmConfig(name, PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT, List.of(new RealConfig(
                addr("127.0.0.2"), port, 1, OptionalInt.empty(), true).with(RadiusModule.SECRET, "real")),
                Optional.empty());
    }

    private RadiusPlugin plugin(String farm, InMemoryStickyTable table, Farms farms, SharedTables tables) {
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(addr("127.0.0.0"), 8, "nas")),
                RadiusOptions.FramedIp.DEFAULT, RadiusOptions.DEFAULT_STATE_IDLE,
                Optional.of(new RadiusOptions.VsaCorrelation(VENDOR, TYPE, Duration.ofMinutes(10))));
        VirtualServerConfig vs = new VirtualServerConfig(farm, new Endpoint(addr("127.0.0.1"), 0), "radius",
                farm, Optional.of(new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID), Duration.ofHours(1),
                        OptionalInt.empty(), 100, Optional.of("s"))),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
        RadiusPlugin plugin = (RadiusPlugin) new RadiusService().create(vs);
        plugin.attach(new PluginContext(vs, table, farms, now::get, new SimpleMeterRegistry(), NodeSlot.SINGLE, tables));
        return plugin;
    }

    private RealServer real(String farm) {
        return farms.farm(farm).reals().get(0);
    }

    private void authenticateWithVsaInTheAccept(byte[] value) throws Exception {
        ByteBuf request = accessRequest(1, "nas", "bob", "pw", List.of(text(RadiusAttributeType.CALLING_STATION_ID, CSID)));
        long tx = auth.clientTransactionId(request);
        RadiusPlugin.Context context = auth.prepareRequest(request, 1, real("auth"), NAS);
        ByteBuf accept = answer(RadiusCode.ACCESS_ACCEPT, request, "real",
                List.of(RadiusAttribute.vendorSpecific(VENDOR, TYPE, value)));
        auth.prepareResponse(accept, tx, context);
    }

    private ByteBuf start(List<RadiusAttribute> more) throws Exception {
        return start(acct, farms, more);
    }

    private static ByteBuf start(RadiusPlugin acct, Farms farms, List<RadiusAttribute> more) throws Exception {
        List<RadiusAttribute> attributes = new java.util.ArrayList<>(List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START),
                text(RadiusAttributeType.CALLING_STATION_ID, CSID)));
        attributes.addAll(more);
        ByteBuf request = accountingRequest(7, "nas", attributes);
        acct.classify(request, NAS);
        acct.prepareRequest(request, 9, farms.farm("acct").reals().get(0), NAS);
        return request;
    }

    @Test
    void theVsaOfTheAcceptIsAddedToTheAccountingStartAndSigned() throws Exception {
        authenticateWithVsaInTheAccept(bytes("charging-id-1"));
        ByteBuf forwarded = start(List.of());
        RadiusView view = view(forwarded);
        int sub = view.findVendor(VENDOR, TYPE);
        assertThat(sub).isPositive();
        assertThat(view.buffer().toString(view.base() + sub + 2, view.attributeLength(sub) - 2,
                java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("charging-id-1");
        assertThat(view.length()).isEqualTo(forwarded.readableBytes());
        assertThat(RadiusAuthenticators.verifyRequest(view, bytes("real"))).isTrue();
        assertThat(view.identifier()).isEqualTo(9);
    }

    @Test
    void aStartThatHasTheVsaOrComesAfterTheHoldIsLeftAlone() throws Exception {
        authenticateWithVsaInTheAccept(bytes("charging-id-1"));
        ByteBuf own = start(List.of(RadiusAttribute.vendorSpecific(VENDOR, TYPE, bytes("own"))));
        RadiusView view = view(own);
        int sub = view.findVendor(VENDOR, TYPE);
        assertThat(view.attributeLength(sub)).isEqualTo(2 + 3);

        now.addAndGet(Duration.ofMinutes(11).toNanos());
        ByteBuf late = start(List.of());
        assertThat(view(late).findVendor(VENDOR, TYPE)).isNegative();
        assertThat(RadiusAuthenticators.verifyRequest(view(late), bytes("real"))).isTrue();
        assertThat(ByteBufUtil.getBytes(late)).hasSize(view(late).length());
    }

    private static String injected(ByteBuf forwarded) throws Exception {
        RadiusView view = view(forwarded);
        int sub = view.findVendor(VENDOR, TYPE);
        return sub < 0 ? null : view.buffer().toString(view.base() + sub + 2, view.attributeLength(sub) - 2,
                java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Test
    void anAccountingStartOnAnotherClusterNodeGetsTheVsaSeenInTheAuthentication() throws Exception {
        ClusterMember memberA = cluster.start();
        ClusterMember memberB = cluster.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> memberB.members().size() == 2);
        // Node A authenticates (its own group table and plug-ins); node B gets the Accounting-Start.
        InMemoryStickyTable groupA = new InMemoryStickyTable("group/s", Duration.ofHours(1), 100);
        auth = plugin("auth", groupA, farms, memberA.sharedTables());
        plugin("acct", groupA, farms, memberA.sharedTables());
        Farms farmsB = farms();
        InMemoryStickyTable groupB = new InMemoryStickyTable("group/s", Duration.ofHours(1), 100);
        plugin("auth", groupB, farmsB, memberB.sharedTables());
        RadiusPlugin acctB = plugin("acct", groupB, farmsB, memberB.sharedTables());

        assertThat(injected(start(acctB, farmsB, List.of()))).as("nothing held yet").isNull();
        authenticateWithVsaInTheAccept(bytes("charging-id-7"));
        StickyKey subscriber = StickyKey.of(RadiusModule.CALLING_STATION_ID, bytes(CSID));
        await().atMost(Duration.ofSeconds(10)).until(() -> acctB.vsaStore().get(subscriber) != null);
        ByteBuf forwarded = start(acctB, farmsB, List.of());
        assertThat(injected(forwarded)).isEqualTo("charging-id-7");
        assertThat(RadiusAuthenticators.verifyRequest(view(forwarded), bytes("real"))).isTrue();

        // The hold is the same on every node: past it, node B adds nothing.
        now.addAndGet(Duration.ofMinutes(11).toNanos());
        assertThat(injected(start(acctB, farmsB, List.of()))).isNull();
    }

    /**
     * On Linux the director reads datagrams with recvmmsg (UdpDirectorVerticle: epoll,
     * MAX_DATAGRAM_PAYLOAD_SIZE), and Netty hands each one over as a slice of the batch buffer, exactly
     * as long as the datagram: the plug-in cannot grow it in place. The Start is then forwarded as the
     * NAS sent it, re-signed, and counted, rather than an exception escaping into Netty's pipeline
     * (which lost the Start: an UnsupportedOperationException from the slice's capacity).
     */
    @Test
    void aStartInADatagramThatCannotGrowIsForwardedWithoutTheVsaAndCounted() throws Exception {
        authenticateWithVsaInTheAccept(bytes("charging-id-1"));
        List<RadiusAttribute> attributes = List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START),
                text(RadiusAttributeType.CALLING_STATION_ID, CSID));
        ByteBuf signed = accountingRequest(7, "nas", attributes);
        ByteBuf datagram = RadiusPackets.recvmmsgSlice(ByteBufUtil.getBytes(signed));
        try {
            acct.classify(datagram, NAS);
            acct.prepareRequest(datagram, 9, real("acct"), NAS);
            RadiusView view = view(datagram);
            assertThat(view.findVendor(VENDOR, TYPE)).isNegative();
            assertThat(RadiusAuthenticators.verifyRequest(view, bytes("real"))).isTrue();
            assertThat(view.identifier()).isEqualTo(9);
            assertThat(acct.vsaNotAddedForFixedBuffer()).isEqualTo(1);
        } finally {
            datagram.release();
            signed.release();
        }
    }
}
