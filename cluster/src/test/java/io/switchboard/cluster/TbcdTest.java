package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyKey;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TbcdTest {

    private static final StickyKind IMSI = StickyKind.of("imsi", StickyKind.Format.TEXT);

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static long imsi(String digits) {
        return Tbcd.imsi(StickyKey.of(IMSI, ascii(digits)));
    }

    @Test
    void anImsiPacksIntoTheBytesOfTheGtpImsiElement() {
        // 3GPP TS 29.274 §8.3 / TS 24.008 §10.5.1.4: 262011234567890 → 62 02 11 32 54 76 98 f0
        assertThat(imsi("262011234567890")).isEqualTo(0x62021132547698F0L);
        assertThat(Tbcd.digits(0x62021132547698F0L)).isEqualTo(ascii("262011234567890"));
    }

    @Test
    void leadingZerosAndShortValuesRoundTrip() {
        for (String digits : new String[] {"0", "00", "001010000000001", "12345", "999999999999999"}) {
            assertThat(Tbcd.digits(imsi(digits))).as(digits).isEqualTo(ascii(digits));
        }
        assertThat(imsi("0")).isNotEqualTo(imsi("00"));
    }

    @Test
    void onlyOneToFifteenDigitsOfTheImsiKindPack() {
        assertThat(imsi("262011234567890")).isNotZero();
        assertThat(imsi("")).isZero();
        assertThat(imsi("2620112345678901")).isZero();
        assertThat(imsi("26201a")).isZero();
        assertThat(imsi("2620/")).as("the byte below '0'").isZero();
        assertThat(Tbcd.imsi(StickyKey.of(StickyKind.of("calling-station-id", StickyKind.Format.TEXT),
                ascii("262011234567890")))).as("digits of another kind").isZero();
        assertThatThrownBy(() -> Tbcd.digits(-1L)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Tbcd.digits(0x6A0211FFFFFFFFFFL)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Tbcd.digits(0x2FFFFFFFFFFFFFFFL)).isInstanceOf(IllegalArgumentException.class);
    }
}
