package io.switchboard.codec.radius;


import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.Hex;
import io.switchboard.codec.testing.Malformed;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Random and mutated bytes: the decoder either accepts them (and then round-trips) or raises DecodeException. */
class RadiusPropertiesTest {

    private static final List<byte[]> VECTORS =
            RadiusVectors.ALL.values().stream().map(Hex::bytes).toList();

    @Property(tries = 2000)
    void randomBytesDecodeOrRaiseDecodeException(@ForAll @Size(max = 300) byte[] bytes) {
        checkOutcome(bytes);
    }

    @Property(tries = 2000)
    void randomBytesWithAPlausibleHeaderDecodeOrRaiseDecodeException(@ForAll("plausible") byte[] bytes) {
        checkOutcome(bytes);
    }

    @Property(tries = 3000)
    void mutatedVectorsDecodeOrRaiseDecodeException(@ForAll("mutated") byte[] bytes) {
        checkOutcome(bytes);
    }

    static void checkOutcome(byte[] bytes) {
        // RFC 2865 §3: octets 2-3 are the packet length
        int length = bytes.length < 4 ? bytes.length : (bytes[2] & 0xff) << 8 | (bytes[3] & 0xff);
        Malformed.assertRejectedOrLossless(bytes, RadiusMalformedTest::exercise,
                (in, out) -> RadiusPacket.decode(in).encode(out), length);
    }

    /** A header whose Length matches the bytes, followed by random attributes bytes. */
    @Provide
    Arbitrary<byte[]> plausible() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(20).ofMaxSize(400).map(b -> {
            b[2] = (byte) (b.length >>> 8);
            b[3] = (byte) b.length;
            return b;
        });
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        Arbitrary<byte[]> vector = Arbitraries.of(VECTORS);
        Arbitrary<int[]> positions = Arbitraries.integers().between(0, 4095).array(int[].class).ofMinSize(1).ofMaxSize(4);
        Arbitrary<byte[]> values = Arbitraries.bytes().array(byte[].class).ofSize(4);
        Arbitrary<Integer> cut = Arbitraries.integers().between(0, 8);
        return Combinators.combine(vector, positions, values, cut).as((v, p, x, c) -> {
            byte[] copy = v.clone();
            for (int i = 0; i < p.length; i++) {
                copy[p[i] % copy.length] = x[i];
            }
            return Arrays.copyOf(copy, Math.max(0, copy.length - (c > 4 ? 0 : c)));
        });
    }

    /** Every input the fuzzer kept ({@code benchmarks/fuzz/run.sh}: its corpus and findings) still meets the rule. */
    @org.junit.jupiter.api.Test
    void fuzzCorpusReplays() {
        io.switchboard.codec.testing.FuzzCorpus.replay("radius", RadiusPropertiesTest::checkOutcome);
    }
}
