package io.switchboard.codec.asn.r6;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.CaptureReader;
import io.switchboard.codec.testing.CaptureReader.Datagram;
import io.switchboard.codec.testing.Hex;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class R6CodecTest {

    private static final long MSID = 0x0a1b2c3d4e5fL;

    @Test
    void everyVectorDecodesAndReEncodesToTheSameBytes() throws DecodeException {
        for (Map.Entry<String, String> v : R6Vectors.ALL.entrySet()) {
            byte[] bytes = Hex.bytes(v.getValue());
            ByteBuf in = Unpooled.wrappedBuffer(bytes);
            ByteBuf out = Unpooled.buffer();
            try {
                R6View view = R6View.wrap(in);
                assertThat(view.length()).isEqualTo(bytes.length);
                R6Message.decode(in).encode(out);
                assertThat(ByteBufUtil.getBytes(out)).as(v.getKey()).isEqualTo(bytes);
                assertThat(in.readerIndex()).isZero();
            } finally {
                in.release();
                out.release();
            }
        }
    }

    @Test
    void recognisesPreAttachmentUnderEitherNumbering() throws DecodeException {
        Map<String, R6PreAttachment> expected = Map.of(
                "REQ", R6PreAttachment.REQUEST, "RSP", R6PreAttachment.RESPONSE, "ACK", R6PreAttachment.ACK);
        for (Map.Entry<String, R6PreAttachment> e : expected.entrySet()) {
            R6View v12 = view(R6Vectors.ALL.get("PRE_ATTACHMENT_" + e.getKey() + "_V12"));
            R6View v100 = view(R6Vectors.ALL.get("PRE_ATTACHMENT_" + e.getKey() + "_V100"));
            assertThat(v12.preAttachment(NwgRelease.R1_0_V1_2_1)).isEqualTo(e.getValue());
            assertThat(v12.preAttachment(NwgRelease.R1_0_V1_2_0)).isEqualTo(e.getValue());
            assertThat(v100.preAttachment(NwgRelease.R1_0_V1_0_0)).isEqualTo(e.getValue());
            // Under the other numbering, 6/7/8 are not pre-attachment and 1/2/3 are IM_Entry/Exit messages.
            assertThat(v100.preAttachment(NwgRelease.R1_0_V1_2_1)).isNull();
            assertThat(v12.preAttachment(NwgRelease.R1_0_V1_0_0)).isNull();
            assertThat(v12.msid()).isEqualTo(MSID).isEqualTo(v100.msid());
            assertThat(v12.msidText()).isEqualTo("0a:1b:2c:3d:4e:5f");
            assertThat(v12.functionType()).isEqualTo(R6FunctionType.MS_STATE.value());
            assertThat(v12.transactionId()).isEqualTo(0x0101);
        }
        assertThat(NwgRelease.R1_0_V1_0_0.messageType(R6PreAttachment.ACK)).isEqualTo(8);
        assertThat(NwgRelease.R1_0_V1_2_1.messageType(R6PreAttachment.REQUEST)).isEqualTo(1);
        R6View other = view(R6Vectors.OTHER_FUNCTION);
        for (NwgRelease release : NwgRelease.values()) {
            assertThat(other.preAttachment(release)).isNull();
        }
    }

    @Test
    void readsTheHeaderFieldsAndTlvs() throws DecodeException {
        R6View ids = view(R6Vectors.PRE_ATTACHMENT_REQ_WITH_IDENTIFIERS);
        assertThat(ids.version()).isEqualTo(1);
        assertThat(ids.flags()).isEqualTo(R6View.FLAG_SOURCE_DESTINATION_IDENTIFIERS);
        assertThat(ids.opId()).isEqualTo(R6OpId.REQUEST);
        assertThat(ids.messageType()).isEqualTo(1);
        assertThat(ids.transactionId()).isEqualTo(0x8102);
        int source = ids.findTlv(272);
        assertThat(ids.tlvLength(source)).isEqualTo(4);
        assertThat(ids.buffer().getInt(ids.base() + ids.tlvValueOffset(source))).isEqualTo(0xc0000214); // 192.0.2.20
        assertThat(ids.findTlv(999)).isEqualTo(-1);

        R6View other = view(R6Vectors.OTHER_FUNCTION);
        assertThat(other.opId()).isEqualTo(R6OpId.INDICATION);
        assertThat(other.functionType()).isEqualTo(R6FunctionType.DATA_PATH_CONTROL.value());
        assertThat(other.flags()).isEqualTo(R6View.FLAG_RESET_NEXT_EXPECTED_TRANSACTION_ID);
        assertThat(other.msidText()).isEqualTo("fe:dc:ba:98:76:54");
        int empty = other.firstTlv();
        assertThat(other.tlvType(empty)).isEqualTo(0xfff0);
        assertThat(other.tlvLength(empty)).isZero();
        assertThat(other.nextTlv(empty)).isEqualTo(-1);
    }

    @Test
    void modelKeepsReservedOctetsAndBuildsPreAttachmentMessages() throws DecodeException {
        ByteBuf in = Unpooled.wrappedBuffer(Hex.bytes(R6Vectors.OTHER_FUNCTION));
        ByteBuf out = Unpooled.buffer();
        try {
            R6Message other = R6Message.decode(in);
            assertThat(other.reserved1()).isEqualTo(0x01020304);
            assertThat(other.reserved2()).isEqualTo(0x0506);
            assertThat(other.tlvs()).containsExactly(new R6Tlv(0xfff0, new byte[0]));

            R6Message request = R6Message.decode(view(R6Vectors.PRE_ATTACHMENT_REQ_V100).buffer());
            DefaultR6Message built = DefaultR6Message.preAttachment(NwgRelease.R1_0_V1_0_0, R6PreAttachment.REQUEST,
                    MSID, 0x0101, request.tlvs());
            assertThat(built).isEqualTo(request);
            built.encode(out);
            assertThat(ByteBufUtil.getBytes(out)).isEqualTo(Hex.bytes(R6Vectors.PRE_ATTACHMENT_REQ_V100));
            assertThat(built.tlv(26).value()).isEqualTo(Hex.bytes("00 19 00 06 00 e0 fc 12 34 56"));
        } finally {
            in.release();
            out.release();
        }
    }

    @Test
    void craftedCapturesHoldTheVectorsTsharkChecked() {
        List<Datagram> v12 = CaptureReader.resource("/pcaps/r6/r6-crafted-v1.2.x.pcap", 2231);
        List<Datagram> v100 = CaptureReader.resource("/pcaps/r6/r6-crafted-v1.0.0.pcap", 2231);
        assertThat(v12).extracting(d -> Hex.of(d.payload())).containsExactly(
                hex(R6Vectors.PRE_ATTACHMENT_REQ_V12), hex(R6Vectors.PRE_ATTACHMENT_RSP_V12),
                hex(R6Vectors.PRE_ATTACHMENT_ACK_V12), hex(R6Vectors.PRE_ATTACHMENT_REQ_WITH_IDENTIFIERS),
                hex(R6Vectors.OTHER_FUNCTION));
        assertThat(v100).extracting(d -> Hex.of(d.payload())).containsExactly(
                hex(R6Vectors.PRE_ATTACHMENT_REQ_V100), hex(R6Vectors.PRE_ATTACHMENT_RSP_V100),
                hex(R6Vectors.PRE_ATTACHMENT_ACK_V100));
    }

    private final List<ByteBuf> held = new java.util.ArrayList<>();

    private R6View view(String vector) throws DecodeException {
        ByteBuf buf = Unpooled.wrappedBuffer(Hex.bytes(vector));
        held.add(buf);
        return R6View.wrap(buf);
    }

    @org.junit.jupiter.api.AfterEach
    void releaseHeld() {
        held.forEach(ByteBuf::release);
        held.clear();
    }

    private static String hex(String vector) {
        return Hex.of(Hex.bytes(vector));
    }
}
