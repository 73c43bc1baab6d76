package io.switchboard.codec.asn.r6;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.testing.Hex;
import io.switchboard.codec.testing.Malformed;
import java.util.Arrays;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class R6MalformedTest {

    static void exercise(ByteBuf buf) throws DecodeException {
        R6View view = R6View.wrap(buf);
        view.msid();
        view.msidText();
        view.transactionId();
        for (NwgRelease release : NwgRelease.values()) {
            view.preAttachment(release);
        }
        for (int t = view.firstTlv(); t >= 0; t = view.nextTlv(t)) {
            view.tlvType(t);
            if (view.tlvLength(t) > 0) {
                // The last value octet must be inside the buffer: wrap checked it.
                view.buffer().getByte(view.base() + view.tlvValueOffset(t) + view.tlvLength(t) - 1);
            }
        }
        R6Message.decode(buf);
    }

    @Test
    void everyTruncationOfEveryVectorIsRejected() {
        for (Map.Entry<String, String> v : R6Vectors.ALL.entrySet()) {
            Malformed.assertEveryTruncationRejected(Hex.bytes(v.getValue()), R6MalformedTest::exercise, v.getKey());
        }
    }

    @Test
    void corruptedLengthFieldsAreRejected() {
        for (Map.Entry<String, String> v : R6Vectors.ALL.entrySet()) {
            byte[] valid = Hex.bytes(v.getValue());
            for (int length : new int[] {0, 1, 19}) {
                assertThat(Malformed.assertRejected(withLength(valid, length), R6MalformedTest::exercise,
                        v.getKey() + " length " + length).reason()).isSameAs(DropReason.MALFORMED);
            }
            for (int length : new int[] {valid.length + 1, 0xFFFF}) {
                assertThat(Malformed.assertRejected(withLength(valid, length), R6MalformedTest::exercise,
                        v.getKey() + " length " + length).reason()).isSameAs(DropReason.TRUNCATED);
            }
            if (valid.length > 20) {
                assertThat(Malformed.assertRejected(withLength(valid, valid.length - 1), R6MalformedTest::exercise,
                        v.getKey() + " length - 1").reason()).isSameAs(R6View.BAD_TLV);
            }
            for (int t = 20; t < valid.length; t += 4 + ((valid[t + 2] & 0xff) << 8 | (valid[t + 3] & 0xff))) {
                byte[] copy = valid.clone();
                int pastEnd = valid.length - t - 4 + 1;
                copy[t + 2] = (byte) (pastEnd >>> 8);
                copy[t + 3] = (byte) pastEnd;
                assertThat(Malformed.assertRejected(copy, R6MalformedTest::exercise, v.getKey() + " TLV at " + t)
                        .reason()).isSameAs(R6View.BAD_TLV);
            }
        }
    }

    @Property(tries = 2000)
    void randomBytesDecodeOrRaiseDecodeException(@ForAll @Size(max = 200) byte[] bytes) {
        checkOutcome(bytes);
    }

    @Property(tries = 2000)
    void randomBytesWithAPlausibleLengthDecodeOrRaiseDecodeException(@ForAll("plausible") byte[] bytes) {
        checkOutcome(bytes);
    }

    @Property(tries = 3000)
    void mutatedVectorsDecodeOrRaiseDecodeException(@ForAll("mutated") byte[] bytes) {
        checkOutcome(bytes);
    }

    static void checkOutcome(byte[] bytes) {
        // R6 header octets 4-5: the message length
        int length = bytes.length < 6 ? bytes.length : (bytes[4] & 0xff) << 8 | (bytes[5] & 0xff);
        Malformed.assertRejectedOrLossless(bytes, R6MalformedTest::exercise,
                (in, out) -> R6Message.decode(in).encode(out), length);
    }

    @Provide
    Arbitrary<byte[]> plausible() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(20).ofMaxSize(200).map(b -> {
            b[4] = (byte) (b.length >>> 8);
            b[5] = (byte) b.length;
            return b;
        });
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        Arbitrary<byte[]> vector = Arbitraries.of(R6Vectors.ALL.values().stream().map(Hex::bytes).toList());
        Arbitrary<int[]> positions = Arbitraries.integers().between(0, 1000).array(int[].class).ofMinSize(1).ofMaxSize(4);
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

    private static byte[] withLength(byte[] message, int length) {
        byte[] copy = message.clone();
        copy[4] = (byte) (length >>> 8);
        copy[5] = (byte) length;
        return copy;
    }

    /** Every input the fuzzer kept ({@code benchmarks/fuzz/run.sh}: its corpus and findings) still meets the rule. */
    @org.junit.jupiter.api.Test
    void fuzzCorpusReplays() {
        io.switchboard.codec.testing.FuzzCorpus.replay("r6", R6MalformedTest::checkOutcome);
    }
}
