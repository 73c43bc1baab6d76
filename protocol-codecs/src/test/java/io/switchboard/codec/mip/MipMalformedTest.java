package io.switchboard.codec.mip;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.Hex;
import io.switchboard.codec.testing.Malformed;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Mobile IPv4 has no message length field: UDP delimits the message. A message cut exactly between two
 * extensions is therefore a well-formed message with fewer extensions; a cut anywhere else must be
 * rejected with a DecodeException.
 */
class MipMalformedTest {

    /** Everything a consumer might do: wrap the view, walk and read extensions, decode the model. */
    static void exercise(ByteBuf buf) throws DecodeException {
        int type = buf.readableBytes() > 0 ? buf.getUnsignedByte(buf.readerIndex()) : -1;
        MipMessage.decode(buf);
        if (type != 1 && type != 3) {
            return; // kept raw by the model, not the view's business
        }
        MipHeaderView view = MipHeaderView.wrap(buf);
        view.identification();
        view.homeAgent();
        view.nai();
        for (int e = view.firstExtension(); e >= 0; e = view.nextExtension(e)) {
            view.extensionType(e);
            int data = view.extensionDataLength(e);
            if (MipExtensionType.isAuthentication(view.extensionType(e)) && data >= 4) {
                MipAuthenticators.verify(view, e, new byte[] {1});
            }
        }
    }

    @Test
    void cutsInsideTheFixedPartOrAnExtensionAreRejected() {
        for (Map.Entry<String, String> v : MipVectors.ALL.entrySet()) {
            byte[] valid = Hex.bytes(v.getValue());
            Set<Integer> boundaries = extensionBoundaries(valid);
            for (int length = 0; length < valid.length; length++) {
                byte[] cut = Arrays.copyOf(valid, length);
                if (boundaries.contains(length)) {
                    assertThat(Malformed.outcome(cut, MipMalformedTest::exercise)).as(v.getKey() + " cut at " + length)
                            .isNull();
                } else {
                    Malformed.assertRejected(cut, MipMalformedTest::exercise, v.getKey() + " cut at " + length);
                }
            }
        }
    }

    @Test
    void corruptedExtensionLengthsAreRejected() {
        for (Map.Entry<String, String> v : MipVectors.ALL.entrySet()) {
            byte[] valid = Hex.bytes(v.getValue());
            List<Integer> starts = extensionStarts(valid);
            for (int start : starts) {
                byte[] copy = valid.clone();
                int remaining = valid.length - start;
                if (MipExtensionType.hasLongHeader(valid[start] & 0xff)) {
                    copy[start + 2] = (byte) 0xff;
                    copy[start + 3] = (byte) 0xff;
                } else {
                    if (remaining - 2 + 1 > 255) {
                        continue;
                    }
                    copy[start + 1] = (byte) (remaining - 2 + 1);
                }
                assertThat(Malformed.assertRejected(copy, MipMalformedTest::exercise, v.getKey() + " extension at " + start)
                        .reason()).isSameAs(MipHeaderView.BAD_EXTENSION);
            }
        }
    }

    @Property(tries = 2000)
    void randomBytesDecodeOrRaiseDecodeException(@ForAll @Size(max = 200) byte[] bytes) {
        checkOutcome(bytes);
    }

    @Property(tries = 3000)
    void mutatedVectorsDecodeOrRaiseDecodeException(@ForAll("mutated") byte[] bytes) {
        checkOutcome(bytes);
    }

    static void checkOutcome(byte[] bytes) {
        // Mobile IP has no length field: a message is the whole datagram.
        Malformed.assertRejectedOrLossless(bytes, MipMalformedTest::exercise,
                (in, out) -> MipMessage.decode(in).encode(out), bytes.length);
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        Arbitrary<byte[]> vector = Arbitraries.of(MipVectors.ALL.values().stream().map(Hex::bytes).toList());
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

    private static List<Integer> extensionStarts(byte[] message) {
        List<Integer> starts = new java.util.ArrayList<>();
        int offset = message[0] == 1 ? MipHeaderView.REQUEST_LENGTH : MipHeaderView.REPLY_LENGTH;
        while (offset < message.length) {
            starts.add(offset);
            int type = message[offset] & 0xff;
            offset += MipExtensionType.hasLongHeader(type)
                    ? 4 + ((message[offset + 2] & 0xff) << 8 | (message[offset + 3] & 0xff))
                    : 2 + (message[offset + 1] & 0xff);
        }
        return starts;
    }

    private static Set<Integer> extensionBoundaries(byte[] message) {
        return new HashSet<>(extensionStarts(message));
    }

    /** Every input the fuzzer kept ({@code benchmarks/fuzz/run.sh}: its corpus and findings) still meets the rule. */
    @org.junit.jupiter.api.Test
    void fuzzCorpusReplays() {
        io.switchboard.codec.testing.FuzzCorpus.replay("mip", MipMalformedTest::checkOutcome);
    }
}
