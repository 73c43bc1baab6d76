package io.switchboard.codec.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;

/** Feeding bad bytes to a decoder: the only acceptable failure is a {@link DecodeException} with a reason. */
public final class Malformed {

    /** A decoder under test: reads everything it can from the buffer, raising DecodeException when it must. */
    @FunctionalInterface
    public interface Decoder {
        void decode(ByteBuf buf) throws DecodeException;
    }

    /** A full model round trip: decode {@code in} and encode what was decoded into {@code out}. */
    @FunctionalInterface
    public interface RoundTrip {
        void reencode(ByteBuf in, ByteBuf out) throws DecodeException;
    }

    private Malformed() {
    }

    /**
     * The property of every decoder: {@code bytes} are either rejected with a DecodeException or
     * decode, and then the model re-encodes them to their first {@code encodedLength} bytes (what the
     * message's own length field covers; trailing bytes are not part of it).
     */
    public static void assertRejectedOrLossless(byte[] bytes, Decoder decoder, RoundTrip roundTrip, int encodedLength) {
        if (outcome(bytes, decoder) != null) {
            return;
        }
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        ByteBuf out = Unpooled.buffer();
        try {
            roundTrip.reencode(in, out);
            assertThat(io.netty.buffer.ByteBufUtil.getBytes(out))
                    .isEqualTo(java.util.Arrays.copyOf(bytes, encodedLength));
        } catch (DecodeException e) {
            throw new AssertionError("decoded by the view but not by the model", e);
        } finally {
            in.release();
            out.release();
        }
    }

    /** Decodes {@code bytes}; returns the DecodeException raised, or null if they decoded. Anything else fails. */
    public static DecodeException outcome(byte[] bytes, Decoder decoder) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            decoder.decode(buf);
            return null;
        } catch (DecodeException e) {
            assertThat(e.reason()).isNotNull();
            assertThat(e.getMessage()).isNotBlank();
            return e;
        } finally {
            buf.release();
        }
    }

    /** Asserts that {@code bytes} are rejected with a DecodeException. */
    public static DecodeException assertRejected(byte[] bytes, Decoder decoder, String what) {
        DecodeException e = outcome(bytes, decoder);
        assertThat(e).as(what + ": " + Hex.of(bytes)).isNotNull();
        return e;
    }

    /** Asserts that every proper prefix of {@code valid} is rejected with a DecodeException. */
    public static void assertEveryTruncationRejected(byte[] valid, Decoder decoder, String what) {
        for (int length = 0; length < valid.length; length++) {
            assertRejected(java.util.Arrays.copyOf(valid, length), decoder, what + " cut to " + length);
        }
    }
}
