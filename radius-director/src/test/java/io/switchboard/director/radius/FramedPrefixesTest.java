package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.accountingRequest;
import static io.switchboard.director.radius.RadiusPackets.answer;
import static io.switchboard.director.radius.RadiusPluginTest.addr;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.codec.radius.RadiusAcctStatusType;
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
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The Framed-IP table with both families: Framed-IPv6-Prefix and Delegated-IPv6-Prefix learnt,
 * purged and keyed on like Framed-IP-Address, and the route map over IPv6 prefixes. End to end with
 * FreeRADIUS and radclient: {@code Ipv6SubscribersIT}.
 */
class FramedPrefixesTest {

    static final String SECRET = "nas-and-aaa";
    static final InetSocketAddress NAS = new InetSocketAddress(addr("127.0.0.20"), 40000);
    static final InetSocketAddress OTHER_NAS = new InetSocketAddress(addr("127.0.0.21"), 40000);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final InMemoryStickyTable table = new InMemoryStickyTable("t", Duration.ofHours(1), 1000);
    private final Farms farms;
    private final RealServer aaa1;
    private final RealServer aaa2;

    FramedPrefixesTest() {
        List<RealConfig> reals = List.of(real("127.0.0.2"), real("127.0.0.3"));
        // The route map: 2001:db8:8::/48 to aaa2, 2001:db8:8:1::/64 to aaa1, 10.8.0.0/16 to aaa1.
        Map<Subnet, Endpoint> routes = new LinkedHashMap<>();
        routes.put(new Subnet(addr("2001:db8:8::"), 48), reals.get(1).endpoint());
        routes.put(new Subnet(addr("2001:db8:8:1::"), 64), reals.get(0).endpoint());
        routes.put(new Subnet(addr("10.8.0.0"), 16), reals.get(0).endpoint());
        Map<String, FarmConfig> configs = new LinkedHashMap<>();
        configs.put("aaa", new FarmConfig("aaa", PredictorKind.ROUTE_MAP, FailureDetection.DEFAULT, reals,
                Optional.empty(), List.of(), Optional.empty(), routes));
        farms = new Farms(configs);
        aaa1 = farms.real("aaa", "127.0.0.2:1813");
        aaa2 = farms.real("aaa", "127.0.0.3:1813");
    }

    private static RealConfig real(String address) {
        return new RealConfig(addr(address), 1813, 1, OptionalInt.empty(), true).with(RadiusModule.SECRET, SECRET);
    }

    private RadiusPlugin plugin(List<StickyKind> keys) {
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(addr("127.0.0.0"), 8, SECRET)));
        VirtualServerConfig vs = new VirtualServerConfig("radius", new Endpoint(addr("127.0.0.1"), 0), "radius", "aaa",
                Optional.of(new StickyConfig(keys, Duration.ofHours(1), OptionalInt.empty(), 1000)),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
        RadiusPlugin plugin = (RadiusPlugin) new RadiusService().create(vs);
        plugin.attach(new PluginContext(vs, table, farms, now::get, new SimpleMeterRegistry(), NodeSlot.SINGLE,
                SharedTables.IN_MEMORY));
        return plugin;
    }

    /** The attribute in RFC 3162 §2.3's layout, sending only the octets the length needs. */
    static RadiusAttribute prefix(RadiusAttributeType type, String text) {
        String[] parts = text.split("/");
        int bits = Integer.parseInt(parts[1]);
        byte[] address = addr(parts[0]).getAddress();
        byte[] value = new byte[2 + (bits + 7) / 8];
        value[1] = (byte) bits;
        System.arraycopy(address, 0, value, 2, value.length - 2);
        return new RadiusAttribute(type.value(), value);
    }

    static StickyKey key(StickyKind kind, String text) {
        return StickyKey.parse(kind, text);
    }

    /** An Accounting-Request of {@code status} from {@code nas} with {@code attributes}, acknowledged by {@code real}. */
    private void account(RadiusPlugin plugin, InetSocketAddress nas, RealServer real, int status,
            RadiusAttribute... attributes) throws Exception {
        List<RadiusAttribute> all = new ArrayList<>();
        all.add(RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, status));
        all.addAll(Arrays.asList(attributes));
        ByteBuf request = accountingRequest(4, SECRET, all);
        long tx = plugin.clientTransactionId(request);
        RadiusPlugin.Context context = plugin.prepareRequest(request, 4, real, nas);
        plugin.prepareResponse(answer(RadiusCode.ACCOUNTING_RESPONSE, request, SECRET, List.of()), tx, context);
    }

    private StickyBinding bound(StickyKey key) {
        return table.lookup(key, now.get());
    }

    @Test
    void bothFamiliesAreLearntFromTheStartAndEndWithTheStop() throws Exception {
        RadiusPlugin plugin = plugin(List.of(RadiusModule.CALLING_STATION_ID));
        StickyKey v4 = key(RadiusModule.FRAMED_IP, "10.9.0.1");
        StickyKey link = key(RadiusModule.FRAMED_IPV6_PREFIX, "2001:db8:1:2::/64");
        StickyKey second = key(RadiusModule.FRAMED_IPV6_PREFIX, "2001:db8:1:3::/64");
        StickyKey delegated = key(RadiusModule.DELEGATED_IPV6_PREFIX, "2001:db8:ff00::/56");
        RadiusAttribute[] session = {
            new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), addr("10.9.0.1").getAddress()),
            prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:1:2::/64"),
            // RFC 3162 §2.3: Framed-IPv6-Prefix "can appear multiple times".
            prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:1:3::/64"),
            prefix(RadiusAttributeType.DELEGATED_IPV6_PREFIX, "2001:db8:ff00::/56")};
        account(plugin, NAS, aaa2, RadiusAcctStatusType.START, session);
        for (StickyKey k : List.of(v4, link, second, delegated)) {
            assertThat(bound(k)).as(k.kind() + " " + k).isEqualTo(aaa2.binding());
        }
        // An Interim-Update acknowledged by another real moves them there (the AAA said so).
        account(plugin, NAS, aaa1, RadiusAcctStatusType.INTERIM_UPDATE, session);
        assertThat(bound(delegated)).isEqualTo(aaa1.binding());
        account(plugin, NAS, aaa1, RadiusAcctStatusType.STOP, session);
        for (StickyKey k : List.of(v4, link, second, delegated)) {
            assertThat(bound(k)).as(k.kind() + " " + k).isNull();
        }
    }

    @Test
    void anAcceptTeachesItsPrefixesAndAccountingOnPurgesTheClientsOfBothFamiliesOnly() throws Exception {
        RadiusPlugin plugin = plugin(List.of(RadiusModule.CALLING_STATION_ID));
        ByteBuf auth = accessRequest(1, SECRET, "alice", "pw", List.of());
        long tx = plugin.clientTransactionId(auth);
        RadiusPlugin.Context context = plugin.prepareRequest(auth, 1, aaa1, NAS);
        plugin.prepareResponse(answer(RadiusCode.ACCESS_ACCEPT, auth, SECRET, List.of(
                prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:a::/64"),
                prefix(RadiusAttributeType.DELEGATED_IPV6_PREFIX, "2001:db8:b::/48"))), tx, context);
        StickyKey link = key(RadiusModule.FRAMED_IPV6_PREFIX, "2001:db8:a::/64");
        StickyKey delegated = key(RadiusModule.DELEGATED_IPV6_PREFIX, "2001:db8:b::/48");
        assertThat(bound(link)).isEqualTo(aaa1.binding());
        assertThat(bound(delegated)).isEqualTo(aaa1.binding());
        account(plugin, NAS, aaa2, RadiusAcctStatusType.START,
                new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), addr("10.9.0.2").getAddress()));
        // Another NAS's subscriber.
        account(plugin, OTHER_NAS, aaa2, RadiusAcctStatusType.START,
                prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:c::/64"));

        account(plugin, NAS, aaa1, RadiusAcctStatusType.ACCOUNTING_ON);
        assertThat(bound(link)).isNull();
        assertThat(bound(delegated)).isNull();
        assertThat(bound(key(RadiusModule.FRAMED_IP, "10.9.0.2"))).isNull();
        assertThat(bound(key(RadiusModule.FRAMED_IPV6_PREFIX, "2001:db8:c::/64"))).isEqualTo(aaa2.binding());
    }

    @Test
    void aRequestIsKeyedByItsPrefixWhenTheStickyKeysNameIt() throws Exception {
        RadiusPlugin plugin = plugin(List.of(RadiusModule.DELEGATED_IPV6_PREFIX, RadiusModule.FRAMED_IPV6_PREFIX,
                RadiusModule.CALLING_STATION_ID));
        // A /64 sent in all 16 octets is the same key as the 8-octet form.
        byte[] full = new byte[18];
        full[1] = 64;
        System.arraycopy(addr("2001:db8:1:2::").getAddress(), 0, full, 2, 16);
        ByteBuf hint = accessRequest(1, SECRET, "alice", "pw", List.of(
                RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001"),
                new RadiusAttribute(RadiusAttributeType.FRAMED_IPV6_PREFIX.value(), full)));
        assertThat(plugin.classify(hint, NAS)).isEqualTo(key(RadiusModule.FRAMED_IPV6_PREFIX, "2001:db8:1:2::/64"));
        // The first configured key present wins.
        ByteBuf both = accessRequest(2, SECRET, "alice", "pw", List.of(
                prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:1:2::/64"),
                prefix(RadiusAttributeType.DELEGATED_IPV6_PREFIX, "2001:db8:ff00::/56")));
        assertThat(plugin.classify(both, NAS)).isEqualTo(key(RadiusModule.DELEGATED_IPV6_PREFIX, "2001:db8:ff00::/56"));
        // A malformed prefix (a /64 in 4 octets) is no key: the next kind is tried.
        ByteBuf malformed = accessRequest(3, SECRET, "alice", "pw", List.of(
                RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001"),
                new RadiusAttribute(RadiusAttributeType.FRAMED_IPV6_PREFIX.value(), new byte[] {0, 64, 0x20, 1, 0x0d, (byte) 0xb8})));
        assertThat(plugin.classify(malformed, NAS)).isEqualTo(key(RadiusModule.CALLING_STATION_ID, "4915100000001"));
    }

    @Test
    void theRouteMapTakesAFramedIpv6PrefixThatLiesWhollyInOneOfItsPrefixes() throws Exception {
        RadiusPlugin plugin = plugin(List.of(RadiusModule.CALLING_STATION_ID));
        assertThat(routed(plugin, prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:8:1::/64")))
                .isEqualTo(aaa1.binding());
        assertThat(routed(plugin, prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:8:2::/64")))
                .isEqualTo(aaa2.binding());
        // A /56 that holds the /64 is not in it: the /48 holds it.
        assertThat(routed(plugin, prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:8::/56")))
                .isEqualTo(aaa2.binding());
        assertThat(routed(plugin, prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:9::/64"))).isNull();
        // The delegated prefix names the subscriber's own network: it does not route.
        assertThat(routed(plugin, prefix(RadiusAttributeType.DELEGATED_IPV6_PREFIX, "2001:db8:8:1::/64"))).isNull();
        // Framed-IP-Address first; an IPv4 address outside the map leaves the IPv6 prefix to route.
        RadiusAttribute v6 = prefix(RadiusAttributeType.FRAMED_IPV6_PREFIX, "2001:db8:8:2::/64");
        assertThat(routed(plugin, new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(),
                addr("10.8.0.1").getAddress()), v6)).isEqualTo(aaa1.binding());
        assertThat(routed(plugin, new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(),
                addr("192.0.2.1").getAddress()), v6)).isEqualTo(aaa2.binding());
        assertThat(table.size()).as("the route map is the binding").isZero();
    }

    private static StickyBinding routed(RadiusPlugin plugin, RadiusAttribute... attributes) throws Exception {
        List<RadiusAttribute> all = new ArrayList<>();
        all.add(RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START));
        all.addAll(Arrays.asList(attributes));
        ByteBuf request = accountingRequest(1, SECRET, all);
        try {
            return plugin.route(request);
        } finally {
            request.release();
        }
    }
}
