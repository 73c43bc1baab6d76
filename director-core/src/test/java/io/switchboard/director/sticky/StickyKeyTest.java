package io.switchboard.director.sticky;

import static io.switchboard.director.testing.TestFarms.ip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.config.StickyKind;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StickyKeyTest {

    @Test
    void clientAddressMaskedTo24Bits() {
        StickyKey key = StickyKey.clientAddress(ip("10.1.2.3"), 24);

        assertThat(key.kind()).isEqualTo(StickyKind.CLIENT_ADDRESS);
        assertThat(key.value()).containsExactly(10, 1, 2, 0);
        assertThat(key.toString()).isEqualTo("10.1.2.0");
        assertThat(key).isEqualTo(StickyKey.clientAddress(ip("10.1.2.200"), 24));
        assertThat(key).isNotEqualTo(StickyKey.clientAddress(ip("10.1.3.3"), 24));
    }

    @ParameterizedTest
    @CsvSource({
        "10.1.2.3, 32, 10.1.2.3",
        "10.1.2.3, 0, 0.0.0.0",
        "10.1.2.255, 28, 10.1.2.240",
        "10.1.255.3, 20, 10.1.240.0",
        "10.1.2.3, 64, 10.1.2.3",
    })
    void clientAddressMasksIpv4(String address, int bits, String masked) {
        assertThat(StickyKey.clientAddress(ip(address), bits).toString()).isEqualTo(masked);
    }

    @ParameterizedTest
    @CsvSource({
        "2001:db8:1:2:3:4:5:6, 64, 2001:db8:1:2:0:0:0:0",
        "2001:db8:1:2:3:4:5:6, 48, 2001:db8:1:0:0:0:0:0",
        "2001:db8:1:ffff:3:4:5:6, 52, 2001:db8:1:f000:0:0:0:0",
        "2001:db8:1:2:3:4:5:6, 128, 2001:db8:1:2:3:4:5:6",
    })
    void clientAddressMasksIpv6(String address, int bits, String masked) {
        StickyKey key = StickyKey.clientAddress(ip(address), bits);

        assertThat(key.value()).hasSize(16);
        assertThat(key).isEqualTo(StickyKey.clientAddress(ip(masked), 128));
    }

    @Test
    void maskingDoesNotChangeTheCallersAddress() {
        var address = ip("10.1.2.3");
        StickyKey.clientAddress(address, 8);

        assertThat(address.getHostAddress()).isEqualTo("10.1.2.3");
    }

    @ParameterizedTest
    @CsvSource({
        "CLIENT_ADDRESS, 192.0.2.7",
        "CLIENT_ADDRESS, 2001:db8:0:0:0:0:0:1",
        "FRAMED_IP, 100.64.0.1",
        "IMSI, 001010123456789",
        "MSID, 00:1b:63:84:45:e6",
        "CALLING_STATION_ID, 46701234567",
        "USERNAME, alice@ims.example.net",
    })
    void parseAndToStringRoundTrip(StickyKind kind, String text) {
        StickyKey key = StickyKey.parse(kind, text);

        assertThat(key.kind()).isEqualTo(kind);
        assertThat(key.toString()).isEqualTo(text);
        assertThat(StickyKey.parse(kind, key.toString())).isEqualTo(key).hasSameHashCodeAs(key);
    }

    @Test
    void parsedValuesAreTheWireBytes() {
        assertThat(StickyKey.parse(StickyKind.MSID, "00:1b:63:84:45:e6").value())
                .containsExactly(0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6);
        assertThat(StickyKey.parse(StickyKind.FRAMED_IP, "100.64.0.1").value()).containsExactly(100, 64, 0, 1);
        assertThat(StickyKey.parse(StickyKind.IMSI, "001010123456789").value())
                .isEqualTo("001010123456789".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void theShortIpv6FormParsesToTheSameKey() {
        assertThat(StickyKey.parse(StickyKind.CLIENT_ADDRESS, "2001:db8::1"))
                .isEqualTo(StickyKey.parse(StickyKind.CLIENT_ADDRESS, "2001:db8:0:0:0:0:0:1"));
    }

    @Test
    void hostNamesAreNotAddresses() {
        assertThatThrownBy(() -> StickyKey.parse(StickyKind.CLIENT_ADDRESS, "localhost"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StickyKey.parse(StickyKind.FRAMED_IP, "example.net"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theHashIsTheKeyHashOfTheValueAndStable() {
        StickyKey key = StickyKey.parse(StickyKind.IMSI, "001010123456789");

        assertThat(key.hash()).isEqualTo(KeyHash.of("001010123456789".getBytes(StandardCharsets.US_ASCII)));
        assertThat(key.hash()).isEqualTo(StickyKey.parse(StickyKind.IMSI, "001010123456789").hash());
        assertThat(key.hash()).isNotEqualTo(StickyKey.parse(StickyKind.IMSI, "001010123456788").hash());
    }

    @Test
    void valueIsACopy() {
        StickyKey key = StickyKey.parse(StickyKind.IMSI, "0010101");
        key.value()[0] = 'X';

        assertThat(key.toString()).isEqualTo("0010101");
    }
}
