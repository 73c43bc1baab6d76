package io.switchboard.codec.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.gtp.v1.GtpV1Codec;
import io.switchboard.codec.gtp.v1.GtpV1Ie;
import io.switchboard.codec.gtp.v1.GtpV1Message;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class GtpTbcdAndApnTest {

    @Test
    void tbcdDigitsLowNibbleFirstWithFiller() {
        // TS 29.002 TBCD: 460004100000101 as in the zeek Create PDP Context Request
        byte[] imsi = ByteBufUtil.decodeHexDump("64004001000001f1");
        assertThat(GtpTbcd.decode(imsi, 0, 8)).isEqualTo("460004100000101");
        assertThat(GtpTbcd.encode("460004100000101", 8)).isEqualTo(imsi);
        assertThat(GtpTbcd.encode("123")).containsExactly(0x21, 0xf3);
        assertThat(GtpTbcd.decode(new byte[] {(byte) 0xba, 0x0c}, 0, 2)).isEqualTo("*#a0");
        assertThatThrownBy(() -> GtpTbcd.encode("12x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GtpTbcd.encode("123", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void apnLabels() {
        byte[] wire = ByteBufUtil.decodeHexDump("08696e7465726e6574066d6e633030310467707273");
        assertThat(GtpApn.decode(wire)).isEqualTo("internet.mnc001.gprs");
        assertThat(GtpApn.encode("internet.mnc001.gprs")).isEqualTo(wire);
        // plain text instead of labels, a zero-length label, a label running past the end: not an APN
        assertThat(GtpApn.decode("internet".getBytes(StandardCharsets.US_ASCII))).isNull();
        assertThat(GtpApn.decode(new byte[] {0})).isNull();
        assertThat(GtpApn.decode(new byte[] {5, 'a'})).isNull();
        assertThatThrownBy(() -> GtpApn.encode("a..b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anApnSentAsPlainTextIsKeptRawSoItReencodesExactly() throws Exception {
        // Echo Request carrying APN IE 131 with the text "inet" (no label length)
        byte[] bytes = ByteBufUtil.decodeHexDump("3201000b00000000000100008300" + "04696e6574");
        GtpV1Message m = GtpVectors.decode(bytes, GtpV1Codec::decode);
        assertThat(m.ies()).containsExactly(new GtpV1Ie.Raw(131, "inet".getBytes(StandardCharsets.US_ASCII)));
        assertThat(GtpVectors.encoded(out -> GtpV1Codec.encode(m, out))).isEqualTo(bytes);
    }

    /**
     * A label of 64 octets is no APN label (RFC 1035 §2.3.4, TS 23.003 §9.1): decode keeps the bytes raw (null)
     * rather than giving a name encode refuses. It made the GTPv2 model throw IllegalArgumentException instead of
     * keeping the IE raw (found by the gtp-ies fuzz target's APN rule, vector in fuzz/gtp-ies.hex).
     */
    @org.junit.jupiter.api.Test
    void aLabelLongerThanSixtyThreeOctetsIsNoApnAndTheModelKeepsItRaw() throws Exception {
        byte[] label = new byte[65];
        label[0] = 64;
        java.util.Arrays.fill(label, 1, 65, (byte) 'a');
        assertThat(GtpApn.decode(label)).isNull();
        byte[] sixtyThree = java.util.Arrays.copyOf(label, 64);
        sixtyThree[0] = 63;
        assertThat(GtpApn.encode(GtpApn.decode(sixtyThree))).isEqualTo(sixtyThree);
        // A GTPv2 Echo Request (TS 29.274 §7.1.1) carrying an APN IE (type 71, TS 29.274 §8.6) with that label.
        byte[] message = io.switchboard.codec.testing.Hex.bytes("40 01 0049 000001 00 47 0041 00"
                + io.switchboard.codec.testing.Hex.of(label));
        io.netty.buffer.ByteBuf out = io.netty.buffer.Unpooled.buffer();
        io.switchboard.codec.gtp.v2.GtpV2Codec.encode(
                io.switchboard.codec.gtp.v2.GtpV2Codec.decode(io.netty.buffer.Unpooled.wrappedBuffer(message)), out);
        assertThat(io.netty.buffer.ByteBufUtil.getBytes(out)).as("decoded and re-encoded losslessly").isEqualTo(message);
    }
}
