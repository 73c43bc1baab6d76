package io.switchboard.codec.gtp;

import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Every GTP decoder, fed random and mutated bytes, either decodes (and then re-encodes losslessly)
 * or raises {@link io.switchboard.codec.DecodeException}; nothing else ({@link GtpDecoders}).
 */
class GtpDecoderPropertyTest {

    private static final List<GtpVectors.Vector> VECTORS = GtpVectors.all();

    @Property(tries = 3000)
    void randomBytes(@ForAll @Size(max = 120) byte[] bytes) {
        GtpDecoders.exercise(bytes);
    }

    /** Random bodies behind a header of a chosen version whose length field matches, so the IE walkers run. */
    @Property(tries = 3000)
    void randomBodiesBehindWellFramedHeaders(@ForAll("framed") byte[] bytes) {
        GtpDecoders.exercise(bytes);
    }

    /** Real messages with a few octets changed, inserted or removed. */
    @Property(tries = 5000)
    void mutatedVectors(@ForAll("mutated") byte[] bytes) {
        GtpDecoders.exercise(bytes);
    }

    @Provide
    Arbitrary<byte[]> framed() {
        Arbitrary<Integer> version = Arbitraries.integers().between(0, 2);
        Arbitrary<Integer> type = Arbitraries.oneOf(Arbitraries.of(1, 2, 16, 17, 18, 19, 20, 21, 26, 32, 33, 34, 35,
                36, 37, 51), Arbitraries.integers().between(0, 255));
        Arbitrary<byte[]> body = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(80),
                // bodies made of plausible IE type octets
                Arbitraries.of((byte) 1, (byte) 2, (byte) 14, (byte) 16, (byte) 17, (byte) 20, (byte) 0x80,
                        (byte) 0x83, (byte) 0x85, (byte) 0x57, (byte) 0x5d, (byte) 0x4f, (byte) 0, (byte) 4,
                        (byte) 9, (byte) 0xff).array(byte[].class).ofMaxSize(80));
        Arbitrary<Integer> flags = Arbitraries.integers().between(0, 31);
        return Combinators.combine(version, type, body, flags).as(GtpDecoderPropertyTest::frame);
    }

    private static byte[] frame(int version, int type, byte[] body, int lowFlags) {
        int header = version == 0 ? 20 : version == 1 ? 8 : 4;
        byte[] bytes = new byte[header + body.length];
        bytes[0] = (byte) (version << 5 | (version == 2 ? lowFlags & 0x1F : 0x10 | lowFlags & 0x0F));
        bytes[1] = (byte) type;
        // the length field counts what follows the first 20 (v0), 8 (v1) or 4 (v2) octets: the body
        bytes[2] = (byte) (body.length >> 8);
        bytes[3] = (byte) body.length;
        System.arraycopy(body, 0, bytes, header, body.length);
        return bytes;
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        return Combinators.combine(Arbitraries.integers().between(0, VECTORS.size() - 1), Arbitraries.longs(),
                Arbitraries.integers().between(1, 4)).as(GtpDecoderPropertyTest::mutate);
    }

    private static byte[] mutate(int vector, long seed, int mutations) {
        byte[] bytes = VECTORS.get(vector).bytes().clone();
        Random random = new Random(seed);
        for (int i = 0; i < mutations && bytes.length > 0; i++) {
            int at = random.nextInt(bytes.length);
            switch (random.nextInt(4)) {
                case 0 -> bytes[at] = (byte) random.nextInt(256);
                case 1 -> bytes[at] ^= (byte) (1 << random.nextInt(8));
                case 2 -> {
                    byte[] longer = new byte[bytes.length + 1];
                    System.arraycopy(bytes, 0, longer, 0, at);
                    longer[at] = (byte) random.nextInt(256);
                    System.arraycopy(bytes, at, longer, at + 1, bytes.length - at);
                    bytes = longer;
                }
                default -> {
                    byte[] shorter = new byte[bytes.length - 1];
                    System.arraycopy(bytes, 0, shorter, 0, at);
                    System.arraycopy(bytes, at + 1, shorter, at, bytes.length - at - 1);
                    bytes = shorter;
                }
            }
        }
        return bytes;
    }

    /** Every input the fuzzer kept ({@code benchmarks/fuzz/run.sh}: its corpus and findings) still meets the rule. */
    @org.junit.jupiter.api.Test
    void fuzzCorpusReplays() {
        io.switchboard.codec.testing.FuzzCorpus.replay("gtp", bytes -> GtpDecoders.exercise(bytes));
    }
}
