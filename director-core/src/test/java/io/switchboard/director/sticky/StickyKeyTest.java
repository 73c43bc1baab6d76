package io.switchboard.director.sticky;

import static io.switchboard.director.testing.TestFarms.ip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.spi.StickyKind;
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
        "client-address, 192.0.2.7",
        "client-address, 2001:db8:0:0:0:0:0:1",
        "framed-ip, 100.64.0.1",
        "imsi, 001010123456789",
        "msid, 00:1b:63:84:45:e6",
        "calling-station-id, 46701234567",
        "username, alice@ims.example.net",
    })
    void parseAndToStringRoundTrip(String kindName, String text) {
        StickyKind kind = java.util.stream.Stream.of(StickyKind.CLIENT_ADDRESS, TestKinds.FRAMED_IP, TestKinds.IMSI,
                TestKinds.MSID, TestKinds.CALLING_STATION_ID, TestKinds.USERNAME)
                .filter(k -> k.configName().equals(kindName)).findFirst().orElseThrow();
        StickyKey key = StickyKey.parse(kind, text);

        assertThat(key.kind()).isEqualTo(kind);
        assertThat(key.toString()).isEqualTo(text);
        assertThat(StickyKey.parse(kind, key.toString())).isEqualTo(key).hasSameHashCodeAs(key);
    }

    @Test
    void parsedValuesAreTheWireBytes() {
        assertThat(StickyKey.parse(TestKinds.MSID, "00:1b:63:84:45:e6").value())
                .containsExactly(0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6);
        assertThat(StickyKey.parse(TestKinds.FRAMED_IP, "100.64.0.1").value()).containsExactly(100, 64, 0, 1);
        assertThat(StickyKey.parse(TestKinds.IMSI, "001010123456789").value())
                .isEqualTo("001010123456789".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void kindsAreEqualByName() {
        StickyKey mine = StickyKey.parse(TestKinds.IMSI, "001010123456789");
        StickyKey someoneElses = StickyKey.parse(StickyKind.of("imsi", StickyKind.Format.TEXT), "001010123456789");

        assertThat(someoneElses).isEqualTo(mine).hasSameHashCodeAs(mine);
        assertThat(StickyKey.parse(TestKinds.USERNAME, "001010123456789")).isNotEqualTo(mine);
    }

    @Test
    void aKindNoInstalledPluginDeclaresPrintsAsHex() {
        StickyKey key = StickyKey.of(StickyKind.named("not-installed"), new byte[] {0x0a, 0x1b});

        assertThat(key.toString()).isEqualTo("0a:1b");
        assertThat(key.kind()).isEqualTo(StickyKind.of("not-installed", StickyKind.Format.TEXT));
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
        assertThatThrownBy(() -> StickyKey.parse(TestKinds.FRAMED_IP, "example.net"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theHashIsTheKeyHashOfTheValueAndStable() {
        StickyKey key = StickyKey.parse(TestKinds.IMSI, "001010123456789");

        assertThat(key.hash()).isEqualTo(KeyHash.of("001010123456789".getBytes(StandardCharsets.US_ASCII)));
        assertThat(key.hash()).isEqualTo(StickyKey.parse(TestKinds.IMSI, "001010123456789").hash());
        assertThat(key.hash()).isNotEqualTo(StickyKey.parse(TestKinds.IMSI, "001010123456788").hash());
    }

    @Test
    void aPrefixKeyIsTheMaskedAddressAndItsLength() {
        StickyKind prefix = StickyKind.of("framed-ipv6-prefix", StickyKind.Format.PREFIX);
        StickyKey key = StickyKey.parse(prefix, "2001:db8:1:2::/64");
        byte[] expected = java.util.Arrays.copyOf(
                java.util.HexFormat.of().parseHex("20010db8000100020000000000000000"), 17);
        expected[16] = 64;
        assertThat(key.value()).isEqualTo(expected);
        assertThat(key.toString()).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        // Host bits and the long form: the same key.
        assertThat(StickyKey.parse(prefix, "2001:0db8:0001:0002:0000:0000:0000:0001/64")).isEqualTo(key);
        assertThat(StickyKey.parse(prefix, key.toString())).isEqualTo(key);
        assertThat(StickyKey.parse(prefix, "2001:db8:1:2::/56")).isNotEqualTo(key);
        assertThat(StickyKey.parse(prefix, "10.1.2.3/24").toString()).isEqualTo("10.1.2.0/24");
        for (String bad : new String[] {"2001:db8::", "2001:db8::/129", "10.0.0.0/33", "2001:db8::/x", "host/64"}) {
            assertThatThrownBy(() -> StickyKey.parse(prefix, bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void valueIsACopy() {
        StickyKey key = StickyKey.parse(TestKinds.IMSI, "0010101");
        key.value()[0] = 'X';

        assertThat(key.toString()).isEqualTo("0010101");
    }
}
