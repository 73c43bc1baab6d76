package io.switchboard.director.asn;

import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * R6 test vectors: MS_PreAttachment Req/Rsp/Ack laid out as in the codec's vectors (checked there
 * against tshark's wimaxasncp dissector), with the MSID, transaction id and release's message
 * number filled in. TLV numbers are those of tshark's NWG dictionary: 69 Failure Indication,
 * 103 MS Info, 26 BS Info (with 25 BS ID inside).
 */
final class R6Messages {

    static final byte[] MS_INFO = HexFormat.of().parseHex("00670006fff000020102");
    static final byte[] BS_INFO = HexFormat.of().parseHex("001a000a0019000600e0fc123456");
    static final byte[] FAILURE_INDICATION_OK = HexFormat.of().parseHex("0045000100");

    private R6Messages() {
    }

    static byte[] preAttachment(NwgRelease release, R6PreAttachment message, long msid, int transactionId) {
        int opId = switch (message) {
            case REQUEST -> 1;
            case RESPONSE -> 2;
            case ACK -> 3;
        };
        byte[][] tlvs = switch (message) {
            case REQUEST -> new byte[][] {MS_INFO, BS_INFO};
            case RESPONSE -> new byte[][] {FAILURE_INDICATION_OK, MS_INFO, BS_INFO};
            case ACK -> new byte[][] {BS_INFO};
        };
        return message(1, 9, opId, release.messageType(message), msid, transactionId, tlvs);
    }

    /** A message with any header values (for malformed and other messages). */
    static byte[] message(int version, int functionType, int opId, int messageType, long msid, int transactionId,
            byte[]... tlvs) {
        int length = 20;
        for (byte[] t : tlvs) {
            length += t.length;
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        out.put((byte) version).put((byte) 0).put((byte) functionType).put((byte) ((opId << 5) | messageType))
                .putShort((short) length).putShort((short) (msid >>> 32)).putInt((int) msid).putInt(0)
                .putShort((short) transactionId).putShort((short) 0);
        for (byte[] t : tlvs) {
            out.put(t);
        }
        return out.array();
    }

}
