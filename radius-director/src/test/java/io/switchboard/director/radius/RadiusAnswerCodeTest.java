package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.answer;
import static io.switchboard.director.radius.RadiusPackets.messageAuthenticator;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.director.testing.EngineHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An answer whose code answers another request is not relayed (RFC 2865 §4.1: an Access-Request is answered by
 * Access-Accept, -Reject or -Challenge; RFC 2866 §4.1: an Accounting-Request by Accounting-Response). Found by the
 * RADIUS decision fuzz target: a real's Accounting-Response to an Access-Request went to the NAS re-signed and without
 * a Message-Authenticator, which the director puts in every Access-* answer against BlastRADIUS (vector in
 * fuzz/radius-director.hex).
 */
class RadiusAnswerCodeTest {

    @Test
    void anAccountingResponseToAnAccessRequestIsRefusedAndAnAcceptRelayed() {
        RadiusFixture fixture = new RadiusFixture(new RadiusOptions(List.of(new RadiusOptions.Client(
                RadiusFixture.address("127.0.0.0"), 8, RadiusFixture.CLIENT_SECRET))), null);
        EngineHarness engine = fixture.engine;
        byte[] request = ByteBufUtil.getBytes(accessRequest(9, RadiusFixture.CLIENT_SECRET, "alice", "pw",
                List.of(messageAuthenticator())));
        engine.fromClient(request, RadiusFixture.NAS);
        EngineHarness.ToReal sent = engine.lastToReal();
        engine.answer(sent, ByteBufUtil.getBytes(answer(RadiusCode.ACCOUNTING_RESPONSE, Unpooled.wrappedBuffer(sent.bytes()),
                RadiusFixture.REAL_SECRET, List.of())));
        assertThat(engine.toClients()).as("nothing relayed").isEmpty();
        assertThat(engine.answersRefused()).containsExactly(DropReason.UNEXPECTED_MESSAGE);

        engine.fromClient(request, RadiusFixture.NAS); // the NAS retransmits; the real answers properly this time
        EngineHarness.ToReal again = engine.lastToReal();
        engine.answer(again, ByteBufUtil.getBytes(answer(RadiusCode.ACCESS_ACCEPT, Unpooled.wrappedBuffer(again.bytes()),
                RadiusFixture.REAL_SECRET, List.of(messageAuthenticator()))));
        assertThat(engine.toClients()).singleElement()
                .satisfies(c -> assertThat(c.bytes()[0]).isEqualTo((byte) RadiusCode.ACCESS_ACCEPT.value()));
    }

    @Test
    void eachRequestCodeHasItsAnswers() {
        assertThat(RadiusCode.answers(1, 2)).isTrue();
        assertThat(RadiusCode.answers(1, 11)).isTrue();
        assertThat(RadiusCode.answers(1, 5)).isFalse();
        assertThat(RadiusCode.answers(4, 5)).isTrue();
        assertThat(RadiusCode.answers(4, 2)).isFalse();
        assertThat(RadiusCode.answers(12, 2)).isTrue(); // Status-Server, RFC 5997 §3
        assertThat(RadiusCode.answers(43, 44)).isTrue();
        assertThat(RadiusCode.answers(40, 44)).isFalse();
    }
}
