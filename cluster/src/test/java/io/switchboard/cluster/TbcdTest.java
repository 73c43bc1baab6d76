package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TbcdTest {

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void anImsiPacksIntoTheBytesOfTheGtpImsiElement() {
        // 3GPP TS 29.274 §8.3 / TS 24.008 §10.5.1.4: 262011234567890 → 62 02 11 32 54 76 98 f0
        assertThat(Tbcd.pack(ascii("262011234567890"))).isEqualTo(0x62021132547698F0L);
        assertThat(Tbcd.digits(0x62021132547698F0L)).isEqualTo(ascii("262011234567890"));
    }

    @Test
    void leadingZerosAndShortValuesRoundTrip() {
        for (String digits : new String[] {"0", "00", "001010000000001", "12345", "999999999999999"}) {
            assertThat(Tbcd.digits(Tbcd.pack(ascii(digits)))).as(digits).isEqualTo(ascii(digits));
        }
        assertThat(Tbcd.pack(ascii("0"))).isNotEqualTo(Tbcd.pack(ascii("00")));
    }

    @Test
    void onlyOneToFifteenDigitsFit() {
        assertThat(Tbcd.fits(ascii("262011234567890"))).isTrue();
        assertThat(Tbcd.fits(ascii(""))).isFalse();
        assertThat(Tbcd.fits(ascii("2620112345678901"))).isFalse();
        assertThat(Tbcd.fits(ascii("26201a"))).isFalse();
        assertThatThrownBy(() -> Tbcd.digits(-1L)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Tbcd.digits(0x6A0211FFFFFFFFFFL)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Tbcd.digits(0x2FFFFFFFFFFFFFFFL)).isInstanceOf(IllegalArgumentException.class);
    }
}
