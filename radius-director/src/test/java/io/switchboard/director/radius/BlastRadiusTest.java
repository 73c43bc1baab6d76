package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusFixture.CLIENT_SECRET;
import static io.switchboard.director.radius.RadiusFixture.NAS;
import static io.switchboard.director.radius.RadiusFixture.REAL_SECRET;
import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.accountingRequest;
import static io.switchboard.director.radius.RadiusPackets.answer;
import static io.switchboard.director.radius.RadiusPackets.bytes;
import static io.switchboard.director.radius.RadiusPackets.messageAuthenticator;
import static io.switchboard.director.radius.RadiusPackets.text;
import static io.switchboard.director.radius.RadiusPackets.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.radius.RadiusOptions.Tristate;
import io.switchboard.director.testing.EngineHarness;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The BlastRADIUS defences (CVE-2024-3596) through the engine, request to answer, checked against
 * the rules rather than the code: RFC 3579 §3.2 (Message-Authenticator = HMAC-MD5 keyed with the
 * secret over the packet with the request's authenticator in the field and the attribute's value
 * zeroed; a packet whose Message-Authenticator does not verify is discarded), RFC 2865 §5.33 (only
 * proxies add Proxy-State), and draft-ietf-radext-deprecating-radius with FreeRADIUS 3.2.5 (a
 * Message-Authenticator first in every Access-Accept, -Reject and -Challenge; {@code
 * require_message_authenticator} and {@code limit_proxy_state}, each yes, no or auto).
 */
class BlastRadiusTest {

    private static final RadiusAttribute PROXY_STATE = new RadiusAttribute(RadiusAttributeType.PROXY_STATE.value(),
            bytes("proxy-1"));

    @Test
    void everyRelayedAccessAnswerCarriesAMessageAuthenticatorFirstThatVerifiesWithTheClientsSecret() throws Exception {
        RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.OFF, Tristate.OFF), Tristate.OFF);
        RadiusAttribute reply = text(RadiusAttributeType.REPLY_MESSAGE, "welcome");
        // Without one (an old server), with one last, with one first: each leaves with one first.
        List<List<RadiusAttribute>> answers = List.of(List.of(reply), List.of(reply, messageAuthenticator()),
                List.of(messageAuthenticator(), reply));
        RadiusCode[] codes = {RadiusCode.ACCESS_ACCEPT, RadiusCode.ACCESS_REJECT, RadiusCode.ACCESS_CHALLENGE};
        int id = 0;
        for (RadiusCode code : codes) {
            for (List<RadiusAttribute> attributes : answers) {
                id++;
                byte[] request = ByteBufUtil.getBytes(accessRequest(id, CLIENT_SECRET, "alice", "pw", List.of()));
                byte[] relayed = exchange(f.engine, request, code, attributes);
                assertThat(relayed[0] & 0xff).isEqualTo(code.value());
                assertThat(relayed[1] & 0xff).as("the client's identifier").isEqualTo(id);
                // The first attribute, right after the 20-octet header (RFC 2865 §3).
                assertThat(relayed[20]).isEqualTo((byte) 80);
                assertThat(relayed[21]).isEqualTo((byte) 18);
                assertThat(Arrays.copyOfRange(relayed, 22, 38)).as("%s %s", code, attributes)
                        .isEqualTo(hmacMd5(relayed, Arrays.copyOfRange(request, 4, 20), CLIENT_SECRET));
                assertThat(count(relayed, 80)).as("one Message-Authenticator").isEqualTo(1);
                assertThat(textOf(relayed, RadiusAttributeType.REPLY_MESSAGE.value())).isEqualTo("welcome");
                assertThat(RadiusAuthenticators.verifyResponse(view(Unpooled.wrappedBuffer(relayed)),
                        Arrays.copyOfRange(request, 4, 20), bytes(CLIENT_SECRET))).isTrue();
            }
        }
    }

    /**
     * With recvmmsg an answer is a slice exactly as long as the datagram, with no room to grow: the
     * engine copies it into one with room, and the Message-Authenticator goes first in the copy.
     */
    @Test
    void anAnswerReadIntoASliceWithoutRoomIsRelayedWithItsMessageAuthenticatorFirst() throws Exception {
        RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.OFF, Tristate.OFF), Tristate.OFF);
        byte[] request = ByteBufUtil.getBytes(accessRequest(9, CLIENT_SECRET, "alice", "pw", List.of()));
        f.engine.fromClient(request, NAS);
        EngineHarness.ToReal sent = f.engine.lastToReal();
        ByteBuf signed = answer(RadiusCode.ACCESS_ACCEPT, Unpooled.wrappedBuffer(sent.bytes()), REAL_SECRET,
                List.of(text(RadiusAttributeType.REPLY_MESSAGE, "welcome")));
        byte[] asSent = ByteBufUtil.getBytes(signed);
        signed.release();
        ByteBuf batch = Unpooled.directBuffer(4097).writeBytes(asSent).writeZero(64);
        ByteBuf slice = batch.retainedSlice(0, asSent.length);
        batch.release();
        assertThat(slice.maxWritableBytes()).as("no room").isZero();
        f.engine.fromReal(slice, sent.real().address(), sent.socket());
        assertThat(ByteBufUtil.getBytes(slice)).as("the datagram read is left as it was").isEqualTo(asSent);
        slice.release();
        byte[] relayed = f.engine.toClients().get(0).bytes();
        assertThat(relayed).hasSize(asSent.length + 18);
        assertThat(relayed[20]).isEqualTo((byte) 80);
        assertThat(Arrays.copyOfRange(relayed, 22, 38))
                .isEqualTo(hmacMd5(relayed, Arrays.copyOfRange(request, 4, 20), CLIENT_SECRET));
        assertThat(textOf(relayed, RadiusAttributeType.REPLY_MESSAGE.value())).isEqualTo("welcome");
        assertThat(RadiusAuthenticators.verifyResponse(view(Unpooled.wrappedBuffer(relayed)),
                Arrays.copyOfRange(request, 4, 20), bytes(CLIENT_SECRET))).isTrue();
    }

    @Test
    void anAccountingResponseIsRelayedWithoutOneAdded() {
        RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.AUTO, Tristate.AUTO), null);
        byte[] request = ByteBufUtil.getBytes(accountingRequest(5, CLIENT_SECRET, List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START))));
        byte[] relayed = exchange(f.engine, request, RadiusCode.ACCOUNTING_RESPONSE, List.of());
        assertThat(relayed).hasSize(20);
    }

    @Test
    void aRealThatMustSignHasItsUnsignedAccessAnswersDroppedAndCounted() {
        RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.OFF, Tristate.OFF), Tristate.ON);
        byte[] request = ByteBufUtil.getBytes(accessRequest(1, CLIENT_SECRET, "alice", "pw", List.of()));
        assertThat(exchange(f.engine, request, RadiusCode.ACCESS_ACCEPT, List.of())).isNull();
        assertThat(f.engine.answersRefused()).containsExactly(MessageAuthenticatorPolicy.MISSING);
        assertThat(f.count("switchboard.radius.answers.refused", "reason", MessageAuthenticatorPolicy.MISSING.name()))
                .isEqualTo(1);
        // Signed, it passes; an Accounting-Response needs none.
        byte[] again = ByteBufUtil.getBytes(accessRequest(2, CLIENT_SECRET, "alice", "pw", List.of()));
        assertThat(exchange(f.engine, again, RadiusCode.ACCESS_ACCEPT, List.of(messageAuthenticator()))).isNotNull();
        byte[] acct = ByteBufUtil.getBytes(accountingRequest(3, CLIENT_SECRET, List.of()));
        assertThat(exchange(f.engine, acct, RadiusCode.ACCOUNTING_RESPONSE, List.of())).isNotNull();
    }

    @Test
    void aRealOnAutoMustSignOnceItHasSigned() {
        RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.OFF, Tristate.OFF), null);
        assertThat(exchange(f.engine, request(1, List.of()), RadiusCode.ACCESS_ACCEPT, List.of()))
                .as("an old server, never signed").isNotNull();
        assertThat(exchange(f.engine, request(2, List.of()), RadiusCode.ACCESS_REJECT,
                List.of(messageAuthenticator()))).isNotNull();
        assertThat(exchange(f.engine, request(3, List.of()), RadiusCode.ACCESS_ACCEPT, List.of()))
                .as("unsigned after it signed: forged").isNull();
        assertThat(f.engine.answersRefused()).containsExactly(MessageAuthenticatorPolicy.MISSING);
    }

    @Test
    void aClientThatMustSignHasItsUnsignedAccessRequestsDropped() {
        RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.ON, Tristate.OFF), null);
        f.engine.fromClient(request(1, List.of()), NAS);
        assertThat(f.engine.toReals()).isEmpty();
        assertThat(f.engine.drops()).containsExactly(MessageAuthenticatorPolicy.MISSING);
        f.engine.fromClient(request(2, List.of(messageAuthenticator())), NAS);
        assertThat(f.engine.toReals()).hasSize(1);
        // Accounting-Request is signed whole by its Request Authenticator (RFC 2866 §3).
        f.engine.fromClient(ByteBufUtil.getBytes(accountingRequest(3, CLIENT_SECRET, List.of())), NAS);
        assertThat(f.engine.toReals()).hasSize(2);
    }

    @Test
    void aClientOnAutoMustSignOnceItHasSigned() {
        RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.AUTO, Tristate.OFF), null);
        f.engine.fromClient(request(1, List.of()), NAS);
        f.engine.fromClient(request(2, List.of(messageAuthenticator())), NAS);
        assertThat(f.engine.toReals()).hasSize(2);
        f.engine.fromClient(request(3, List.of()), NAS);
        assertThat(f.engine.toReals()).hasSize(2);
        assertThat(f.engine.drops()).containsExactly(MessageAuthenticatorPolicy.MISSING);
    }

    @Test
    void limitProxyStateDropsProxyStateWithoutMessageAuthenticator() {
        RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.OFF, Tristate.ON), null);
        f.engine.fromClient(request(1, List.of(PROXY_STATE)), NAS);
        assertThat(f.engine.drops()).containsExactly(MessageAuthenticatorPolicy.UNSIGNED_PROXY_STATE);
        f.engine.fromClient(request(2, List.of(PROXY_STATE, messageAuthenticator())), NAS);
        f.engine.fromClient(request(3, List.of()), NAS);
        assertThat(f.engine.toReals()).hasSize(2);
    }

    @Test
    void limitProxyStateOnAutoIsDecidedByTheClientsFirstAccessRequest() {
        // A NAS (its first request has no Proxy-State): limited from then on.
        RadiusFixture nas = new RadiusFixture(RadiusFixture.options(Tristate.OFF, Tristate.AUTO), null);
        nas.engine.fromClient(request(1, List.of()), NAS);
        nas.engine.fromClient(request(2, List.of(PROXY_STATE)), NAS);
        assertThat(nas.engine.toReals()).hasSize(1);
        assertThat(nas.engine.drops()).containsExactly(MessageAuthenticatorPolicy.UNSIGNED_PROXY_STATE);
        // An old proxy (its first request has Proxy-State and no Message-Authenticator): not limited.
        RadiusFixture proxy = new RadiusFixture(RadiusFixture.options(Tristate.OFF, Tristate.AUTO), null);
        proxy.engine.fromClient(request(1, List.of(PROXY_STATE)), NAS);
        proxy.engine.fromClient(request(2, List.of(PROXY_STATE)), NAS);
        assertThat(proxy.engine.toReals()).hasSize(2);
        assertThat(proxy.engine.drops()).isEmpty();
    }

    @Test
    void theDefaultsAreFreeRadius325sAuto() {
        RadiusOptions.Client client = new RadiusOptions.Client(RadiusFixture.address("127.0.0.1"), 32, "s");
        assertThat(client.requireMessageAuthenticator()).isEqualTo(Tristate.AUTO);
        assertThat(client.limitProxyState()).isEqualTo(Tristate.AUTO);
        assertThat(RadiusOptions.DEFAULT_REQUIRE).isEqualTo(Tristate.AUTO);
    }

    private static byte[] request(int id, List<RadiusAttribute> more) {
        return ByteBufUtil.getBytes(accessRequest(id, CLIENT_SECRET, "alice", "pw", more));
    }

    /**
     * {@code request} from the NAS, answered by the real with {@code code} and {@code attributes}
     * (signed with its secret); what the NAS then gets, or null.
     */
    static byte[] exchange(EngineHarness engine, byte[] request, RadiusCode code, List<RadiusAttribute> attributes) {
        int toClients = engine.toClients().size();
        int toReals = engine.toReals().size();
        engine.fromClient(request, NAS);
        assertThat(engine.toReals()).as("forwarded").hasSize(toReals + 1);
        EngineHarness.ToReal sent = engine.lastToReal();
        ByteBuf answer = answer(code, Unpooled.wrappedBuffer(sent.bytes()), REAL_SECRET, attributes);
        engine.answer(sent, ByteBufUtil.getBytes(answer));
        answer.release();
        return engine.toClients().size() == toClients ? null : engine.toClients().get(toClients).bytes();
    }

    /**
     * RFC 3579 §3.2, computed here on its own: HMAC-MD5 keyed with {@code secret} over the packet with
     * {@code requestAuthenticator} in the authenticator field and the Message-Authenticator (first
     * attribute) zeroed.
     */
    static byte[] hmacMd5(byte[] packet, byte[] requestAuthenticator, String secret) throws Exception {
        byte[] copy = packet.clone();
        System.arraycopy(requestAuthenticator, 0, copy, 4, 16);
        Arrays.fill(copy, 22, 38, (byte) 0);
        Mac mac = Mac.getInstance("HmacMD5");
        mac.init(new SecretKeySpec(bytes(secret), "HmacMD5"));
        return mac.doFinal(copy);
    }

    private static int count(byte[] packet, int type) {
        int n = 0;
        for (int a = 20; a < packet.length; a += packet[a + 1] & 0xff) {
            n += (packet[a] & 0xff) == type ? 1 : 0;
        }
        return n;
    }

    private static String textOf(byte[] packet, int type) {
        RadiusView v = view(Unpooled.wrappedBuffer(packet));
        return v.text(v.find(type));
    }
}
