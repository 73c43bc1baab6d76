package io.switchboard.codec.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.Hex;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RadiusVendorAttributesTest {

    private static final byte[] VALUE = "sb-node=7".getBytes(StandardCharsets.US_ASCII);

    @Test
    void appendsWhenAbsentAndTheCopySignsAndVerifies() throws DecodeException {
        byte[] original = Hex.bytes(RadiusVectors.ACCOUNTING_REQUEST);
        ByteBuf in = Unpooled.wrappedBuffer(original);
        ByteBuf out = Unpooled.buffer();
        try {
            int length = RadiusVendorAttributes.put(RadiusView.wrap(in), RadiusVendor.CISCO, 1, VALUE, out);
            assertThat(length).isEqualTo(original.length + 8 + VALUE.length);
            assertThat(ByteBufUtil.getBytes(in)).isEqualTo(original);
            RadiusView copy = RadiusView.wrap(out);
            assertThat(copy.length()).isEqualTo(length).isEqualTo(out.readableBytes());
            // Everything before is unchanged, the new VSA is last.
            assertThat(ByteBufUtil.getBytes(out, 20, original.length - 20))
                    .isEqualTo(java.util.Arrays.copyOfRange(original, 20, original.length));
            assertThat(copy.value(copy.findVendor(RadiusVendor.CISCO, 1))).isEqualTo(VALUE);
            assertThat(copy.findVendor(RadiusVendor.THREE_GPP, 1)).isPositive();
            RadiusAuthenticators.signRequest(copy, RadiusVectors.SECRET);
            assertThat(RadiusAuthenticators.verifyRequest(copy, RadiusVectors.SECRET)).isTrue();
        } finally {
            in.release();
            out.release();
        }
    }

    @Test
    void replacesInPlaceOfTheFirstOccurrence() throws DecodeException {
        ByteBuf in = Unpooled.wrappedBuffer(Hex.bytes(RadiusVectors.ACCESS_ACCEPT));
        ByteBuf out = Unpooled.buffer();
        try {
            RadiusVendorAttributes.put(RadiusView.wrap(in), RadiusVendor.CISCO, 1, VALUE, out);
            RadiusView copy = RadiusView.wrap(out);
            assertThat(types(copy)).containsExactly(8, 26, 80);
            assertThat(copy.text(copy.findVendor(RadiusVendor.CISCO, 1))).isEqualTo("sb-node=7");
            assertThat(copy.length()).isEqualTo(RadiusView.wrap(in).length() - "ip:addr-pool=p1".length() + VALUE.length);
        } finally {
            in.release();
            out.release();
        }
    }

    @Test
    void keepsOtherSubAttributesOfTheSameVsaAndDropsDuplicates() throws DecodeException {
        String packet = """
                02 01 00 36   # Access-Accept, id 1, length 54
                00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                1a 0e 00 00 00 09 01 03 61 02 03 62 05 02   # Cisco: 1="a", 2="b", 5=""
                1a 09 00 00 00 09 01 03 63                  # Cisco: 1="c" (a duplicate, removed)
                1a 0b 00 00 00 01 01 05 78 79 7a            # vendor 1, untouched
                """;
        ByteBuf in = Unpooled.wrappedBuffer(Hex.bytes(packet));
        ByteBuf out = Unpooled.buffer();
        try {
            RadiusVendorAttributes.put(RadiusView.wrap(in), RadiusVendor.CISCO, 1, VALUE, out);
            assertThat(Hex.of(out)).isEqualTo(Hex.of(Hex.bytes("""
                    02 01 00 3b   # length 59
                    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                    1a 11 00 00 00 09 01 0b 73 62 2d 6e 6f 64 65 3d 37   # Cisco 1 = "sb-node=7"
                    1a 0b 00 00 00 09 02 03 62 05 02                     # the rest of the first VSA
                    1a 0b 00 00 00 01 01 05 78 79 7a
                    """)));
        } finally {
            in.release();
            out.release();
        }
    }

    @Test
    void refusesWhatCannotFit() throws DecodeException {
        ByteBuf in = Unpooled.wrappedBuffer(Hex.bytes(RadiusVectors.ACCESS_ACCEPT));
        ByteBuf out = Unpooled.buffer();
        try {
            RadiusView view = RadiusView.wrap(in);
            assertThatThrownBy(() -> RadiusVendorAttributes.put(view, 9, 1, new byte[248], out))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(out.writerIndex()).isZero();
        } finally {
            in.release();
            out.release();
        }
    }

    private static List<Integer> types(RadiusView view) {
        List<Integer> types = new ArrayList<>();
        for (int a = view.firstAttribute(); a >= 0; a = view.nextAttribute(a)) {
            types.add(view.attributeType(a));
        }
        return types;
    }
}
