package io.switchboard.codec.radius;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.Hex;
import java.net.InetAddress;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Framed-IPv6-Prefix (RFC 3162 §2.3) and Delegated-IPv6-Prefix (RFC 4818 §3), both Type · Length ·
 * Reserved · Prefix-Length · Prefix (up to 16 octets), in attributes laid out by hand after that
 * figure.
 */
class RadiusIpv6PrefixTest {

    /** An Accounting-Request (code 4, id 7, authenticator zero) holding {@code attributes} (hex). */
    private static RadiusView packet(String attributes) throws DecodeException {
        byte[] body = Hex.bytes(attributes);
        byte[] packet = new byte[20 + body.length];
        packet[0] = 4;
        packet[1] = 7;
        packet[2] = (byte) (packet.length >> 8);
        packet[3] = (byte) packet.length;
        System.arraycopy(body, 0, packet, 20, body.length);
        ByteBuf buf = Unpooled.wrappedBuffer(packet);
        return RadiusView.wrap(buf);
    }

    /** The 17-octet form: the address's 16 octets, then the length. */
    private static byte[] prefix(String address, int bits) throws Exception {
        byte[] out = Arrays.copyOf(InetAddress.getByName(address).getAddress(), 17);
        out[16] = (byte) bits;
        return out;
    }

    @Test
    void aSlash64SentInItsEightOctetsOrInAllSixteenIsOnePrefix() throws Exception {
        // Type 97, Length 12, Reserved 0, Prefix-Length 64, Prefix 2001:db8:1:2 (8 octets).
        RadiusView short8 = packet("61 0c 00 40 20010db8 00010002");
        // The same prefix, all 16 octets sent (Length 20, the most RFC 3162 allows).
        RadiusView full16 = packet("61 14 00 40 20010db8 00010002 00000000 00000000");
        assertThat(short8.framedIpv6Prefix()).isEqualTo(prefix("2001:db8:1:2::", 64));
        assertThat(full16.framedIpv6Prefix()).isEqualTo(short8.framedIpv6Prefix());
        assertThat(short8.delegatedIpv6Prefix()).isNull();
    }

    @Test
    void delegatedPrefixHasTheSameLayoutUnderType123() throws Exception {
        // Type 123, Length 11, Reserved 0, Prefix-Length 56, Prefix 2001:db8:aa:bb (7 octets).
        RadiusView view = packet("7b 0b 00 38 20010db8 00aabb");
        assertThat(view.delegatedIpv6Prefix()).isEqualTo(prefix("2001:db8:aa:bb00::", 56));
        assertThat(view.framedIpv6Prefix()).isNull();
    }

    @Test
    void theExtremesZeroAndAllBitsAndBitsPastTheLengthCleared() throws Exception {
        // Length 4: Reserved and Prefix-Length only, the default route ::/0.
        assertThat(packet("61 04 00 00").framedIpv6Prefix()).isEqualTo(prefix("::", 0));
        assertThat(packet("61 14 00 80 20010db8 00000000 00000000 00000001").framedIpv6Prefix())
                .isEqualTo(prefix("2001:db8::1", 128));
        // /60 whose last nibble (past the prefix) the sender set anyway: the same /60.
        assertThat(packet("61 0c 00 3c 20010db8 0001000f").framedIpv6Prefix())
                .isEqualTo(prefix("2001:db8:1::", 60));
        // A non-zero Reserved octet is ignored (RFC 8044 §3.11).
        assertThat(packet("61 0c 01 40 20010db8 00010002").framedIpv6Prefix())
                .isEqualTo(prefix("2001:db8:1:2::", 64));
    }

    @Test
    void malformedValuesAreNoPrefixAndTheNextWellFormedOneIsUsed() throws Exception {
        // Prefix-Length 129; a /64 in 4 octets; a value of one octet (Length 3); 19 octets (Length 21).
        assertThat(packet("61 0c 00 81 20010db8 00010002").framedIpv6Prefix()).isNull();
        assertThat(packet("61 08 00 40 20010db8").framedIpv6Prefix()).isNull();
        assertThat(packet("61 03 00").framedIpv6Prefix()).isNull();
        assertThat(packet("61 15 00 40 20010db8 00010002 00000000 00000000 00").framedIpv6Prefix()).isNull();
        // RFC 3162 §2.3: the attribute "can appear multiple times"; the first that reads is taken.
        RadiusView two = packet("61 08 00 40 20010db8   61 0a 00 30 20010db8 0009");
        assertThat(two.framedIpv6Prefix()).isEqualTo(prefix("2001:db8:9::", 48));
        int second = two.nextAttribute(two.firstAttribute());
        assertThat(two.ipv6Prefix(two.firstAttribute())).isNull();
        assertThat(two.ipv6Prefix(second)).isEqualTo(prefix("2001:db8:9::", 48));
    }

    @Test
    void theTypesAreNamed() {
        assertThat(RadiusAttributeType.valueOf(97)).isSameAs(RadiusAttributeType.FRAMED_IPV6_PREFIX);
        assertThat(RadiusAttributeType.FRAMED_IPV6_PREFIX.name()).isEqualTo("Framed-IPv6-Prefix");
        assertThat(RadiusAttributeType.valueOf(123)).isSameAs(RadiusAttributeType.DELEGATED_IPV6_PREFIX);
        assertThat(RadiusAttributeType.DELEGATED_IPV6_PREFIX.name()).isEqualTo("Delegated-IPv6-Prefix");
    }
}
