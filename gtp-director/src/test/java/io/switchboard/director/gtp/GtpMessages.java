package io.switchboard.director.gtp;

import io.switchboard.codec.gtp.GtpTbcd;
import io.switchboard.codec.gtp.v0.GtpV0Tid;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * GTP-C messages built octet by octet from the specifications, for the tests: what an SGSN/MME sends
 * to the virtual address and what a GGSN/PGW answers.
 */
final class GtpMessages {

    private GtpMessages() {
    }

    /** TS 29.060 §7.3.1 Create PDP Context Request, header TEID 0 (a primary context). */
    static byte[] v1CreateRequest(String imsi, int sequence, int nsapi) {
        return v1CreateRequest(imsi, sequence, nsapi, new byte[] {127, 0, 0, 20});
    }

    /**
     * A Create PDP Context Request from an SGSN at {@code sgsnAddress} (4 or 16 octets), for signalling
     * and user traffic; TEID-C 0x2000 + NSAPI, TEID Data I 0x1000 + NSAPI.
     */
    static byte[] v1CreateRequest(String imsi, int sequence, int nsapi, byte[] sgsnAddress) {
        ByteArrayOutputStream ies = new ByteArrayOutputStream();
        ies.write(2);                                     // IMSI, TV 8 octets TBCD
        ies.writeBytes(GtpTbcd.encode(imsi, 8));
        ies.writeBytes(new byte[] {14, 7});               // Recovery 7
        ies.writeBytes(new byte[] {15, (byte) 0xfd});     // Selection mode
        ies.write(16);                                    // TEID Data I
        ies.writeBytes(int32(0x1000 + nsapi));
        ies.write(17);                                    // TEID Control Plane
        ies.writeBytes(int32(0x2000 + nsapi));
        ies.writeBytes(new byte[] {20, (byte) nsapi});    // NSAPI
        for (int plane = 0; plane < 2; plane++) {          // GSN Address: control plane, then user plane
            ies.writeBytes(new byte[] {(byte) 133, 0, (byte) sgsnAddress.length});
            ies.writeBytes(sgsnAddress);
        }
        return v1(16, 0, sequence, ies.toByteArray());
    }

    /** TS 29.060 §7.3.2 Create PDP Context Response with {@code cause}, the GGSN's TEID-C and address. */
    static byte[] v1CreateResponse(int sequence, int cause, long requesterTeid, long ggsnTeid, byte[] ggsnAddress) {
        ByteArrayOutputStream ies = new ByteArrayOutputStream();
        ies.writeBytes(new byte[] {1, (byte) cause});
        ies.write(17);
        ies.writeBytes(int32(ggsnTeid));
        ies.writeBytes(new byte[] {(byte) 133, 0, 4});
        ies.writeBytes(ggsnAddress);
        return v1(17, requesterTeid, sequence, ies.toByteArray());
    }

    /** TS 29.060 §7.3.3 Update PDP Context Request (sent to a GGSN's TEID, never to the VIP in transparent mode). */
    static byte[] v1UpdateRequest(long teid, int sequence) {
        return v1(18, teid, sequence, new byte[] {14, 7, 20, 5});
    }

    /** TS 29.060 §7.2.1 Echo Request. */
    static byte[] v1EchoRequest(int sequence) {
        return v1(1, 0, sequence, new byte[0]);
    }

    /** A GTPv1-C message with the S flag: flags 0x32, type, length, TEID, sequence, N-PDU 0, next 0. */
    static byte[] v1(int type, long teid, int sequence, byte[] ies) {
        ByteBuffer b = ByteBuffer.allocate(12 + ies.length);
        b.put((byte) 0x32).put((byte) type).putShort((short) (4 + ies.length)).putInt((int) teid)
                .putShort((short) sequence).put((byte) 0).put((byte) 0).put(ies);
        return b.array();
    }

    /** TS 29.274 §7.2.1 Create Session Request: IMSI, sender F-TEID (S11 MME), APN. */
    static byte[] v2CreateRequest(String imsi, int sequence) {
        return v2CreateRequest(imsi, sequence, 0x3000, new byte[] {127, 0, 0, 20}, null);
    }

    /** A Create Session Request whose sender F-TEID (S11 MME) carries {@code ipv4} and/or {@code ipv6}. */
    static byte[] v2CreateRequest(String imsi, int sequence, long mmeTeid, byte[] ipv4, byte[] ipv6) {
        return v2CreateRequest(imsi, sequence, mmeTeid, ipv4, ipv6, "internet");
    }

    /** A Create Session Request for {@code apn} (TS 29.274 §8.6: labels as in DNS). */
    static byte[] v2CreateRequest(String imsi, int sequence, long mmeTeid, byte[] ipv4, byte[] ipv6, String apn) {
        return v2CreateRequest(imsi, sequence, mmeTeid, ipv4, ipv6, apn, -1);
    }

    /**
     * With a Bearer Context to be created (TS 29.274 §8.28, IE 93) holding EBI {@code ebi} (§8.8, IE 73);
     * none when {@code ebi} is negative.
     */
    static byte[] v2CreateRequest(String imsi, int sequence, long mmeTeid, byte[] ipv4, byte[] ipv6, String apn, int ebi) {
        ByteArrayOutputStream ies = new ByteArrayOutputStream();
        byte[] digits = GtpTbcd.encode(imsi, 8);
        ies.writeBytes(new byte[] {1, 0, 8, 0});          // IMSI, instance 0
        ies.writeBytes(digits);
        ies.writeBytes(fteid(0, 10, mmeTeid, ipv4, ipv6)); // interface 10: S11 MME GTP-C
        byte[] name = io.switchboard.codec.gtp.GtpApn.encode(apn);
        ies.writeBytes(new byte[] {71, 0, (byte) name.length, 0});               // APN
        ies.writeBytes(name);
        if (ebi >= 0) {
            ies.writeBytes(new byte[] {93, 0, 5, 0, 73, 0, 1, 0, (byte) ebi});
        }
        return v2(32, 0L, sequence, ies.toByteArray());
    }

    /** TS 29.274 §8.22 F-TEID: flags V4 0x80, V6 0x40, interface type; TEID; IPv4; IPv6. */
    static byte[] fteid(int instance, int interfaceType, long teid, byte[] ipv4, byte[] ipv6) {
        int length = 5 + (ipv4 == null ? 0 : 4) + (ipv6 == null ? 0 : 16);
        ByteBuffer b = ByteBuffer.allocate(4 + length);
        b.put((byte) 87).putShort((short) length).put((byte) instance)
                .put((byte) ((ipv4 == null ? 0 : 0x80) | (ipv6 == null ? 0 : 0x40) | interfaceType)).putInt((int) teid);
        if (ipv4 != null) {
            b.put(ipv4);
        }
        if (ipv6 != null) {
            b.put(ipv6);
        }
        return b.array();
    }

    /** TS 29.274 §7.2.2 Create Session Response with {@code cause}, header TEID = the MME's. */
    static byte[] v2CreateResponse(int sequence, int cause, long requesterTeid, long pgwTeid, byte[] pgwAddress) {
        ByteArrayOutputStream ies = new ByteArrayOutputStream();
        ies.writeBytes(new byte[] {2, 0, 2, 0, (byte) cause, 0});
        ies.writeBytes(new byte[] {87, 0, 9, 0, (byte) 0x8b}); // F-TEID: IPv4, interface 11 (S11/S4 SGW GTP-C)
        ies.writeBytes(int32(pgwTeid));
        ies.writeBytes(pgwAddress);
        return v2(33, requesterTeid, sequence, ies.toByteArray());
    }

    /** TS 29.274 §7.1.1 Echo Request: no TEID, Recovery. */
    static byte[] v2EchoRequest(int sequence) {
        ByteBuffer b = ByteBuffer.allocate(13);
        b.put((byte) 0x40).put((byte) 1).putShort((short) 9).put((byte) (sequence >> 16)).put((byte) (sequence >> 8))
                .put((byte) sequence).put((byte) 0).put(new byte[] {3, 0, 1, 0, 5});
        return b.array();
    }

    /** A GTPv2-C message with a TEID (T = 1). */
    static byte[] v2(int type, long teid, int sequence, byte[] ies) {
        ByteBuffer b = ByteBuffer.allocate(12 + ies.length);
        b.put((byte) 0x48).put((byte) type).putShort((short) (8 + ies.length)).putInt((int) teid)
                .put((byte) (sequence >> 16)).put((byte) (sequence >> 8)).put((byte) sequence).put((byte) 0).put(ies);
        return b.array();
    }

    /** GSM 09.60 §7.5.1 Create PDP Context Request: the IMSI is in the TID, written in {@code order}. */
    static byte[] v0CreateRequest(String imsi, int nsapi, int sequence, GtpV0TidOrder order) {
        return v0CreateRequest(imsi, nsapi, sequence, order, new byte[] {127, 0, 0, 20});
    }

    /** A GTPv0 create from an SGSN whose signalling address (the first GSN Address) is {@code sgsnAddress}. */
    static byte[] v0CreateRequest(String imsi, int nsapi, int sequence, GtpV0TidOrder order, byte[] sgsnAddress) {
        byte[] ies = {14, 7, 15, (byte) 0xfd, (byte) 133, 0, 4, sgsnAddress[0], sgsnAddress[1], sgsnAddress[2],
            sgsnAddress[3]};
        return v0(16, sequence, GtpV0Tid.of(imsi, nsapi, order), ies);
    }

    /** GSM 09.60 §7.5.2 Create PDP Context Response. */
    static byte[] v0CreateResponse(int sequence, long tid, int cause) {
        return v0(17, sequence, tid, new byte[] {1, (byte) cause, 14, 9});
    }

    /** GSM 09.60 §7.4.1 Echo Request: TID 0. */
    static byte[] v0EchoRequest(int sequence) {
        return v0(1, sequence, 0, new byte[0]);
    }

    /** The 20-octet GTPv0 header (flags 0x1e: version 0, PT 1, spare 111, SNN 0) and the IEs. */
    static byte[] v0(int type, int sequence, long tid, byte[] ies) {
        ByteBuffer b = ByteBuffer.allocate(20 + ies.length);
        b.put((byte) 0x1e).put((byte) type).putShort((short) ies.length).putShort((short) sequence)
                .putShort((short) 0).put((byte) 0xff).put(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff})
                .putLong(tid).put(ies);
        return b.array();
    }

    static byte[] int32(long value) {
        return ByteBuffer.allocate(4).putInt((int) value).array();
    }

    /** The sender control-plane TEID of a message, read with the codec (to drive the tests). */
    static long senderTeid(byte[] message) throws Exception {
        var buf = io.netty.buffer.Unpooled.wrappedBuffer(message);
        try {
            return new io.switchboard.codec.gtp.GtpMessageView().wrap(buf).senderControlPlane().teid();
        } finally {
            buf.release();
        }
    }

}
