package io.switchboard.codec.radius;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.testing.Hex;
import io.switchboard.codec.testing.Malformed;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RadiusMalformedTest {

    /** Everything a consumer might do with a packet: wrap, walk, read, decode the model. */
    static void exercise(ByteBuf buf) throws DecodeException {
        RadiusView view = RadiusView.wrap(buf);
        for (int a = view.firstAttribute(); a >= 0; a = view.nextAttribute(a)) {
            view.value(a);
            if (view.vendorId(a) >= 0) {
                view.vendorSubAttributesWellFormed(a);
                for (int s = view.firstVendorSubAttribute(a); s >= 0; s = view.nextVendorSubAttribute(a, s)) {
                    view.value(s);
                }
            }
        }
        view.userName();
        view.callingStationId();
        view.framedIpAddress();
        view.acctStatusType();
        view.acctSessionId();
        view.state();
        view.findVendor(RadiusVendor.CISCO, 1);
        RadiusAuthenticators.verifyRequest(view, RadiusVectors.SECRET);
        RadiusAuthenticators.verifyResponse(view, new byte[16], RadiusVectors.SECRET);
        RadiusPacket.decode(buf);
    }

    @Test
    void everyTruncationOfEveryVectorIsRejected() {
        for (Map.Entry<String, String> v : RadiusVectors.ALL.entrySet()) {
            Malformed.assertEveryTruncationRejected(Hex.bytes(v.getValue()), RadiusMalformedTest::exercise, v.getKey());
        }
    }

    @Test
    void corruptedLengthFieldsAreRejected() {
        for (Map.Entry<String, String> v : RadiusVectors.ALL.entrySet()) {
            byte[] valid = Hex.bytes(v.getValue());
            for (int length : new int[] {0, 1, 19, 4097, 0xFFFF}) {
                DecodeException e = Malformed.assertRejected(withLength(valid, length), RadiusMalformedTest::exercise,
                        v.getKey() + " length " + length);
                assertThat(e.reason()).isSameAs(DropReason.MALFORMED);
            }
            assertThat(Malformed.assertRejected(withLength(valid, valid.length + 1), RadiusMalformedTest::exercise,
                    v.getKey() + " length + 1").reason()).isSameAs(DropReason.TRUNCATED);
            if (valid.length > 20) {
                assertThat(Malformed.assertRejected(withLength(valid, valid.length - 1), RadiusMalformedTest::exercise,
                        v.getKey() + " length - 1").reason()).isSameAs(RadiusView.BAD_ATTRIBUTE);
            }
            // Each attribute's length octet: below the minimum of 2, and one past the end of the packet.
            for (int a = 20; a < valid.length; a += valid[a + 1] & 0xff) {
                int pastEnd = valid.length - a + 1;
                for (int bad : new int[] {0, 1, pastEnd}) {
                    if (bad > 255) {
                        continue;
                    }
                    byte[] copy = valid.clone();
                    copy[a + 1] = (byte) bad;
                    assertThat(Malformed.assertRejected(copy, RadiusMalformedTest::exercise,
                            v.getKey() + " attribute at " + a + " length " + bad).reason())
                            .isSameAs(RadiusView.BAD_ATTRIBUTE);
                }
            }
        }
    }

    @Test
    void messageAuthenticatorOfTheWrongLengthIsRejected() {
        byte[] packet = Hex.bytes("""
                0c 01 00 1a   # Status-Server, length 26
                00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                50 06 00 00 00 00   # Message-Authenticator of 4 octets
                """);
        assertThat(Malformed.assertRejected(packet, RadiusMalformedTest::exercise, "short MA").reason())
                .isSameAs(RadiusView.BAD_ATTRIBUTE);
    }

    @Test
    void malformedVendorSpecificIsKeptNotRejected() throws DecodeException {
        // RFC 2865 §5.26 only recommends the sub-attribute layout: a VSA that does not follow it is data.
        byte[] packet = Hex.bytes("""
                02 01 00 1f   # Access-Accept, length 31
                00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                1a 0b 00 00 00 09 07 09 61 62 63   # Cisco, sub-attribute length 9 > what is left
                """);
        ByteBuf buf = Unpooled.wrappedBuffer(packet);
        try {
            RadiusView view = RadiusView.wrap(buf);
            assertThat(view.vendorId(20)).isEqualTo(9);
            assertThat(view.vendorSubAttributesWellFormed(20)).isFalse();
            assertThat(view.firstVendorSubAttribute(20)).isEqualTo(-1);
            assertThat(view.findVendor(9, 7)).isEqualTo(-1);
            exercise(buf);
        } finally {
            buf.release();
        }
    }

    private static byte[] withLength(byte[] packet, int length) {
        byte[] copy = packet.clone();
        copy[2] = (byte) (length >>> 8);
        copy[3] = (byte) length;
        return copy;
    }
}
