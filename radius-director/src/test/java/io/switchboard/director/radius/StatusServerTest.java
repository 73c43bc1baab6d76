package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.spi.Decision;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Status-Server sent to the virtual server (RFC 5997), answered by the director from its view of the farm. */
class StatusServerTest {

    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private final RadiusFixture auth = new RadiusFixture(RadiusFixture.options(RadiusOptions.Tristate.AUTO,
            RadiusOptions.Tristate.AUTO), null);

    /** The requests made and the answers got: the engine's caller owns both, so the test releases them. */
    private final List<ByteBuf> held = new ArrayList<>();

    @AfterEach
    void release() {
        held.forEach(b -> b.release(b.refCnt()));
    }

    private ByteBuf statusServer(int id, String secret, boolean messageAuthenticator) {
        ByteBuf request = RadiusPackets.signed(RadiusCode.STATUS_SERVER, id, RadiusPackets.randomAuthenticator(),
                messageAuthenticator ? List.of(RadiusPackets.messageAuthenticator()) : List.of(), secret);
        held.add(request);
        return request;
    }

    private RadiusView answerOf(Decision decision) {
        assertThat(decision).isInstanceOf(Decision.AnswerLocally.class);
        ByteBuf answer = ((Decision.AnswerLocally) decision).answer();
        held.add(answer);
        return RadiusPackets.view(answer);
    }

    @Test
    void anAuthenticationPortAnswersAnAccessAcceptSignedOverTheStatusServersAuthenticator() throws Exception {
        ByteBuf request = statusServer(77, RadiusFixture.CLIENT_SECRET, true);
        byte[] requestAuthenticator = RadiusPackets.view(request).authenticator();

        RadiusView answer = answerOf(auth.plugin.decide(request, RadiusFixture.NAS, ALLOC));

        assertThat(RadiusCode.valueOf(answer.code())).isEqualTo(RadiusCode.ACCESS_ACCEPT);
        assertThat(answer.identifier()).isEqualTo(77);
        // RFC 5997 §3: the answer carries a Message-Authenticator, both computed with the request's authenticator.
        assertThat(answer.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value())).isGreaterThanOrEqualTo(0);
        assertThat(RadiusAuthenticators.verifyResponse(answer, requestAuthenticator,
                RadiusPackets.bytes(RadiusFixture.CLIENT_SECRET))).isTrue();
        assertThat(auth.count("switchboard.radius.status.server", "outcome", "answered")).isEqualTo(1);
        assertThat(auth.real.forwarded()).as("never forwarded to a real").isZero();
    }

    @Test
    void anAccountingPortAnswersAnAccountingResponse() throws Exception {
        RadiusFixture acct = new RadiusFixture(RadiusFixture.options(RadiusOptions.Tristate.AUTO,
                RadiusOptions.Tristate.AUTO).withStatusServer(RadiusOptions.StatusServerPort.ACCOUNTING), null);
        ByteBuf request = statusServer(5, RadiusFixture.CLIENT_SECRET, true);
        byte[] requestAuthenticator = RadiusPackets.view(request).authenticator();

        RadiusView answer = answerOf(acct.plugin.decide(request, RadiusFixture.NAS, ALLOC));

        assertThat(RadiusCode.valueOf(answer.code())).isEqualTo(RadiusCode.ACCOUNTING_RESPONSE);
        assertThat(RadiusAuthenticators.verifyResponse(answer, requestAuthenticator,
                RadiusPackets.bytes(RadiusFixture.CLIENT_SECRET))).isTrue();
    }

    @Test
    void withoutMessageAuthenticatorItIsDiscarded() {
        // RFC 5997 §3: a Status-Server without Message-Authenticator is silently discarded.
        assertThatThrownBy(() -> auth.plugin.decide(statusServer(1, RadiusFixture.CLIENT_SECRET, false),
                RadiusFixture.NAS, ALLOC))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(StatusServer.NO_MESSAGE_AUTHENTICATOR));
    }

    @Test
    void aMessageAuthenticatorOfAnotherSecretIsDiscarded() {
        assertThatThrownBy(() -> auth.plugin.decide(statusServer(1, "not-the-secret", true), RadiusFixture.NAS, ALLOC))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(RadiusPlugin.BAD_MESSAGE_AUTHENTICATOR));
    }

    @Test
    void anUnknownClientIsNotAnswered() {
        InetSocketAddress stranger = new InetSocketAddress(RadiusFixture.address("::1"), 40000);
        assertThatThrownBy(() -> auth.plugin.decide(statusServer(1, RadiusFixture.CLIENT_SECRET, true), stranger, ALLOC))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(EngineDrops.CLIENT_NOT_ALLOWED));
    }

    @Test
    void withNoRealInServiceTheDirectorStaysSilentSoThatTheNasFailsOver() throws Exception {
        auth.real.failInBand(auth.now.get(), "test");

        Decision decision = auth.plugin.decide(statusServer(9, RadiusFixture.CLIENT_SECRET, true), RadiusFixture.NAS,
                ALLOC);

        assertThat(decision).isInstanceOfSatisfying(Decision.Drop.class,
                d -> assertThat(d.reason()).isEqualTo(StatusServer.NO_REAL_SERVES));
        assertThat(auth.count("switchboard.radius.status.server", "outcome", "no-real-serves")).isEqualTo(1);
        auth.real.revive();
        answerOf(auth.plugin.decide(statusServer(10, RadiusFixture.CLIENT_SECRET, true), RadiusFixture.NAS, ALLOC));
    }

    @Test
    void offDiscardsItAsBefore() {
        RadiusFixture off = new RadiusFixture(RadiusFixture.options(RadiusOptions.Tristate.AUTO,
                RadiusOptions.Tristate.AUTO).withStatusServer(RadiusOptions.StatusServerPort.OFF), null);
        assertThatThrownBy(() -> off.plugin.decide(statusServer(1, RadiusFixture.CLIENT_SECRET, true),
                RadiusFixture.NAS, ALLOC))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isEqualTo(DropReason.UNEXPECTED_MESSAGE));
    }

    @Test
    void autoReadsTheListenPort() {
        RadiusOptions.StatusServerPort auto = RadiusOptions.StatusServerPort.AUTO;
        assertThat(auto.resolve(1813)).isEqualTo(RadiusOptions.StatusServerPort.ACCOUNTING);
        assertThat(auto.resolve(1646)).isEqualTo(RadiusOptions.StatusServerPort.ACCOUNTING);
        assertThat(auto.resolve(1812)).isEqualTo(RadiusOptions.StatusServerPort.ACCESS);
        assertThat(RadiusOptions.StatusServerPort.OFF.resolve(1813)).isEqualTo(RadiusOptions.StatusServerPort.OFF);
    }
}
