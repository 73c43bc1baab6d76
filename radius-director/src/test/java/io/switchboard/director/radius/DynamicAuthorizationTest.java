package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.bytes;
import static io.switchboard.director.radius.RadiusPackets.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.PluginContext;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The radius-dae plug-in and the radius plug-in that teaches it, on one director (their farms):
 * sessions learnt from accounting, a CoA-Request's way to the NAS and its ACK's way back, the NAKs
 * the director answers itself, and what it refuses.
 */
class DynamicAuthorizationTest {

    static final String NAS_SECRET = "nas-secret";
    static final String AAA_SECRET = "aaa-secret";
    static final InetSocketAddress AAA = new InetSocketAddress(RadiusPluginTest.addr("127.0.0.2"), 50000);
    static final InetSocketAddress NAS = new InetSocketAddress(RadiusPluginTest.addr("10.1.0.7"), 40000);
    static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private RadiusPlugin acct;
    private DynamicAuthorization dae;
    /** The director's own answers (NAKs) the tests looked at: released after each (paranoid leak detection). */
    private final List<ByteBuf> answers = new java.util.ArrayList<>();

    private Decision decide(ByteBuf request, InetSocketAddress sender, UnpooledByteBufAllocator alloc)
            throws DecodeException {
        Decision decision = dae.decide(request, sender, alloc);
        if (decision instanceof Decision.AnswerLocally local) {
            answers.add(local.answer());
        }
        return decision;
    }

    @org.junit.jupiter.api.AfterEach
    void releaseAnswers() {
        answers.forEach(ByteBuf::release);
    }

    @BeforeEach
    void setUp() {
        RealConfig aaa = new RealConfig(AAA.getAddress(), 1813, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, AAA_SECRET);
        Farms farms = new Farms(Map.of("aaa", new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                List.of(aaa), Optional.empty())));
        RadiusOptions.Client nas = new RadiusOptions.Client(RadiusPluginTest.addr("10.1.0.0"), 16, NAS_SECRET);
        VirtualServerConfig acctVs = new VirtualServerConfig("radius-acct", new Endpoint(RadiusPluginTest.addr("127.0.0.1"), 0),
                "radius", "aaa", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true,
                new RadiusOptions(List.of(nas)).withDaeSessions(new RadiusOptions.DaeSessions(Duration.ofMinutes(10))));
        VirtualServerConfig daeVs = new VirtualServerConfig("dae", new Endpoint(RadiusPluginTest.addr("127.0.0.1"), 0),
                "radius-dae", "aaa", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true,
                new DaeOptions(List.of(new DaeOptions.Nas(nas, 1700)), "radius-acct"));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        acct = (RadiusPlugin) new RadiusService().create(acctVs);
        acct.attach(new PluginContext(acctVs, null, farms, now::get, registry, NodeSlot.SINGLE, SharedTables.IN_MEMORY));
        dae = (DynamicAuthorization) new RadiusDaeService().create(daeVs);
        dae.attach(new PluginContext(daeVs, null, farms, now::get, registry, NodeSlot.SINGLE, SharedTables.IN_MEMORY));
    }

    private void account(String status, String session, String user) throws DecodeException {
        ByteBuf request = RadiusPackets.accountingRequest(7, NAS_SECRET, List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, status.equals("start") ? 1 : 2),
                text(RadiusAttributeType.ACCT_SESSION_ID, session), text(RadiusAttributeType.USER_NAME, user),
                new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), new byte[] {10, 9, 0, 1}),
                RadiusAttribute.integer(RadiusAttributeType.NAS_IP_ADDRESS, 0x0a010007L)));
        assertThat(acct.decide(request, NAS, ALLOC)).isInstanceOf(Decision.Direct.class);
    }

    private static ByteBuf coa(int id, String secret, RadiusAttribute... attributes) {
        return RadiusPackets.signed(RadiusCode.COA_REQUEST, id, new byte[16], List.of(attributes), secret);
    }

    @Test
    void aCoaForALearntSessionGoesToItsNasReSignedAndItsAckComesBackReSigned() throws DecodeException {
        account("start", "s-1", "alice");
        ByteBuf request = coa(42, AAA_SECRET, text(RadiusAttributeType.ACCT_SESSION_ID, "s-1"),
                new RadiusAttribute(11, "gold".getBytes()));
        byte[] aaaAuthenticator = RadiusPackets.view(request).authenticator();

        Decision decision = decide(request, AAA, ALLOC);
        assertThat(decision).isInstanceOf(Decision.RealRequest.class);
        Decision.RealRequest relay = (Decision.RealRequest) decision;
        assertThat(relay.peer()).as("the NAS's DAE port").isEqualTo(new InetSocketAddress(NAS.getAddress(), 1700));
        assertThat(relay.realId() & 0xff).isEqualTo(42);
        DynamicAuthorization.Relayed context = DynamicAuthorization.CODEC.decode(
                DynamicAuthorization.CODEC.encode((DynamicAuthorization.Relayed) relay.context()));

        dae.prepareRequest(request, 9, context);
        RadiusView sent = RadiusPackets.view(request);
        assertThat(sent.identifier()).isEqualTo(9);
        assertThat(RadiusAuthenticators.verifyRequest(sent, bytes(NAS_SECRET))).isTrue();

        ByteBuf ack = RadiusPackets.answer(RadiusCode.COA_ACK, request, NAS_SECRET, List.of());
        assertThat(decide(ack, NAS, ALLOC)).isEqualTo(new Decision.PeerAnswer(DynamicAuthorization.space(
                NAS.getAddress()), 9));
        dae.prepareAnswer(ack, relay.realId(), context);
        RadiusView back = RadiusPackets.view(ack);
        assertThat(back.identifier()).isEqualTo(42);
        assertThat(RadiusAuthenticators.verifyResponse(back, aaaAuthenticator, bytes(AAA_SECRET))).isTrue();
        assertThat(dae.count("relayed", RadiusCode.COA_REQUEST)).isEqualTo(1);
        assertThat(dae.count("answers", RadiusCode.COA_ACK)).isEqualTo(1);
    }

    @Test
    void anAnswerThatDoesNotVerifyWithTheNasSecretOrAnswersAnotherCodeIsRefused() throws DecodeException {
        account("start", "s-2", "bob");
        ByteBuf request = coa(1, AAA_SECRET, text(RadiusAttributeType.USER_NAME, "bob"));
        Decision.RealRequest relay = (Decision.RealRequest) decide(request, AAA, ALLOC);
        DynamicAuthorization.Relayed context = (DynamicAuthorization.Relayed) relay.context();
        dae.prepareRequest(request, 3, context);
        ByteBuf forged = RadiusPackets.answer(RadiusCode.COA_ACK, request, "not-the-nas-secret", List.of());
        assertThatThrownBy(() -> dae.prepareAnswer(forged, relay.realId(), context))
                .isInstanceOf(DecodeException.class).hasMessageContaining("does not verify");
        ByteBuf disconnectAck = RadiusPackets.answer(RadiusCode.DISCONNECT_ACK, request, NAS_SECRET, List.of());
        assertThatThrownBy(() -> dae.prepareAnswer(disconnectAck, relay.realId(), context))
                .isInstanceOf(DecodeException.class).hasMessageContaining("does not answer");
        assertThat(dae.count("answers", RadiusCode.COA_ACK)).isZero();
    }

    @Test
    void noSessionIsANakWithErrorCause503AndASessionEndsWithItsStop() throws DecodeException {
        account("start", "s-3", "carol");
        assertThat(decide(coa(5, AAA_SECRET, text(RadiusAttributeType.ACCT_SESSION_ID, "s-3")), AAA, ALLOC))
                .isInstanceOf(Decision.RealRequest.class);
        account("stop", "s-3", "carol");
        assertThat(dae.sessions().entries()).isZero();

        ByteBuf request = coa(6, AAA_SECRET, text(RadiusAttributeType.ACCT_SESSION_ID, "s-3"));
        byte[] authenticator = RadiusPackets.view(request).authenticator();
        Decision decision = decide(request, AAA, ALLOC);
        assertThat(decision).isInstanceOf(Decision.AnswerLocally.class);
        ByteBuf nak = ((Decision.AnswerLocally) decision).answer();
        RadiusView view = RadiusPackets.view(nak);
        assertThat(view.code()).isEqualTo(RadiusCode.COA_NAK.value());
        assertThat(view.identifier()).isEqualTo(6);
        assertThat(RadiusAuthenticators.verifyResponse(view, authenticator, bytes(AAA_SECRET))).isTrue();
        int cause = view.find(RadiusAttributeType.ERROR_CAUSE.value());
        assertThat(nak.getInt(view.base() + cause + 2)).isEqualTo(503);
        assertThat(dae.count("session-not-found", RadiusCode.COA_REQUEST)).isEqualTo(1);
    }

    @Test
    void attributesThatContradictTheSessionFoundMatchNoSession() throws DecodeException {
        account("start", "s-4", "dave");
        Decision other = decide(coa(8, AAA_SECRET, text(RadiusAttributeType.ACCT_SESSION_ID, "s-4"),
                text(RadiusAttributeType.USER_NAME, "eve")), AAA, ALLOC);
        assertThat(other).isInstanceOf(Decision.AnswerLocally.class);
        Decision otherNas = decide(coa(9, AAA_SECRET, text(RadiusAttributeType.USER_NAME, "dave"),
                RadiusAttribute.integer(RadiusAttributeType.NAS_IP_ADDRESS, 0x0a010008L)), AAA, ALLOC);
        assertThat(otherNas).isInstanceOf(Decision.AnswerLocally.class);
        Decision same = decide(coa(10, AAA_SECRET, text(RadiusAttributeType.USER_NAME, "dave"),
                RadiusAttribute.integer(RadiusAttributeType.NAS_IP_ADDRESS, 0x0a010007L)), AAA, ALLOC);
        assertThat(same).isInstanceOf(Decision.RealRequest.class);
    }

    @Test
    void aRequestNamingOnlyItsNasGoesToThatNasWhenItHasAnEntryElseANak502() throws DecodeException {
        Decision known = decide(coa(11, AAA_SECRET,
                RadiusAttribute.integer(RadiusAttributeType.NAS_IP_ADDRESS, 0x0a010009L)), AAA, ALLOC);
        assertThat(((Decision.RealRequest) known).peer())
                .isEqualTo(new InetSocketAddress(RadiusPluginTest.addr("10.1.0.9"), 1700));
        Decision unknown = decide(coa(12, AAA_SECRET,
                RadiusAttribute.integer(RadiusAttributeType.NAS_IP_ADDRESS, 0x0a020009L)), AAA, ALLOC);
        ByteBuf nak = ((Decision.AnswerLocally) unknown).answer();
        RadiusView view = RadiusPackets.view(nak);
        assertThat(nak.getInt(view.base() + view.find(RadiusAttributeType.ERROR_CAUSE.value()) + 2)).isEqualTo(502);
        assertThat(dae.count("not-routable", RadiusCode.COA_REQUEST)).isEqualTo(1);
    }

    @Test
    void onlyTheFarmsRealsWithTheirSecretMaySendAndOnlyNasesAnswer() {
        assertThatThrownBy(() -> decide(coa(1, AAA_SECRET, text(RadiusAttributeType.USER_NAME, "x")),
                new InetSocketAddress(RadiusPluginTest.addr("127.0.0.3"), 1), ALLOC))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(DynamicAuthorization.NOT_A_REAL));
        assertThatThrownBy(() -> decide(coa(1, "wrong", text(RadiusAttributeType.USER_NAME, "x")), AAA, ALLOC))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(RadiusPlugin.BAD_AUTHENTICATOR));
        ByteBuf ack = RadiusPackets.answer(RadiusCode.COA_ACK, coa(1, NAS_SECRET), NAS_SECRET, List.of());
        assertThatThrownBy(() -> decide(ack, AAA, ALLOC)).isInstanceOf(DecodeException.class)
                .hasMessageContaining("no client entry");
        ByteBuf access = RadiusPackets.accessRequest(1, AAA_SECRET, "u", "p", List.of());
        assertThatThrownBy(() -> decide(access, AAA, ALLOC)).isInstanceOf(DecodeException.class)
                .hasMessageContaining("not relayed by a radius-dae virtual server");
    }

    @Test
    void aSessionIsEncodedForOtherNodesAndReadBack() {
        DaeSessions.Session session = new DaeSessions.Session(NAS.getAddress(), new byte[] {44, 5, 's', '-', '1'});
        DaeSessions.Session back = DaeSessions.decode(DaeSessions.encode(session));
        assertThat(back.nas()).isEqualTo(NAS.getAddress());
        assertThat(back.value(44)).containsExactly('s', '-', '1');
        assertThat(DaeSessions.decode(new byte[] {16, 1})).as("truncated").isNull();
        assertThat(ByteBufUtil.getBytes(Unpooled.wrappedBuffer(back.attributes()))).isEqualTo(session.attributes());
    }
}
