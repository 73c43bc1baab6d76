package io.switchboard.codec.gtp.v2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.testing.Hex;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/**
 * The sender F-TEID as the view ({@code locate}, on the director's path) and the model ({@code of}) read it: one rule,
 * the same answer. Regression vectors of the gtp-ies fuzz target's finding (fuzz/gtp-ies.hex).
 */
class GtpV2SenderFteidTest {

    /**
     * A Create Session Request (TS 29.274 §7.2.1) whose Sender F-TEID for Control Plane (IE 87 instance 0: V4, S11
     * MME GTP-C, TEID 0x11223344, 10.0.0.1) carries two octets after the address, which TS 29.274 §8.22 allows
     * ("octets m to (n+4)") and a receiver that does not know them ignores (§8.2.1).
     */
    private static final String LONGER = "48 20 0017 00000000 000001 00" // header: T, type 32, TEID 0, sequence 1
            + " 57 000b 00 8a 11223344 0a000001 eeff";                    // F-TEID with two octets more

    @Test
    void anFteidLongerThanItsFlagsCallForIsTheSendersForViewAndModelAlike() throws Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(Hex.bytes(LONGER));
        GtpV2Header header = new GtpV2Header().wrap(buf, 0);
        int sender = GtpV2SenderFteid.locate(buf, header);
        assertThat(sender).as("the view's").isEqualTo(12);
        GtpV2Message message = GtpV2Codec.decode(buf.duplicate());
        assertThat(message.senderControlPlane()).as("the model's")
                .contains(new GtpControlEndpoint(0x11223344L, (java.net.Inet4Address) InetAddress.getByName("10.0.0.1"),
                        null));
        // Still kept as it came: the extra octets re-encode (the decoder keeps the element raw).
        ByteBuf out = Unpooled.buffer();
        GtpV2Codec.encode(message, out);
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo(ByteBufUtil.hexDump(buf));
    }

    /** The first F-TEID of the instance too short for its flags: no sender, not a later F-TEID, in both readings. */
    @Test
    void aShortFirstFteidHidesALaterOneFromViewAndModelAlike() throws Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(Hex.bytes("48 20 001d 00000000 000001 00"
                + " 57 0004 00 8a 112233"              // V4 flagged, no room for the address
                + " 57 0009 00 8a 11223344 0a000001")); // a valid one after it
        GtpV2Header header = new GtpV2Header().wrap(buf, 0);
        assertThat(GtpV2SenderFteid.locate(buf, header)).isEqualTo(-1);
        assertThat(GtpV2Codec.decode(buf.duplicate()).senderControlPlane()).isEmpty();
    }
}
