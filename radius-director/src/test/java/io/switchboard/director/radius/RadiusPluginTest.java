package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.accountingRequest;
import static io.switchboard.director.radius.RadiusPackets.answer;
import static io.switchboard.director.radius.RadiusPackets.bytes;
import static io.switchboard.director.radius.RadiusPackets.messageAuthenticator;
import static io.switchboard.director.radius.RadiusPackets.text;
import static io.switchboard.director.radius.RadiusPackets.view;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.cluster.TestMembers;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.Ticker;
import io.switchboard.director.shared.SharedTables;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
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
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.testing.EngineHarness;
import io.switchboard.director.spi.PluginContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The RADIUS plug-in on its own: admission, keys, re-signing both ways, and what answers teach. */
class RadiusPluginTest {

    static final String CLIENT_SECRET = "nas-secret";
    static final String REAL_SECRET = "aaa-secret-which-differs";
    static final InetSocketAddress NAS = new InetSocketAddress(addr("127.0.0.20"), 40000);
    static final InetSocketAddress STRANGER = new InetSocketAddress(addr("192.0.2.1"), 40000);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private RadiusPlugin plugin;
    private RealServer real;
    private StickyTable table;

    static InetAddress addr(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @BeforeEach
    void setUp() {
        plugin = plugin(SharedTables.IN_MEMORY);
        real = farms.farm("aaa").reals().get(0);
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private Farms farms;
    /** The virtual server of the last plug-in made by {@link #plugin(SharedTables, boolean)}. */
    private VirtualServerConfig config;
    private final TestMembers cluster = new TestMembers();

    /** The plug-in of one node, with farms and a sticky table of its own. */
    private RadiusPlugin plugin(SharedTables tables) {
        return plugin(tables, false);
    }

    /**
     * The plug-in of one node, with farms and a sticky table of its own; {@code correlatingAndRouting}
     * adds VSA correlation ({@link VsaCorrelationTest#VENDOR}/{@link VsaCorrelationTest#TYPE}) and a
     * route map sending 10.0.0.0/8 to the farm's real.
     */
    private RadiusPlugin plugin(SharedTables tables, boolean correlatingAndRouting) {
        RealConfig rc = new RealConfig(addr("127.0.0.2"), 1812, 1, OptionalInt.empty(), true).with(RadiusModule.SECRET, REAL_SECRET);
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("aaa", correlatingAndRouting
                ? new FarmConfig("aaa", PredictorKind.ROUTE_MAP, FailureDetection.DEFAULT, List.of(rc), Optional.empty(),
                        List.of(), Optional.empty(), Map.of(new Subnet(addr("10.0.0.0"), 8), rc.endpoint()))
                : new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT, List.of(rc),
                        Optional.empty()));
        Farms f = new Farms(farms);
        this.farms = f;
        List<RadiusOptions.Client> clients = List.of(
                new RadiusOptions.Client(addr("127.0.0.0"), 8, CLIENT_SECRET),
                new RadiusOptions.Client(addr("127.0.0.99"), 32, "other"));
        RadiusOptions options = correlatingAndRouting
                ? new RadiusOptions(clients, RadiusOptions.FramedIp.DEFAULT, RadiusOptions.DEFAULT_STATE_IDLE,
                        Optional.of(new RadiusOptions.VsaCorrelation(VsaCorrelationTest.VENDOR, VsaCorrelationTest.TYPE,
                                Duration.ofMinutes(10))))
                : new RadiusOptions(clients);
        StickyConfig sticky = new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID, RadiusModule.USERNAME),
                Duration.ofHours(1), OptionalInt.empty(), 1000);
        VirtualServerConfig vs = new VirtualServerConfig("radius-auth", new Endpoint(addr("127.0.0.1"), 0),
                "radius", "aaa", Optional.of(sticky), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096,
                true, options);
        this.config = vs;
        RadiusPlugin created = (RadiusPlugin) new RadiusService().create(vs);
        table = new InMemoryStickyTable("t", Duration.ofHours(1), 1000);
        created.attach(new PluginContext(vs, table, f, now::get, new SimpleMeterRegistry(), NodeSlot.SINGLE, tables));
        return created;
    }

    private static DropReason reason(ThrowingRunnable r) {
        try {
            r.run();
        } catch (DecodeException e) {
            return e.reason();
        }
        throw new AssertionError("not dropped");
    }

    interface ThrowingRunnable {
        void run() throws DecodeException;
    }

    @Test
    void admitsOnlyKnownClientsWithValidAuthenticators() throws Exception {
        ByteBuf good = accessRequest(7, CLIENT_SECRET, "alice", "pw", List.of(messageAuthenticator()));
        assertThat(plugin.classify(good, NAS)).isEqualTo(StickyKey.of(RadiusModule.USERNAME, bytes("alice")));
        assertThat(plugin.count(true, RadiusCode.ACCESS_REQUEST)).isEqualTo(1);
        assertThat(reason(() -> plugin.classify(good, STRANGER))).isEqualTo(EngineDrops.CLIENT_NOT_ALLOWED);
        // 127.0.0.99 has a more specific entry with another secret: the longest prefix wins.
        assertThat(reason(() -> plugin.classify(good, new InetSocketAddress(addr("127.0.0.99"), 1))))
                .isEqualTo(RadiusPlugin.BAD_MESSAGE_AUTHENTICATOR);

        ByteBuf badMa = accessRequest(7, "wrong", "alice", "pw", List.of(messageAuthenticator()));
        assertThat(reason(() -> plugin.classify(badMa, NAS))).isEqualTo(RadiusPlugin.BAD_MESSAGE_AUTHENTICATOR);

        ByteBuf badAcct = accountingRequest(8, "wrong", List.of(RadiusAttribute.integer(
                RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START)));
        assertThat(reason(() -> plugin.classify(badAcct, NAS))).isEqualTo(RadiusPlugin.BAD_AUTHENTICATOR);

        ByteBuf truncated = good.copy(0, 12);
        assertThat(reason(() -> plugin.classify(truncated, NAS))).isEqualTo(DropReason.TRUNCATED);

        ByteBuf overrun = good.copy();
        overrun.setByte(RadiusView.HEADER_LENGTH + 1, 200); // User-Name claims 200 octets
        assertThat(reason(() -> plugin.classify(overrun, NAS))).isEqualTo(RadiusView.BAD_ATTRIBUTE);

        ByteBuf accept = answer(RadiusCode.ACCESS_ACCEPT, good, CLIENT_SECRET, List.of());
        assertThat(reason(() -> plugin.classify(accept, NAS))).isEqualTo(DropReason.UNEXPECTED_MESSAGE);
        // Only the one admitted request was counted.
        assertThat(plugin.count(true, RadiusCode.ACCESS_REQUEST)).isEqualTo(1);
        assertThat(plugin.count(true, RadiusCode.ACCOUNTING_REQUEST)).isZero();
    }

    /**
     * Found by the fuzz test calling fanOut on its own: on an empty datagram it read the code octet
     * and threw IndexOutOfBoundsException (not reachable through the engine, which asks after
     * classify). Now every entry point refuses it as truncated.
     */
    @Test
    void aDatagramWithoutHeaderIsTruncatedForEveryEntryPoint() {
        ByteBuf empty = Unpooled.EMPTY_BUFFER;
        assertThat(reason(() -> plugin.fanOut(empty))).isEqualTo(DropReason.TRUNCATED);
        assertThat(reason(() -> plugin.classify(empty, NAS))).isEqualTo(DropReason.TRUNCATED);
        assertThat(reason(() -> plugin.clientTransactionId(empty))).isEqualTo(DropReason.TRUNCATED);
        assertThat(reason(() -> plugin.responseTransactionId(empty))).isEqualTo(DropReason.TRUNCATED);
    }

    @Test
    void keysInConfiguredOrderThenClientAddress() throws Exception {
        ByteBuf both = accessRequest(1, CLIENT_SECRET, "alice", "pw",
                List.of(text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001")));
        assertThat(plugin.classify(both, NAS))
                .isEqualTo(StickyKey.of(RadiusModule.CALLING_STATION_ID, bytes("4915100000001")));
        ByteBuf none = accountingRequest(2, CLIENT_SECRET, List.of(RadiusAttribute.integer(
                RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.ACCOUNTING_ON)));
        assertThat(plugin.classify(none, NAS).kind()).isEqualTo(StickyKind.CLIENT_ADDRESS);
    }

    @Test
    void theDecisionsKeyIsTheOneTheTransactionKeepsAndAccountingIsSessionWork() throws Exception {
        ByteBuf access = accessRequest(5, CLIENT_SECRET, "alice", "pw",
                List.of(text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001"), messageAuthenticator()));
        Decision.Direct decided = (Decision.Direct) plugin.decide(access, NAS, UnpooledByteBufAllocator.DEFAULT);
        assertThat(decided.key()).isEqualTo(StickyKey.of(RadiusModule.CALLING_STATION_ID, bytes("4915100000001")));
        assertThat(decided.session()).as("an Access-Request is new work").isFalse();
        RadiusPlugin.Context context = plugin.prepareRequest(access, 3, real, NAS, decided.key());
        assertThat(context.key()).as("not read from the request again").isSameAs(decided.key());

        ByteBuf start = accountingRequest(6, CLIENT_SECRET, List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START),
                text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001")));
        Decision.Direct accounting = (Decision.Direct) plugin.decide(start, NAS, UnpooledByteBufAllocator.DEFAULT);
        assertThat(accounting.session()).as("an Accounting-Request is session work").isTrue();
        assertThat(accounting.key()).isEqualTo(decided.key());
        assertThat(plugin.prepareRequest(start, 4, real, NAS).key()).as("without a decided key: the same key")
                .isEqualTo(accounting.key());
        access.release();
        start.release();
    }

    @Test
    void accessRequestReSignedForTheRealAndAnswerForTheClient() throws Exception {
        ByteBuf request = accessRequest(77, CLIENT_SECRET, "alice", "s3cret-password!",
                List.of(text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001"), messageAuthenticator()));
        byte[] original = ByteBufUtil.getBytes(request);
        byte[] clientAuthenticator = view(request).authenticator();
        long clientTx = plugin.clientTransactionId(request);

        RadiusPlugin.Context context = plugin.prepareRequest(request, 3, real, NAS);
        RadiusView forwarded = view(request);
        assertThat(forwarded.identifier()).isEqualTo(3);
        assertThat(RadiusAuthenticators.verifyRequest(forwarded, bytes(REAL_SECRET))).isTrue();
        assertThat(RadiusAuthenticators.verifyRequest(forwarded, bytes(CLIENT_SECRET))).isFalse();
        byte[] hidden = forwarded.value(forwarded.find(RadiusAttributeType.USER_PASSWORD.value()));
        assertThat(new String(RadiusAuthenticators.revealUserPassword(hidden, bytes(REAL_SECRET),
                forwarded.authenticator()), StandardCharsets.UTF_8)).isEqualTo("s3cret-password!");
        assertThat(sameExcept(original, ByteBufUtil.getBytes(request), forwarded)).isTrue();

        ByteBuf accept = answer(RadiusCode.ACCESS_ACCEPT, request, REAL_SECRET,
                List.of(text(RadiusAttributeType.REPLY_MESSAGE, "hello"), messageAuthenticator()));
        RadiusAuthenticators.signResponse(view(accept), forwarded.authenticator(), bytes(REAL_SECRET));
        assertThat(plugin.responseTransactionId(accept)).isEqualTo(3);
        plugin.prepareResponse(accept, clientTx, context);
        RadiusView relayed = view(accept);
        assertThat(relayed.identifier()).isEqualTo(77);
        assertThat(RadiusAuthenticators.verifyResponse(relayed, clientAuthenticator, bytes(CLIENT_SECRET))).isTrue();
        assertThat(relayed.text(relayed.find(RadiusAttributeType.REPLY_MESSAGE.value()))).isEqualTo("hello");
        assertThat(plugin.count(false, RadiusCode.ACCESS_ACCEPT)).isEqualTo(1);
    }

    /** Only identifier, authenticator, User-Password and Message-Authenticator may differ. */
    private static boolean sameExcept(byte[] a, byte[] b, RadiusView view) {
        if (a.length != b.length) {
            return false;
        }
        int pw = view.find(RadiusAttributeType.USER_PASSWORD.value());
        int ma = view.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
        for (int i = 0; i < a.length; i++) {
            boolean mutable = i == 1 || (i >= 4 && i < 20)
                    || (pw >= 0 && i >= pw + 2 && i < pw + view.attributeLength(pw))
                    || (ma >= 0 && i >= ma + 2 && i < ma + 18);
            if (!mutable && a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aReloadedSecretSignsTheNextRequestsAndAnAddedRealHasItsOwn() throws Exception {
        RealConfig changed = new RealConfig(addr("127.0.0.2"), 1812, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, "a-new-secret");
        RealConfig added = new RealConfig(addr("127.0.0.3"), 1812, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, "the-added-secret");
        farms.reconfigure(Map.of("aaa", new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                List.of(changed, added), Optional.empty())));

        ByteBuf toChanged = accountingRequest(10, CLIENT_SECRET, List.of(
                text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001")));
        plugin.prepareRequest(toChanged, 201, farms.real("aaa", "127.0.0.2:1812"), NAS);
        assertThat(RadiusAuthenticators.verifyRequest(view(toChanged), bytes("a-new-secret"))).isTrue();
        ByteBuf toAdded = accountingRequest(11, CLIENT_SECRET, List.of(
                text(RadiusAttributeType.CALLING_STATION_ID, "4915100000002")));
        plugin.prepareRequest(toAdded, 202, farms.real("aaa", "127.0.0.3:1812"), NAS);
        assertThat(RadiusAuthenticators.verifyRequest(view(toAdded), bytes("the-added-secret"))).isTrue();
    }

    @Test
    void accountingReSignedAndAnswerWithWrongSecretRefused() throws Exception {
        ByteBuf request = accountingRequest(9, CLIENT_SECRET, List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.INTERIM_UPDATE),
                text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001")));
        long clientTx = plugin.clientTransactionId(request);
        byte[] clientAuthenticator = view(request).authenticator();
        RadiusPlugin.Context context = plugin.prepareRequest(request, 200, real, NAS);
        assertThat(RadiusAuthenticators.verifyRequest(view(request), bytes(REAL_SECRET))).isTrue();

        ByteBuf forged = answer(RadiusCode.ACCOUNTING_RESPONSE, request, CLIENT_SECRET, List.of());
        assertThat(reason(() -> plugin.prepareResponse(forged, clientTx, context))).isEqualTo(RadiusPlugin.BAD_ANSWER);

        ByteBuf response = answer(RadiusCode.ACCOUNTING_RESPONSE, request, REAL_SECRET, List.of());
        plugin.prepareResponse(response, clientTx, context);
        assertThat(view(response).identifier()).isEqualTo(9);
        assertThat(RadiusAuthenticators.verifyResponse(view(response), clientAuthenticator, bytes(CLIENT_SECRET)))
                .isTrue();
    }

    @Test
    void retransmissionHasTheSameClientTransactionIdAndANewRequestDoesNot() throws Exception {
        ByteBuf request = accessRequest(5, CLIENT_SECRET, "alice", "pw", List.of());
        ByteBuf again = request.copy();
        ByteBuf other = accessRequest(5, CLIENT_SECRET, "alice", "pw", List.of());
        assertThat(plugin.clientTransactionId(again)).isEqualTo(plugin.clientTransactionId(request));
        assertThat(plugin.clientTransactionId(other)).isNotEqualTo(plugin.clientTransactionId(request));
    }

    /** A first round as "anonymous" through {@code node}, answered by a challenge with {@code state}: its key. */
    private StickyKey challenged(RadiusPlugin node, String state) throws Exception {
        return challenged(node, farms.farm("aaa").reals().get(0), state);
    }

    private StickyKey challenged(RadiusPlugin node, RealServer real, String state) throws Exception {
        ByteBuf first = accessRequest(1, CLIENT_SECRET, "anonymous", "pw", List.of());
        StickyKey key = node.classify(first, NAS);
        RadiusPlugin.Context context = node.prepareRequest(first, 1, real, NAS);
        ByteBuf challenge = answer(RadiusCode.ACCESS_CHALLENGE, first, REAL_SECRET,
                List.of(new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes(state))));
        node.prepareResponse(challenge, node.clientTransactionId(first), context);
        return key;
    }

    @Test
    void challengeStateKeepsTheConversationOnItsKey() throws Exception {
        StickyKey key = challenged(plugin, "state-1");
        assertThat(plugin.openStates()).isEqualTo(1);

        // The second round names the user differently, but carries the State: same key.
        ByteBuf second = accessRequest(2, CLIENT_SECRET, "alice@realm", "pw",
                List.of(new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes("state-1"))));
        assertThat(plugin.classify(second, NAS)).isEqualTo(key);
        ByteBuf unrelated = accessRequest(3, CLIENT_SECRET, "alice@realm", "pw",
                List.of(new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes("state-2"))));
        assertThat(plugin.classify(unrelated, NAS)).isNotEqualTo(key);
        now.addAndGet(RadiusOptions.DEFAULT_STATE_IDLE.toNanos() + 1);
        assertThat(plugin.classify(second, NAS)).isNotEqualTo(key);
    }

    /** In a cluster, the next round of a conversation may reach another node: it knows the State too. */
    @Test
    void challengeStateKeepsTheConversationOnItsKeyOnAnotherClusterNode() throws Exception {
        ClusterMember memberA = cluster.start();
        ClusterMember memberB = cluster.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> memberB.members().size() == 2);
        RadiusPlugin nodeA = plugin(memberA.sharedTables());
        RadiusPlugin nodeB = plugin(memberB.sharedTables());
        StickyKey key = challenged(nodeA, "state-9");

        ByteBuf second = accessRequest(2, CLIENT_SECRET, "alice@realm", "pw",
                List.of(new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes("state-9"))));
        StickyKey alice = StickyKey.of(RadiusModule.USERNAME, bytes("alice@realm"));
        ByteBuf unknownState = accessRequest(3, CLIENT_SECRET, "alice@realm", "pw",
                List.of(new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes("state-never-issued"))));
        assertThat(nodeB.classify(unknownState, NAS)).as("a State no node issued").isEqualTo(alice);
        await().atMost(Duration.ofSeconds(10)).until(() -> key.equals(nodeB.classify(second.copy(), NAS)));
        now.addAndGet(RadiusOptions.DEFAULT_STATE_IDLE.toNanos() + 1);
        assertThat(nodeB.classify(second, NAS)).as("the State lapsed on node B too").isEqualTo(alice);
    }

    @Test
    void framedIpLearnedFromStartAndAcceptPurgedByStopAndAccountingOn() throws Exception {
        StickyKey ip1 = FramedPrefixes.framedIpKey(0x0a010203L);
        StickyKey ip2 = FramedPrefixes.framedIpKey(0x0a010204L);
        account(RadiusAcctStatusType.START, "10.1.2.3");
        assertThat(table.lookup(ip1, now.get())).isNotNull();
        assertThat(table.lookup(ip1, now.get()).real()).isEqualTo(real.id());
        account(RadiusAcctStatusType.STOP, "10.1.2.3");
        assertThat(table.lookup(ip1, now.get())).isNull();

        ByteBuf auth = accessRequest(1, CLIENT_SECRET, "bob", "pw", List.of());
        long tx = plugin.clientTransactionId(auth);
        RadiusPlugin.Context context = plugin.prepareRequest(auth, 1, real, NAS);
        ByteBuf accept = answer(RadiusCode.ACCESS_ACCEPT, auth, REAL_SECRET, List.of(new RadiusAttribute(
                RadiusAttributeType.FRAMED_IP_ADDRESS.value(), new byte[] {10, 1, 2, 4})));
        plugin.prepareResponse(accept, tx, context);
        account(RadiusAcctStatusType.START, "10.1.2.3");
        assertThat(table.lookup(ip2, now.get())).isNotNull();
        assertThat(table.lookup(ip1, now.get())).isNotNull();
        account(RadiusAcctStatusType.ACCOUNTING_ON, null);
        assertThat(table.lookup(ip1, now.get())).isNull();
        assertThat(table.lookup(ip2, now.get())).isNull();
    }

    @Test
    void accountingOnAndOffAreSentToEveryRealUnlessConfiguredToOne() throws Exception {
        ByteBuf on = accountingRequest(5, CLIENT_SECRET, List.of(RadiusAttribute.integer(
                RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.ACCOUNTING_ON)));
        ByteBuf off = accountingRequest(6, CLIENT_SECRET, List.of(RadiusAttribute.integer(
                RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.ACCOUNTING_OFF)));
        ByteBuf start = accountingRequest(7, CLIENT_SECRET, List.of(RadiusAttribute.integer(
                RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START)));
        ByteBuf access = accessRequest(8, CLIENT_SECRET, "alice", "pw", List.of());
        assertThat(plugin.fanOut(on)).isTrue();
        assertThat(plugin.fanOut(off)).isTrue();
        assertThat(plugin.fanOut(start)).isFalse();
        assertThat(plugin.fanOut(access)).isFalse();

        RadiusOptions d = new RadiusOptions(List.of(new RadiusOptions.Client(addr("127.0.0.0"), 8, CLIENT_SECRET)));
        RadiusOptions oneReal = new RadiusOptions(d.clients(), d.framedIp(), d.stateIdle(),
                d.vsaCorrelation(), d.upstreamSockets(), false);
        RadiusPlugin single = new RadiusPlugin("acct", oneReal, List.of(RadiusModule.USERNAME));
        assertThat(single.fanOut(on)).isFalse();
        assertThat(single.fanOut(off)).isFalse();
    }

    private void account(int status, String framedIp) throws Exception {
        List<RadiusAttribute> attributes = new java.util.ArrayList<>();
        attributes.add(RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, status));
        if (framedIp != null) {
            attributes.add(new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(),
                    addr(framedIp).getAddress()));
        }
        ByteBuf request = accountingRequest(4, CLIENT_SECRET, attributes);
        plugin.classify(request, NAS);
        long tx = plugin.clientTransactionId(request);
        RadiusPlugin.Context context = plugin.prepareRequest(request, 4, real, NAS);
        ByteBuf response = answer(RadiusCode.ACCOUNTING_RESPONSE, request, REAL_SECRET, List.of());
        plugin.prepareResponse(response, tx, context);
    }

    @SuppressWarnings("unused")
    private static ByteBuf copy(byte[] bytes) {
        return Unpooled.wrappedBuffer(bytes);
    }

    /** RFC 2548 §2.4.2 / RFC 2868 §3.5 salt encryption, written out from the RFC for the test. */
    static byte[] saltEncrypt(byte[] plain, byte[] secret, byte[] authenticator, byte[] salt) throws Exception {
        int length = ((plain.length + 1 + 15) / 16) * 16;
        byte[] p = new byte[length];
        p[0] = (byte) plain.length;
        System.arraycopy(plain, 0, p, 1, plain.length);
        byte[] c = new byte[length];
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("MD5");
        byte[] previous = null;
        for (int i = 0; i < length; i += 16) {
            md.reset();
            md.update(secret);
            if (i == 0) {
                md.update(authenticator);
                md.update(salt);
            } else {
                md.update(previous);
            }
            byte[] b = md.digest();
            for (int j = 0; j < 16; j++) {
                c[i + j] = (byte) (p[i + j] ^ b[j]);
            }
            previous = java.util.Arrays.copyOfRange(c, i, i + 16);
        }
        return c;
    }

    static byte[] saltDecrypt(byte[] c, byte[] secret, byte[] authenticator, byte[] salt) throws Exception {
        byte[] p = new byte[c.length];
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("MD5");
        for (int i = 0; i < c.length; i += 16) {
            md.reset();
            md.update(secret);
            if (i == 0) {
                md.update(authenticator);
                md.update(salt);
            } else {
                md.update(c, i - 16, 16);
            }
            byte[] b = md.digest();
            for (int j = 0; j < 16; j++) {
                p[i + j] = (byte) (c[i + j] ^ b[j]);
            }
        }
        return java.util.Arrays.copyOfRange(p, 1, 1 + (p[0] & 0xff));
    }

    @Test
    void mppeKeysAndTunnelPasswordAreReEncryptedForTheClient() throws Exception {
        ByteBuf request = accessRequest(12, CLIENT_SECRET, "eve", "pw", List.of());
        byte[] clientAuthenticator = view(request).authenticator();
        long tx = plugin.clientTransactionId(request);
        RadiusPlugin.Context context = plugin.prepareRequest(request, 4, real, NAS);
        byte[] forwardedAuthenticator = view(request).authenticator();
        byte[] salt = {(byte) 0x80, 0x01};
        byte[] sendKey = new byte[32];
        new java.util.Random(1).nextBytes(sendKey);
        byte[] mppe = saltEncrypt(sendKey, bytes(REAL_SECRET), forwardedAuthenticator, salt);
        byte[] sub = new byte[2 + mppe.length];
        System.arraycopy(salt, 0, sub, 0, 2);
        System.arraycopy(mppe, 0, sub, 2, mppe.length);
        byte[] tunnel = saltEncrypt(bytes("tunnel-secret"), bytes(REAL_SECRET), forwardedAuthenticator, salt);
        byte[] tunnelValue = new byte[3 + tunnel.length];
        tunnelValue[0] = 1; // tag
        System.arraycopy(salt, 0, tunnelValue, 1, 2);
        System.arraycopy(tunnel, 0, tunnelValue, 3, tunnel.length);
        ByteBuf accept = answer(RadiusCode.ACCESS_ACCEPT, request, REAL_SECRET, List.of(
                RadiusAttribute.vendorSpecific(SaltedAttributes.MICROSOFT, SaltedAttributes.MS_MPPE_SEND_KEY, sub),
                new RadiusAttribute(SaltedAttributes.TUNNEL_PASSWORD, tunnelValue)));
        plugin.prepareResponse(accept, tx, context);

        RadiusView relayed = view(accept);
        assertThat(RadiusAuthenticators.verifyResponse(relayed, clientAuthenticator, bytes(CLIENT_SECRET))).isTrue();
        int s = relayed.findVendor(SaltedAttributes.MICROSOFT, SaltedAttributes.MS_MPPE_SEND_KEY);
        byte[] relayedSub = new byte[relayed.attributeLength(s) - 2];
        relayed.buffer().getBytes(relayed.base() + s + 2, relayedSub);
        assertThat(saltDecrypt(java.util.Arrays.copyOfRange(relayedSub, 2, relayedSub.length), bytes(CLIENT_SECRET),
                clientAuthenticator, salt)).isEqualTo(sendKey);
        byte[] relayedTunnel = relayed.value(relayed.find(SaltedAttributes.TUNNEL_PASSWORD));
        assertThat(relayedTunnel[0]).isEqualTo((byte) 1);
        assertThat(saltDecrypt(java.util.Arrays.copyOfRange(relayedTunnel, 3, relayedTunnel.length),
                bytes(CLIENT_SECRET), clientAuthenticator, salt)).isEqualTo(bytes("tunnel-secret"));
    }

    /** A plug-in under test, the real of its farm, and what its engine is built over. */
    private record Node(RadiusPlugin plugin, RealServer real, Farms farms, StickyTable table,
            VirtualServerConfig config, Ticker ticker) {

        /** A lane of its own: what one datagram left pending must not decide the next. */
        EngineHarness engine() {
            return new EngineHarness(config, farms, table, plugin, ticker);
        }
    }

    /** An answer a real sends to {@code request} (as the NAS signed it): {@code code} with {@code attributes}. */
    private record AnswerTo(byte[] request, RadiusCode code, List<RadiusAttribute> attributes) {
    }

    /**
     * Bad input only ever comes out of the plug-in as a DecodeException, which the engine counts and
     * drops: mutated copies of valid RADIUS datagrams (see {@code RadiusPackets.mutate}) go through
     * the engine itself ({@link EngineHarness}: Intake and TransactionEngine, which call classify,
     * transaction id, fan-out, route, prepare for a request from the NAS; transaction id, inspection
     * and preparation for the answer of the real to a valid request); nothing may come out of it but
     * what it counts (a drop, an answer refused as malformed). Half the mutations
     * are signed again when they still parse (with the client's secret as requests, the real's as
     * answers), as a peer holding the secret would sign whatever its bug produced, so that they get
     * past the authenticator checks into keys, State, VSA correlation, route map, re-hiding, salted
     * re-encryption and learning; a request that passes is answered by the real. The request entry
     * points after classify are also called each on its own. Datagrams are held as on Linux (a slice
     * of the recvmmsg batch, which cannot grow) or as with NIO (a buffer of their own). Two set-ups:
     * this class's plug-in, and one with VSA correlation and a route map. Valid traffic works
     * afterwards. It found two: an Accounting-Start that VSA correlation grows, in a datagram that
     * cannot grow (VsaCorrelationTest), and an empty datagram given to fanOut on its own
     * ({@link #aDatagramWithoutHeaderIsTruncatedForEveryEntryPoint}).
     */
    @Test
    void mutatedDatagramsComeOutOnlyAsDecodeExceptions() throws Exception {
        Node plain = new Node(plugin, real, farms, table, config, now::get);
        RadiusPlugin correlating = plugin(SharedTables.IN_MEMORY, true);
        Node[] nodes = {plain, new Node(correlating, farms.farm("aaa").reals().get(0), farms, table, config, now::get)};
        for (Node node : nodes) {
            challenged(node.plugin(), node.real(), "state-fuzz");
        }
        RadiusAttribute csid = text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001");
        RadiusAttribute framedIp = new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(),
                new byte[] {10, 1, 2, 3});
        RadiusAttribute vsa = RadiusAttribute.vendorSpecific(VsaCorrelationTest.VENDOR, VsaCorrelationTest.TYPE,
                bytes("charging-id-1"));
        // EAP-Response/Identity (RFC 3748 §5.1), which RFC 3579 §3.2 wants with a Message-Authenticator.
        RadiusAttribute eap = new RadiusAttribute(RadiusAttributeType.EAP_MESSAGE.value(),
                new byte[] {2, 1, 0, 10, 1, 'a', 'l', 'i', 'c', 'e'});
        RadiusAttribute state = new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes("state-fuzz"));
        byte[] access = bytesOf(accessRequest(1, CLIENT_SECRET, "alice", "pw", List.of(csid, framedIp,
                messageAuthenticator())));
        byte[] eapRound = bytesOf(accessRequest(2, CLIENT_SECRET, "anonymous", "pw", List.of(eap, state,
                messageAuthenticator())));
        byte[] withVsas = bytesOf(accessRequest(3, CLIENT_SECRET, "bob", "a password of forty octets, three blocks",
                List.of(csid, vsa, RadiusAttribute.vendorSpecific(SaltedAttributes.MICROSOFT, 1, bytes("ms")))));
        byte[] start = bytesOf(accounting(4, RadiusAcctStatusType.START, List.of(csid, framedIp,
                text(RadiusAttributeType.ACCT_SESSION_ID, "s-1"))));
        byte[] stop = bytesOf(accounting(5, RadiusAcctStatusType.STOP, List.of(csid, framedIp)));
        byte[] accountingOn = bytesOf(accounting(6, RadiusAcctStatusType.ACCOUNTING_ON, List.of()));
        byte[] interim = bytesOf(accounting(7, RadiusAcctStatusType.INTERIM_UPDATE, List.of(csid, framedIp, vsa,
                messageAuthenticator())));
        List<byte[]> requests = List.of(access, eapRound, withVsas, start, stop, accountingOn, interim);
        byte[] salted = new byte[2 + 32];
        salted[0] = (byte) 0x80; // the salt's high bit is set (RFC 2548 §2.4.2)
        byte[] tunnelPassword = new byte[1 + 2 + 16];
        List<AnswerTo> answers = List.of(
                new AnswerTo(access, RadiusCode.ACCESS_ACCEPT, List.of(
                        new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), new byte[] {10, 9, 8, 7}),
                        RadiusAttribute.vendorSpecific(SaltedAttributes.MICROSOFT, SaltedAttributes.MS_MPPE_SEND_KEY,
                                salted),
                        new RadiusAttribute(SaltedAttributes.TUNNEL_PASSWORD, tunnelPassword), vsa,
                        messageAuthenticator())),
                new AnswerTo(eapRound, RadiusCode.ACCESS_CHALLENGE, List.of(
                        new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes("state-fuzz-2")), eap,
                        messageAuthenticator())),
                new AnswerTo(access, RadiusCode.ACCESS_REJECT, List.of(
                        text(RadiusAttributeType.REPLY_MESSAGE, "no"), messageAuthenticator())),
                new AnswerTo(start, RadiusCode.ACCOUNTING_RESPONSE, List.of()),
                new AnswerTo(stop, RadiusCode.ACCOUNTING_RESPONSE, List.of()),
                new AnswerTo(accountingOn, RadiusCode.ACCOUNTING_RESPONSE, List.of()),
                new AnswerTo(interim, RadiusCode.ACCOUNTING_RESPONSE, List.of(messageAuthenticator())));

        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        int refused = 0;
        int passed = 0;
        for (int i = 0; i < 20_000; i++) {
            Node node = nodes[random.nextInt(nodes.length)];
            boolean asRequest = random.nextBoolean();
            boolean resign = random.nextBoolean();
            boolean sliced = random.nextBoolean();
            byte[] bytes = null;
            byte[] request = null;
            EngineHarness engine = node.engine();
            try {
                if (asRequest) {
                    bytes = io.switchboard.director.testing.Mutations.mutate(requests.get(random.nextInt(requests.size())), random);
                    if (resign) {
                        RadiusPackets.resignRequest(bytes, CLIENT_SECRET);
                    }
                    eachRequestEntryPointAlone(node, bytes, sliced);
                    throughRequestPath(engine, bytes, sliced);
                } else {
                    AnswerTo answer = answers.get(random.nextInt(answers.size()));
                    request = answer.request();
                    // The same request again, once its cache time has passed, is a new one (RFC 5080
                    // §2.2.2); within it, it would be answered from the cache and not reach the real.
                    now.addAndGet(RadiusOptions.Duplicates.DEFAULT_CACHE_TIME.toNanos() + 1);
                    EngineHarness.ToReal sent = sendValid(engine, request, sliced);
                    ByteBuf forwarded = Unpooled.wrappedBuffer(sent.bytes());
                    bytes = io.switchboard.director.testing.Mutations.mutate(bytesOf(answer(answer.code(), forwarded,
                            REAL_SECRET, answer.attributes())), random);
                    if (resign) {
                        RadiusPackets.resignResponse(bytes, view(forwarded).authenticator(), REAL_SECRET);
                    }
                    fromReal(engine, sent, bytes, sliced);
                }
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("seed " + seed + ", datagram " + i + (asRequest ? " (request)"
                        : " (answer to " + ByteBufUtil.hexDump(request) + ")") + ": "
                        + (bytes == null ? "-" : ByteBufUtil.hexDump(bytes)), e);
            }
            if (!engine.drops().isEmpty() || !engine.answersRefused().isEmpty()) {
                refused++;
            } else if (!engine.toClients().isEmpty()) {
                passed++;
            }
        }
        assertThat(refused).as("mutations the plug-in refused").isPositive();
        assertThat(passed).as("mutations that went all the way through").isPositive();
        for (Node node : nodes) {
            validExchange(node);
        }
    }

    private static ByteBuf accounting(int id, int status, List<RadiusAttribute> more) {
        List<RadiusAttribute> attributes = new java.util.ArrayList<>();
        attributes.add(RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, status));
        attributes.addAll(more);
        return accountingRequest(id, CLIENT_SECRET, attributes);
    }

    private static byte[] bytesOf(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /**
     * A datagram as the engine holds it: on Linux a slice of the recvmmsg batch that cannot grow,
     * elsewhere (NIO) a buffer of its own that can (VSA correlation adds to a request).
     */
    private static ByteBuf datagram(byte[] bytes, boolean sliced) {
        return sliced ? RadiusPackets.recvmmsgSlice(bytes) : Unpooled.buffer(bytes.length).writeBytes(bytes);
    }

    /**
     * The request entry points the engine calls after classify, each on its own (in case the engine's
     * order changes): a refusal must be a DecodeException there too.
     */
    private static void eachRequestEntryPointAlone(Node node, byte[] bytes, boolean sliced) {
        RadiusPlugin p = node.plugin();
        List<EntryPoint> entryPoints = List.of(p::clientTransactionId, p::fanOut, p::route,
                b -> p.prepareRequest(b, 7, node.real(), NAS));
        for (EntryPoint entryPoint : entryPoints) {
            ByteBuf datagram = datagram(bytes, sliced);
            try {
                entryPoint.call(datagram);
            } catch (DecodeException e) {
                // refused: fine
            } finally {
                datagram.release();
            }
        }
    }

    private interface EntryPoint {
        Object call(ByteBuf datagram) throws DecodeException;
    }

    /** A request from the NAS; if the engine forwards it, the real's answer. */
    private static void throughRequestPath(EngineHarness engine, byte[] bytes, boolean sliced) {
        ByteBuf datagram = datagram(bytes, sliced);
        try {
            engine.fromClient(datagram, NAS);
        } finally {
            datagram.release();
        }
        for (EngineHarness.ToReal sent : List.copyOf(engine.toReals())) {
            ByteBuf forwarded = Unpooled.wrappedBuffer(sent.bytes());
            RadiusCode code = view(forwarded).code() == RadiusCode.ACCESS_REQUEST.value() ? RadiusCode.ACCESS_ACCEPT
                    : RadiusCode.ACCOUNTING_RESPONSE;
            engine.answer(sent, bytesOf(answer(code, forwarded, REAL_SECRET, List.of(
                    new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), new byte[] {10, 1, 2, 3})))));
        }
    }

    /** A valid request from the NAS, which the engine must send to the real: as it left. */
    private static EngineHarness.ToReal sendValid(EngineHarness engine, byte[] request, boolean sliced) {
        ByteBuf datagram = datagram(request, sliced);
        try {
            engine.fromClient(datagram, NAS);
        } finally {
            datagram.release();
        }
        assertThat(engine.drops()).as("the valid request was refused").isEmpty();
        assertThat(engine.toReals()).as("the valid request").hasSize(1);
        return engine.toReals().get(0);
    }

    /** {@code bytes} from the real that {@code sent} went to, on its socket, held as {@link #datagram}. */
    private static void fromReal(EngineHarness engine, EngineHarness.ToReal sent, byte[] bytes, boolean sliced) {
        ByteBuf answer = datagram(bytes, sliced);
        try {
            engine.fromReal(answer, sent.real().address(), sent.socket());
        } finally {
            answer.release();
        }
    }

    /** An Access-Request answered by an Access-Accept: relayed with the client's identifier, signed for it. */
    private static void validExchange(Node node) {
        EngineHarness engine = node.engine();
        byte[] request = bytesOf(accessRequest(42, CLIENT_SECRET, "carol", "pw", List.of(messageAuthenticator())));
        EngineHarness.ToReal sent = sendValid(engine, request, false);
        ByteBuf forwarded = Unpooled.wrappedBuffer(sent.bytes());
        assertThat((long) view(forwarded).identifier()).isEqualTo(sent.transactionId());
        engine.answer(sent, bytesOf(answer(RadiusCode.ACCESS_ACCEPT, forwarded, REAL_SECRET,
                List.of(messageAuthenticator()))));
        assertThat(engine.toClients()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(NAS);
            RadiusView relayed = view(Unpooled.wrappedBuffer(c.bytes()));
            assertThat(relayed.identifier()).isEqualTo(42);
            assertThat(RadiusAuthenticators.verifyResponse(relayed, view(Unpooled.wrappedBuffer(request)).authenticator(),
                    bytes(CLIENT_SECRET))).isTrue();
        });
    }
}
