package io.switchboard.director.asn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.director.config.StickyKind;
import io.switchboard.director.sticky.StickyKey;
import org.junit.jupiter.api.Test;

/** Keys, transaction ids and numbering of the ASN plug-in, without a network. */
class AsnPluginTest {

    private static final long MSID = 0x0a1b2c3d4e5fL;

    private static AsnPlugin plugin(NwgRelease release) {
        return new AsnPlugin(new AsnOptions(release, true), new AsnCounters(new SimpleMeterRegistry(), "asn"));
    }

    private static io.netty.buffer.ByteBuf wrap(byte[] bytes) {
        return Unpooled.wrappedBuffer(bytes);
    }

    @Test
    void theStickyKeyIsTheMsid() throws Exception {
        AsnPlugin plugin = plugin(NwgRelease.R1_0_V1_2_1);
        StickyKey key = plugin.classify(wrap(R6Messages.preAttachment(NwgRelease.R1_0_V1_2_1, R6PreAttachment.REQUEST,
                MSID, 1)), null);
        assertThat(key).isEqualTo(StickyKey.parse(StickyKind.MSID, "0a:1b:2c:3d:4e:5f"));
    }

    @Test
    void theResponseMatchesTheRequestAndTheAckIsAnotherTransactionThatExpectsNoAnswer() throws Exception {
        for (NwgRelease release : NwgRelease.values()) {
            AsnPlugin plugin = plugin(release);
            byte[] req = R6Messages.preAttachment(release, R6PreAttachment.REQUEST, MSID, 0x0101);
            byte[] rsp = R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, MSID, 0x0101);
            byte[] ack = R6Messages.preAttachment(release, R6PreAttachment.ACK, MSID, 0x0101);
            long request = plugin.clientTransactionId(wrap(req));
            assertThat(plugin.responseTransactionId(wrap(rsp))).isEqualTo(request);
            assertThat(plugin.clientTransactionId(wrap(ack))).as("not a retransmission of the Req").isNotEqualTo(request);
            assertThat(plugin.expectsAnswer(wrap(req))).isTrue();
            assertThat(plugin.expectsAnswer(wrap(ack))).isFalse();
            assertThat(plugin.responseTransactionId(wrap(
                    R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, MSID + 1, 0x0101))))
                    .as("another MSID's response").isNotEqualTo(request);
            assertThat(request & 0xffff).isEqualTo(0x0101);
        }
    }

    @Test
    void theRspOfTheConfiguredReleaseMayNotBeSentToTheVirtualAddress() throws Exception {
        byte[] rsp100 = R6Messages.preAttachment(NwgRelease.R1_0_V1_0_0, R6PreAttachment.RESPONSE, MSID, 1);
        DecodeException e = catchThrowableOfType(DecodeException.class,
                () -> plugin(NwgRelease.R1_0_V1_0_0).classify(wrap(rsp100), null));
        assertThat(e.reason()).isEqualTo(DropReason.UNEXPECTED_MESSAGE);
        // Under v1.2.1 message type 7 is no MS_PreAttachment message: directed by its MSID.
        assertThat(plugin(NwgRelease.R1_0_V1_2_1).classify(wrap(rsp100), null).kind()).isEqualTo(StickyKind.MSID);
        assertThat(plugin(NwgRelease.R1_0_V1_2_1).messageName(io.switchboard.codec.asn.r6.R6View.wrap(wrap(rsp100))))
                .isEqualTo("MS State Response");
    }
}
