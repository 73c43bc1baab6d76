package io.switchboard.codec.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v0.GtpV0Header;
import io.switchboard.codec.gtp.v1.GtpV1Codec;
import io.switchboard.codec.gtp.v1.GtpV1Header;
import io.switchboard.codec.gtp.v1.GtpV1IeType;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2Header;
import io.switchboard.codec.gtp.v2.GtpV2Ie;
import io.switchboard.codec.gtp.v2.GtpV2Message;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vector cut short or with a corrupted length is refused with a {@link DecodeException}, nothing else. */
class GtpMalformedInputTest {

    static Stream<GtpVectors.Vector> vectors() {
        return GtpVectors.all().stream();
    }

    /** The decoder of the vector's own version: v2 decodes the whole datagram (piggybacking). */
    private static Object decodeFully(GtpVectors.Vector v, byte[] bytes) throws DecodeException {
        return switch (v.version()) {
            case 0 -> GtpVectors.decode(bytes, GtpV0Codec::decode);
            case 1 -> GtpVectors.decode(bytes, GtpV1Codec::decode);
            default -> GtpVectors.decode(bytes, GtpV2Codec::decodeAll);
        };
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void truncatedAtEveryOffset(GtpVectors.Vector v) {
        for (int cut = 0; cut < v.bytes().length; cut++) {
            byte[] prefix = Arrays.copyOf(v.bytes(), cut);
            assertThatThrownBy(() -> decodeFully(v, prefix))
                    .as("%s cut to %d octets", v, cut)
                    .isInstanceOfSatisfying(DecodeException.class,
                            e -> assertThat(e.reason()).isSameAs(DropReason.TRUNCATED));
            GtpDecoders.exercise(prefix);
        }
    }

    private static int lengthFieldOffset(GtpVectors.Vector v) {
        return 2; // octets 3-4 in all three versions
    }

    private static boolean singleMessage(GtpVectors.Vector v) {
        return v.version() != 2 || (v.bytes()[0] & 0x10) == 0;
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void headerLengthLongerThanTheDatagramIsTruncated(GtpVectors.Vector v) {
        int at = lengthFieldOffset(v);
        int declared = ((v.bytes()[at] & 0xFF) << 8) | (v.bytes()[at + 1] & 0xFF);
        for (int corrupt : new int[] {declared + 1, declared + 100, 0xFFFF}) {
            if (!singleMessage(v) || corrupt > 0xFFFF) {
                continue;
            }
            byte[] bytes = withShort(v.bytes(), at, corrupt);
            assertThatThrownBy(() -> decodeFully(v, bytes))
                    .as("%s with length %d", v, corrupt)
                    .isInstanceOfSatisfying(DecodeException.class,
                            e -> assertThat(e.reason()).isSameAs(DropReason.TRUNCATED));
        }
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void headerLengthShorterThanTheBodyCutsItsLastIe(GtpVectors.Vector v) throws Exception {
        int at = lengthFieldOffset(v);
        int declared = ((v.bytes()[at] & 0xFF) << 8) | (v.bytes()[at + 1] & 0xFF);
        boolean hasIes = switch (v.version()) {
            case 0 -> !GtpVectors.decode(v.bytes(), GtpV0Codec::decode).ies().isEmpty();
            case 1 -> !GtpVectors.decode(v.bytes(), GtpV1Codec::decode).ies().isEmpty();
            default -> !GtpVectors.decode(v.bytes(), GtpV2Codec::decode).ies().isEmpty();
        };
        for (int corrupt = Math.max(0, declared - 3); corrupt < declared; corrupt++) {
            byte[] bytes = withShort(v.bytes(), at, corrupt);
            if (hasIes && corrupt == declared - 1) {
                assertThatThrownBy(() -> decodeFully(v, bytes)).as("%s with length %d", v, corrupt)
                        .isInstanceOf(DecodeException.class);
            }
            GtpDecoders.exercise(bytes);
        }
        GtpDecoders.exercise(withShort(v.bytes(), at, 0));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void everyIeLengthCorrupted(GtpVectors.Vector v) throws Exception {
        if (!singleMessage(v)) {
            return;
        }
        for (int ieOffset : tlvOffsets(v)) {
            int lengthAt = ieOffset + 1;
            int length = ((v.bytes()[lengthAt] & 0xFF) << 8) | (v.bytes()[lengthAt + 1] & 0xFF);
            byte[] huge = withShort(v.bytes(), lengthAt, 0xFFFF);
            assertThatThrownBy(() -> decodeFully(v, huge)).as("%s IE at %d length 0xffff", v, ieOffset)
                    .isInstanceOfSatisfying(DecodeException.class,
                            e -> assertThat(e.reason()).isSameAs(DropReason.TRUNCATED));
            for (int corrupt : new int[] {length + 1, length - 1, 0}) {
                if (corrupt >= 0) {
                    GtpDecoders.exercise(withShort(v.bytes(), lengthAt, corrupt));
                }
            }
        }
    }

    @Test
    void aBrokenIeInsideABearerContextKeepsTheGroupRaw() throws Exception {
        // gtp_c.pcap frame 1: the bearer context's first nested IE (EBI) claims 2 octets instead of 1
        byte[] original = GtpVectors.frame("/pcaps/gtpv2/gtp_c.pcap", 1);
        String hex = ByteBufUtil.hexDump(original);
        int bearer = hex.indexOf("5d003d00" + "4900010005") / 2;
        assertThat(bearer).isPositive();
        byte[] bytes = withShort(original, bearer + 5, 2);
        GtpV2Message m = GtpVectors.decode(bytes, GtpV2Codec::decode);
        assertThat(m.bearerContexts()).isEmpty();
        assertThat(m.ies()).anySatisfy(ie -> assertThat(ie).isInstanceOf(GtpV2Ie.Raw.class)
                .extracting(GtpV2Ie::type).isEqualTo(93));
        GtpDecoders.exercise(bytes);
    }

    /**
     * Absolute offsets of the top-level TLV IEs of a single-message vector (all IEs in v2; types 128
     * and up in v0/v1). In every version the 2-octet length follows the type octet.
     */
    private static int[] tlvOffsets(GtpVectors.Vector v) throws DecodeException {
        return GtpVectors.decode(v.bytes(), buf -> {
            int body;
            int end;
            boolean known;
            IntUnaryOperator tvLengths;
            switch (v.version()) {
                case 0 -> {
                    GtpV0Header h = GtpV0Header.of(buf);
                    body = h.bodyOffset();
                    end = h.endOffset();
                    known = h.messageType().isKnown();
                    tvLengths = GtpV0Codec.TV_LENGTHS;
                }
                case 1 -> {
                    GtpV1Header h = GtpV1Header.of(buf);
                    body = h.bodyOffset();
                    end = h.endOffset();
                    known = h.messageType().isKnown();
                    tvLengths = GtpV1IeType::tvLength;
                }
                default -> {
                    GtpV2Header h = GtpV2Header.of(buf);
                    body = h.bodyOffset();
                    end = h.endOffset();
                    known = h.messageType().isKnown();
                    tvLengths = type -> GtpV1IeType.TLV;
                }
            }
            List<Integer> found = new ArrayList<>();
            for (int at = body; known && at < end; ) {
                int type = buf.getUnsignedByte(at);
                int tv = tvLengths.applyAsInt(type);
                if (tv == GtpV1IeType.TLV) {
                    found.add(at);
                    at += (v.version() == 2 ? 4 : 3) + buf.getUnsignedShort(at + 1);
                } else {
                    at += 1 + tv;
                }
            }
            return found.stream().mapToInt(Integer::intValue).toArray();
        });
    }

    private static byte[] withShort(byte[] bytes, int at, int value) {
        byte[] copy = bytes.clone();
        copy[at] = (byte) (value >> 8);
        copy[at + 1] = (byte) value;
        return copy;
    }
}
