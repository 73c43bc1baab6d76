package io.switchboard.codec.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.v1.GtpV1Header;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import io.switchboard.codec.gtp.v2.GtpV2Header;
import io.switchboard.codec.gtp.v2.GtpV2Ies;

/**
 * GTP path management for a prober (TS 29.060 §7.2.1/§7.2.2, TS 29.274 §7.1.1/§7.1.2): an Echo
 * Request of GTPv1-C or GTPv2-C, and the Recovery (restart counter) of the peer's Echo Response.
 */
public final class GtpEcho {

    /** TS 29.060 §7.1, TS 29.274 §6.1: Echo Request / Echo Response. */
    public static final int ECHO_REQUEST = 1;
    public static final int ECHO_RESPONSE = 2;
    /** TS 29.060 §7.7.11: Recovery, TV, one octet. */
    private static final int V1_RECOVERY = 14;
    /** TS 29.274 §8.5: Recovery, TLV with a one-octet restart counter. */
    private static final int V2_RECOVERY = 3;

    private GtpEcho() {
    }

    /**
     * An Echo Request. GTPv1: TEID 0, the S flag and {@code sequence} (16 bits), no IE. GTPv2: no TEID,
     * {@code sequence} (24 bits), and the Recovery IE that TS 29.274 §7.1.1 makes mandatory, carrying
     * {@code recovery}.
     */
    public static byte[] request(int version, int sequence, int recovery) {
        if (version == 1) {
            return new byte[] {0x32, ECHO_REQUEST, 0, 4, 0, 0, 0, 0, (byte) (sequence >> 8), (byte) sequence, 0, 0};
        }
        if (version != 2) {
            throw new IllegalArgumentException("GTP Echo of version " + version + " (1 or 2)");
        }
        return new byte[] {0x40, ECHO_REQUEST, 0, 9, (byte) (sequence >> 16), (byte) (sequence >> 8), (byte) sequence, 0,
            V2_RECOVERY, 0, 1, 0, (byte) recovery};
    }

    /**
     * The Recovery value of an Echo Response of {@code version} to the request with {@code sequence}.
     *
     * @return 0..255, or -1 when the datagram is not that answer (another version, type or sequence)
     * @throws DecodeException when it is that answer but malformed or without Recovery (mandatory in
     *                         both versions)
     */
    public static int responseRecovery(ByteBuf datagram, int version, int sequence) throws DecodeException {
        int at = datagram.readerIndex();
        if (!datagram.isReadable() || ((datagram.getUnsignedByte(at) >> 5) & 0x07) != version) {
            return -1;
        }
        if (version == 1) {
            GtpV1Header header = new GtpV1Header().wrap(datagram, at);
            if (header.messageTypeValue() != ECHO_RESPONSE || header.sequence() != (sequence & 0xFFFF)) {
                return -1;
            }
            int ie = GtpV1Ies.indexOf(datagram, header.bodyOffset(), header.endOffset(), V1_RECOVERY, 0);
            if (ie < 0) {
                throw GtpBytes.malformed("GTPv1 Echo Response without Recovery");
            }
            return datagram.getUnsignedByte(ie + 1);
        }
        GtpV2Header header = new GtpV2Header().wrap(datagram, at);
        if (header.messageTypeValue() != ECHO_RESPONSE || header.sequence() != (sequence & 0xFF_FFFF)) {
            return -1;
        }
        int ie = GtpV2Ies.indexOf(datagram, header.bodyOffset(), header.endOffset(), V2_RECOVERY, 0);
        if (ie < 0 || GtpV2Ies.valueLength(datagram, ie) < 1) {
            throw GtpBytes.malformed("GTPv2 Echo Response without Recovery");
        }
        return datagram.getUnsignedByte(ie + GtpV2Ies.IE_HEADER_LENGTH);
    }
}
