package io.switchboard.director.sticky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyHashTest {

    /** FNV-1a 64 test vectors from the FNV reference test suite. */
    @Test
    void isFnv1aFinishedWithFmix64() {
        assertThat(KeyHash.of("a".getBytes(StandardCharsets.US_ASCII))).isEqualTo(KeyHash.mix(0xaf63dc4c8601ec8cL));
        assertThat(KeyHash.of("foobar".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo(KeyHash.mix(0x85944171f73967e8L));
    }

    @Test
    void fnvOfTheEmptyInputIsTheOffsetBasis() {
        assertThat(KeyHash.of(new byte[0])).isEqualTo(KeyHash.mix(0xcbf29ce484222325L));
    }

    @Test
    void fmix64OfZeroIsZeroAndItIsABijectionOnASample() {
        assertThat(KeyHash.mix(0)).isZero();
        Set<Long> seen = new HashSet<>();
        for (long i = 1; i <= 10_000; i++) {
            seen.add(KeyHash.mix(i));
        }
        assertThat(seen).hasSize(10_000);
    }

    @Test
    void consecutiveKeysSpreadOverBothHalvesOfTheRange() {
        int negative = 0;
        for (int i = 0; i < 10_000; i++) {
            byte[] imsi = String.format("00101%010d", i).getBytes(StandardCharsets.US_ASCII);
            if (KeyHash.of(imsi) < 0) {
                negative++;
            }
        }
        assertThat(negative).isBetween(4_500, 5_500);
    }
}
