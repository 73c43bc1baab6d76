package io.switchboard.director.config.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.switchboard.director.config.Endpoint;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressLiteralsTest {

    private static InetAddress bytes(int... b) throws Exception {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return InetAddress.getByAddress(out);
    }

    @Test
    void ipv4DottedQuad() throws Exception {
        assertThat(AddressLiterals.parseAddress("10.0.0.1")).isEqualTo(bytes(10, 0, 0, 1));
        assertThat(AddressLiterals.parseAddress("255.255.255.255")).isEqualTo(bytes(255, 255, 255, 255));
        assertThat(AddressLiterals.parseAddress("0.0.0.0")).isInstanceOf(Inet4Address.class);
    }

    @Test
    void ipv6FullCompressedAndWithIpv4Tail() throws Exception {
        InetAddress expected = bytes(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
        assertThat(AddressLiterals.parseAddress("2001:db8::1")).isEqualTo(expected);
        assertThat(AddressLiterals.parseAddress("2001:0DB8:0:0:0:0:0:1")).isEqualTo(expected);
        assertThat(AddressLiterals.parseAddress("[2001:db8::1]")).isEqualTo(expected);
        assertThat(AddressLiterals.parseAddress("::1")).isEqualTo(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
        assertThat(AddressLiterals.parseAddress("::")).isInstanceOf(Inet6Address.class)
                .matches(InetAddress::isAnyLocalAddress);
        assertThat(AddressLiterals.parseAddress("fe80::")).isEqualTo(
                bytes(0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        assertThat(AddressLiterals.parseAddress("64:ff9b::192.0.2.33")).isEqualTo(
                bytes(0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 192, 0, 2, 33));
        assertThat(AddressLiterals.parseAddress("1:2:3:4:5:6:7::")).isEqualTo(
                bytes(0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
            "localhost", "ggsn1.example.net", "10.1", "10.0.0", "10.0.0.1.5", "256.0.0.1", "010.0.0.1",
            "1.2.3.-4", "1.2.3.4 ", "", "12345::1", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1::2::3", ":1", "1:",
            "1:2:3:4:5:6:7::8", "g::1", "::1.2.3", "1.2.3.4::", "\uFF11::1", "2001:db8::1 "})
    void refusesWhatIsNotALiteral(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> AddressLiterals.parseAddress(text))
                .withMessage("'" + text + "' is not an IPv4 or IPv6 address (host names are not resolved)");
    }

    @Test
    void refusesZoneIdsAndBracketedIpv4() {
        assertThatIllegalArgumentException().isThrownBy(() -> AddressLiterals.parseAddress("fe80::1%eth0"))
                .withMessage("'fe80::1%eth0': IPv6 zone ids are not supported");
        assertThatIllegalArgumentException().isThrownBy(() -> AddressLiterals.parseAddress("[10.0.0.1]"))
                .withMessage("'[10.0.0.1]': brackets are only for IPv6 addresses");
    }

    @Test
    void endpoints() throws Exception {
        assertThat(AddressLiterals.parseEndpoint("127.0.0.1:2123")).isEqualTo(new Endpoint(bytes(127, 0, 0, 1), 2123));
        assertThat(AddressLiterals.parseEndpoint("[::1]:1812"))
                .isEqualTo(new Endpoint(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 1812));
        assertThat(AddressLiterals.parseEndpoint("0.0.0.0:0").port()).isZero();
        assertThat(AddressLiterals.parseEndpoint("10.0.0.1:65535").port()).isEqualTo(65535);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "127.0.0.1         | '127.0.0.1': missing port, e.g. 127.0.0.1:2123",
            "127.0.0.1:        | '127.0.0.1:': port must be 0..65535",
            "127.0.0.1:65536   | '127.0.0.1:65536': port must be 0..65535",
            "127.0.0.1:-1      | '127.0.0.1:-1': port must be 0..65535",
            "127.0.0.1:http    | '127.0.0.1:http': port must be 0..65535",
            "::1:2123          | '::1:2123': write an IPv6 address in brackets, e.g. [::1]:2123",
            "[::1]             | '[::1]': missing port, e.g. [::1]:2123",
            "[::1:2123         | '[::1:2123': missing ']' after the IPv6 address",
            "localhost:8080    | 'localhost' is not an IPv4 or IPv6 address (host names are not resolved)",
    })
    void badEndpoints(String text, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> AddressLiterals.parseEndpoint(text)).withMessage(message);
    }

    @ParameterizedTest(name = "{0} = /{1}")
    @CsvSource({"255.255.255.255, 32", "255.255.255.0, 24", "255.255.254.0, 23", "255.0.0.0, 8", "128.0.0.0, 1"})
    void contiguousNetmasks(String mask, int bits) {
        assertThat(AddressLiterals.parseNetmaskBits(mask)).isEqualTo(bits);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "255.0.255.0     | '255.0.255.0' is not a contiguous netmask",
            "0.255.255.255   | '0.255.255.255' is not a contiguous netmask",
            "255.255.255.1   | '255.255.255.1' is not a contiguous netmask",
            "0.0.0.0         | '0.0.0.0' would put every client in one subnet",
            "ffff:ffff::     | 'ffff:ffff::': must be an IPv4 netmask such as 255.255.255.0",
            "24              | '24' is not an IPv4 or IPv6 address (host names are not resolved)",
    })
    void badNetmasks(String mask, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> AddressLiterals.parseNetmaskBits(mask))
                .withMessage(message);
    }
}
