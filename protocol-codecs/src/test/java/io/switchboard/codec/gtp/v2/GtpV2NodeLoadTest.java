package io.switchboard.codec.gtp.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Load and Overload Control Information (TS 29.274 §8.111/§8.112) read from crafted messages. */
class GtpV2NodeLoadTest {

    /**
     * A Create Session Response, as tshark 4.0 decodes it: Cause 16; LCI instance 0 (PGW node level)
     * {Sequence Number 5, Metric 40}; LCI instance 2 (SGW node level) {Sequence Number 9, Metric 70};
     * OCI instance 0 (PGW) {Sequence Number 7, Metric 30, EPC Timer unit 1 minute value 2}.
     */
    static final String SGW_AND_PGW = "482100460000123400000100" + "020002001000"
            + "b5000d00b700040000000005b600010028"
            + "b5000d02b700040000000009b600010046"
            + "b4001200b700040000000007b60001001e9c00010022";

    /** The same answer from a PGW: LCI instance 0 and OCI instance 0 only. */
    static final String PGW_ONLY = response("b5000d00b700040000000005b600010028"
            + "b4001200b700040000000007b60001001e9c00010022");

    /** A Create Session Response (TEID 0x1234, sequence 1, Cause 16) followed by {@code ies}. */
    private static String response(String ies) {
        int length = 4 + 4 + 6 + ies.length() / 2; // TEID, sequence and spare, Cause IE, the rest
        return String.format("4821%04x0000123400000100", length) + "020002001000" + ies;
    }

    private static GtpV2NodeLoad read(String hex) throws DecodeException {
        ByteBuf buf = Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex));
        return GtpV2NodeLoad.of(buf, GtpV2Header.of(buf));
    }

    @Test
    void theSgwsOwnFiguresWinOverThePgwsItRelays() throws Exception {
        assertThat(read(SGW_AND_PGW)).isEqualTo(new GtpV2NodeLoad(new GtpV2NodeLoad.Load(9, 70),
                new GtpV2NodeLoad.Overload(7, 30, 120_000)));
    }

    @Test
    void aPgwsFiguresAreItsOwn() throws Exception {
        assertThat(read(PGW_ONLY)).isEqualTo(new GtpV2NodeLoad(new GtpV2NodeLoad.Load(5, 40),
                new GtpV2NodeLoad.Overload(7, 30, 120_000)));
    }

    @Test
    void aMessageWithoutEitherHasNone() throws Exception {
        assertThat(read(response(""))).isNull();
    }

    @Test
    void missingMandatoryElementsAreMalformed() {
        // LCI without Metric; OCI without EPC Timer; LCI without Sequence Number.
        assertThatThrownBy(() -> read(response("b5000800b700040000000005")))
                .isInstanceOf(DecodeException.class).hasMessageContaining("without Metric");
        assertThatThrownBy(() -> read(response("b4000d00b700040000000007b60001001e")))
                .isInstanceOf(DecodeException.class).hasMessageContaining("without Period of Validity");
        assertThatThrownBy(() -> read(response("b5000500b600010028")))
                .isInstanceOf(DecodeException.class).hasMessageContaining("without Sequence Number");
    }

    @Test
    void anElementRunningPastTheMessageIsMalformed() {
        // The LCI claims 14 bytes but the message ends after 13.
        assertThatThrownBy(() -> read(response("b5000e00b700040000000005b600010028")))
                .isInstanceOf(DecodeException.class);
    }

    @Test
    void metricsAbove100AreReadAs100() throws Exception {
        assertThat(read(response("b5000d00b700040000000005b6000100c8")).load().loadMetric())
                .isEqualTo(100);
    }

    @Test
    void epcTimerUnitsFollowTs29274Section8_87() {
        assertThat(GtpV2NodeLoad.epcTimerMillis(0b000_00011)).isEqualTo(6_000);
        assertThat(GtpV2NodeLoad.epcTimerMillis(0b001_00011)).isEqualTo(180_000);
        assertThat(GtpV2NodeLoad.epcTimerMillis(0b010_00001)).isEqualTo(600_000);
        assertThat(GtpV2NodeLoad.epcTimerMillis(0b011_00001)).isEqualTo(3_600_000);
        assertThat(GtpV2NodeLoad.epcTimerMillis(0b100_00001)).isEqualTo(36_000_000);
        assertThat(GtpV2NodeLoad.epcTimerMillis(0b101_00010)).as("other units: minutes").isEqualTo(120_000);
        assertThat(GtpV2NodeLoad.epcTimerMillis(0b111_00000)).isEqualTo(GtpV2NodeLoad.INFINITE);
    }

    @Test
    void sequenceNumbersCompareAcrossTheWrap() {
        assertThat(GtpV2NodeLoad.newer(6, 5)).isTrue();
        assertThat(GtpV2NodeLoad.newer(5, 5)).isFalse();
        assertThat(GtpV2NodeLoad.newer(4, 5)).isFalse();
        assertThat(GtpV2NodeLoad.newer(1, 0xFFFF_FFF0L)).isTrue();
        assertThat(GtpV2NodeLoad.newer(0xFFFF_FFF0L, 1)).isFalse();
    }
}
