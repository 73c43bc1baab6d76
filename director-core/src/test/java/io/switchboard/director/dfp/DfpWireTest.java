package io.switchboard.director.dfp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.testing.TestFarms;
import java.net.Inet4Address;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The DFP codec's bytes, written out from draft-eck-dfp-01's figures, and what it refuses. */
class DfpWireTest {

    private static final DfpWire PLAIN = new DfpWire(Optional.empty());

    private static DfpLoad load() {
        return new DfpLoad(2123, 17, List.of(new DfpLoad.Host((Inet4Address) TestFarms.ip("10.1.2.3"), 7, 300)));
    }

    @Test
    void aPreferenceInformationMessageIsTheDraftsBytes() {
        byte[] m = PLAIN.encode(DfpMessage.preferences(List.of(load())));
        // §4.1 header: version 1, zero, type 0x0101, length 28; §5.2 Load TLV: type 2, length 20,
        // port 2123, protocol 17, flags 0, 1 host, reserved; host 10.1.2.3, bind ID 7, weight 300.
        assertThat(HexFormat.of().formatHex(m)).isEqualTo("01000101" + "0000001c"
                + "00020014" + "084b" + "11" + "00" + "0001" + "0000" + "0a010203" + "0007" + "012c");
        assertThat(PLAIN.decode(m).loads()).containsExactly(load());
    }

    @Test
    void aKeyedMessageCarriesItsSecurityTlvFirstAndFailsWithAnotherKey() {
        DfpWire keyed = new DfpWire(Optional.of("secret"));
        byte[] m = keyed.encode(DfpMessage.parameters(30));
        assertThat(HexFormat.of().formatHex(m, 8, 20)).isEqualTo("0001001c" + "00000001" + "00000000");
        DfpMessage back = keyed.decode(m);
        assertThat(back.keepAliveSeconds()).contains(30L);
        assertThat(back.tlvs()).hasSize(1); // the Security TLV is the codec's, not the message's
        assertThatThrownBy(() -> new DfpWire(Optional.of("other")).decode(m))
                .isInstanceOfSatisfying(DfpException.class, e -> assertThat(e.security()).isTrue());
        // §5.1: unconfigured, a Security TLV is ignored and the rest read.
        assertThat(PLAIN.decode(m).keepAliveSeconds()).contains(30L);
        m[m.length - 1] ^= 1;
        assertThatThrownBy(() -> keyed.decode(m)).isInstanceOf(DfpException.class);
    }

    @Test
    void withAKeyAnUnsignedMessageIsRefused() {
        byte[] m = PLAIN.encode(DfpMessage.preferences(List.of()));
        assertThatThrownBy(() -> new DfpWire(Optional.of("secret")).decode(m))
                .isInstanceOfSatisfying(DfpException.class, e -> assertThat(e.security()).isTrue());
    }

    @Test
    void malformedMessagesAreRefused() {
        byte[] wrongVersion = HexFormat.of().parseHex("0200010100000008");
        assertThatThrownBy(() -> DfpWire.length(wrongVersion, 0)).hasMessageContaining("version 2");
        byte[] tooShort = HexFormat.of().parseHex("0100010100000004");
        assertThatThrownBy(() -> DfpWire.length(tooShort, 0)).hasMessageContaining("Message Length 4");
        byte[] tlvOverruns = HexFormat.of().parseHex("010001010000000c" + "00020010");
        assertThatThrownBy(() -> PLAIN.decode(tlvOverruns)).hasMessageContaining("does not fit");
        byte[] hostsMiscounted = HexFormat.of().parseHex("0100010100000014" + "0002000c" + "0000000000020000");
        assertThatThrownBy(() -> PLAIN.decode(hostsMiscounted).loads()).hasMessageContaining("2 hosts");
        byte[] securityLate = HexFormat.of().parseHex("0100010100000010" + "01010008" + "00000000" + "0001001c");
        assertThatThrownBy(() -> PLAIN.decode(securityLate)).isInstanceOf(DfpException.class);
    }

    @Test
    void aPasswordLongerThan64CharactersIsRefused() {
        assertThatThrownBy(() -> new DfpWire(Optional.of("x".repeat(65)))).isInstanceOf(IllegalArgumentException.class);
    }
}
