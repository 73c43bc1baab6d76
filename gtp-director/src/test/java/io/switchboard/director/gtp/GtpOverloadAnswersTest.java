package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The director's "No resources available" for every version, read back by tshark: v0 with the
 * create's TID, sequence and the SGSN's signalling flow label; v1 and v2 with the requester's TEID, and
 * TEID 0 only for a v2 create whose Sender F-TEID is missing; nothing for a request that is no create.
 */
class GtpOverloadAnswersTest {

    @TempDir
    Path dir;

    private static byte[] refusal(byte[] request) throws Exception {
        ByteBuf in = Unpooled.wrappedBuffer(request);
        try {
            ByteBuf out = GtpOverloadAnswers.noResources(new GtpMessageView(GtpV0TidOrder.GSM_09_60).wrap(in),
                    UnpooledByteBufAllocator.DEFAULT);
            if (out == null) {
                return null;
            }
            try {
                return ByteBufUtil.getBytes(out);
            } finally {
                out.release();
            }
        } finally {
            in.release();
        }
    }

    @Test
    void everyVersionIsRefusedToTheRequester() throws Exception {
        byte[] v0Create = GtpMessages.v0CreateRequest("262010000000001", 5, 77, GtpV0TidOrder.GSM_09_60);
        // GSM 09.60 §7.9.15: Flow Label Signalling, TV 2 octets, appended.
        byte[] v0WithFlow = java.util.Arrays.copyOf(v0Create, v0Create.length + 3);
        v0WithFlow[v0Create.length] = 17;
        v0WithFlow[v0Create.length + 1] = 0x12;
        v0WithFlow[v0Create.length + 2] = 0x34;
        ByteBuffer.wrap(v0WithFlow).putShort(2, (short) (v0WithFlow.length - 20));
        byte[] v0 = refusal(v0WithFlow);
        byte[] v1 = refusal(GtpMessages.v1CreateRequest("262010000000002", 78, 6));
        byte[] v2 = refusal(GtpMessages.v2CreateRequest("262010000000003", 79, 0xabcdef, new byte[] {10, 0, 0, 1}, null));
        byte[] v2NoFteid = refusal(GtpMessages.v2(32, 0, 80, new byte[] {1, 0, 8, 0, 0x62, 0x02, 0x10, 0, 0, 0, 0, (byte) 0xf4}));

        assertThat(v0).hasSize(22);
        assertThat(v0[1]).as("Create PDP Context Response").isEqualTo((byte) 17);
        assertThat(java.util.Arrays.copyOfRange(v0, 20, 22)).as("Cause 199 alone (GSM 09.60 §7.9.1)")
                .containsExactly(1, (byte) 199);
        assertThat(ByteBuffer.wrap(v0).getShort(4)).as("the create's sequence").isEqualTo((short) 77);
        assertThat(ByteBuffer.wrap(v0).getShort(6)).as("the SGSN's signalling flow label").isEqualTo((short) 0x1234);
        assertThat(java.util.Arrays.copyOfRange(v0, 12, 20)).as("the create's TID")
                .isEqualTo(java.util.Arrays.copyOfRange(v0WithFlow, 12, 20));
        assertThat(ByteBuffer.wrap(v1).getInt(4)).as("TEID Control Plane of the create").isEqualTo(0x2006);
        assertThat(ByteBuffer.wrap(v2).getInt(4)).as("Sender F-TEID of the create").isEqualTo(0xabcdef);
        assertThat(ByteBuffer.wrap(v2NoFteid).getInt(4)).as("no F-TEID: TEID 0 (TS 29.274 §5.5.2)").isZero();
        assertThat(refusal(GtpMessages.v1UpdateRequest(0x1234, 81))).as("an Update is no create").isNull();

        Assumptions.assumeTrue(Tshark.available(), "tshark is not installed: the refusals were read by offsets only");
        Path pcap = dir.resolve("refusals.pcap");
        List<byte[]> frames = new ArrayList<>(List.of(v1, v2, v2NoFteid));
        Tshark.writePcap(pcap, frames);
        assertThat(Tshark.fields(pcap, "gtp.message", "gtp.cause", "gtp.teid", "gtp.seq_number",
                "gtpv2.message_type", "gtpv2.cause", "gtpv2.teid", "gtpv2.seq"))
                .containsExactly("0x11|199|0x00002006|0x004e||||", "||||33|73|0x00abcdef|0x00004f",
                        "||||33|73|0x00000000|0x000050");
    }
}
