package io.switchboard.pcap;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.codec.asn.r6.R6View;
import io.switchboard.codec.gtp.GtpApn;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.codec.gtp.v1.GtpV1Codec;
import io.switchboard.codec.gtp.v1.GtpV1IeType;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2IeType;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.codec.radius.RadiusView;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Describes one signaling message of a capture field by field, with the project's codecs: what
 * {@code switchboard inspect} prints. Keys, in order: {@code frame}, {@code src}, {@code dst},
 * {@code proto}, then the header fields of the protocol and the key fields present:
 *
 * <ul>
 *   <li>GTP: {@code type}, {@code seq}, {@code teid} (v1, v2 with the T flag), {@code nsapi} (v0, beside the
 *       IMSI of its TID), {@code imsi}, {@code cause}, {@code apn}; {@code piggybacked} for a v2
 *       message carrying another;</li>
 *   <li>RADIUS: {@code code}, {@code id}, {@code user_name}, {@code calling_station_id},
 *       {@code framed_ip}, {@code acct_status_type}, {@code acct_session_id};</li>
 *   <li>Mobile IP: {@code type}, {@code code} (replies), {@code home_address}, {@code home_agent},
 *       {@code care_of_address} (requests), {@code identification}, {@code nai};</li>
 *   <li>R6: {@code function_type}, {@code op_id}, {@code type}, {@code msid},
 *       {@code transaction_id}, {@code pre_attachment} (Req/Rsp/Ack under the configured release).</li>
 * </ul>
 *
 * A message the codecs refuse gets {@code error} with the drop reason and its message, after whatever
 * header fields could be read. Values are numbers, IMSIs digit strings, addresses dotted text and MSIDs
 * {@code aa:bb:cc:dd:ee:ff}. Not thread-safe (it reuses one GTP view).
 */
public final class SignalingInspector {

    /** The prefix of {@code error} when a codec failed with something other than a DecodeException. */
    public static final String INTERNAL_ERROR = "internal-error";

    private final NwgRelease release;
    private final GtpV0TidOrder tidOrder;
    private final GtpMessageView gtp;

    public SignalingInspector(NwgRelease release, GtpV0TidOrder tidOrder) {
        this.release = release;
        this.tidOrder = tidOrder;
        this.gtp = new GtpMessageView(tidOrder);
    }

    public SignalingInspector() {
        this(NwgRelease.R1_0_V1_2_1, GtpV0TidOrder.GSM_09_60);
    }

    /** The description of a datagram, or {@code null} if it is not one of the protocols Switchboard directs. */
    public Map<String, Object> inspect(UdpDatagram datagram) {
        SignalingProtocol protocol = SignalingProtocol.classify(datagram.sourcePort(), datagram.destinationPort(),
                datagram.payload());
        if (protocol == null) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("frame", datagram.frame());
        out.put("src", datagram.sourceText());
        out.put("dst", datagram.destinationText());
        out.put("proto", protocol.label());
        if (datagram.fragments() > 1) {
            out.put("ip_fragments", datagram.fragments());
        }
        ByteBuf buf = Unpooled.wrappedBuffer(datagram.payload());
        try {
            switch (protocol) {
                case GTPV0, GTPV1, GTPV2 -> gtp(buf, out);
                case RADIUS -> radius(buf, out);
                case MIP -> mip(buf, out);
                case R6 -> r6(buf, out);
                default -> throw new IllegalStateException(protocol.name());
            }
        } catch (DecodeException e) {
            out.put("error", e.reason() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            // A codec bug, not bad input: one message says so and the capture goes on being read.
            out.put("error", INTERNAL_ERROR + ": " + e);
        } finally {
            buf.release();
        }
        return out;
    }

    // ---- GTP ----

    private void gtp(ByteBuf buf, Map<String, Object> out) throws DecodeException {
        if (buf.readableBytes() >= 2) {
            out.put("type", (int) buf.getUnsignedByte(1)); // before the header checks, so an error still names it
        }
        gtp.wrap(buf, 0);
        int version = gtp.version();
        out.put("type", gtp.messageTypeValue());
        if (gtp.sequence() >= 0) {
            out.put("seq", gtp.sequence());
        }
        if (gtp.teid() >= 0) {
            out.put("teid", gtp.teid());
        }
        String imsi = gtp.imsi();
        if (imsi != null) {
            out.put("imsi", imsi);
        }
        if (version == 0) {
            out.put("nsapi", gtp.v0().nsapi(tidOrder));
        }
        int cause = gtp.cause();
        if (cause >= 0) {
            out.put("cause", cause);
        }
        String apn = apn(version, buf);
        if (apn != null) {
            out.put("apn", apn);
        }
        int piggybacked = gtp.piggybackedOffset();
        // The full decoders check every element, so a malformed message is reported, not half-read.
        switch (version) {
            case 0 -> GtpV0Codec.decode(buf, 0);
            case 1 -> GtpV1Codec.decode(buf, 0);
            default -> GtpV2Codec.decodeAll(buf);
        }
        if (piggybacked > 0) {
            Map<String, Object> inner = new LinkedHashMap<>();
            gtp(buf, piggybacked, inner);
            out.put("piggybacked", inner);
        }
    }

    private void gtp(ByteBuf buf, int offset, Map<String, Object> out) throws DecodeException {
        gtp.wrap(buf, offset);
        out.put("type", gtp.messageTypeValue());
        out.put("seq", gtp.sequence());
        if (gtp.teid() >= 0) {
            out.put("teid", gtp.teid());
        }
        String imsi = gtp.imsi();
        if (imsi != null) {
            out.put("imsi", imsi);
        }
        int cause = gtp.cause();
        if (cause >= 0) {
            out.put("cause", cause);
        }
        String apn = apn(2, buf);
        if (apn != null) {
            out.put("apn", apn);
        }
    }

    /** The APN (v0/v1 IE 131, v2 IE 71 instance 0) as a dotted name, or null. */
    private String apn(int version, ByteBuf buf) throws DecodeException {
        int value;
        int length;
        switch (version) {
            case 0, 1 -> {
                if (version == 0 ? !gtp.v0().messageType().isKnown() : !gtp.v1().messageType().isKnown()) {
                    return null;
                }
                int from = version == 0 ? gtp.v0().bodyOffset() : gtp.v1().bodyOffset();
                int end = version == 0 ? gtp.v0().endOffset() : gtp.v1().endOffset();
                int ie = version == 0
                        ? GtpV1Ies.indexOf(buf, from, end, GtpV1IeType.APN.value(), 0, GtpV0Codec.TV_LENGTHS)
                        : GtpV1Ies.indexOf(buf, from, end, GtpV1IeType.APN.value(), 0);
                if (ie < 0) {
                    return null;
                }
                value = GtpV1Ies.valueOffset(buf, ie);
                length = GtpV1Ies.valueLength(buf, ie);
            }
            default -> {
                if (!gtp.v2().messageType().isKnown()) {
                    return null;
                }
                int ie = GtpV2Ies.indexOf(buf, gtp.v2().bodyOffset(), gtp.v2().endOffset(), GtpV2IeType.APN.value(), 0);
                if (ie < 0) {
                    return null;
                }
                value = ie + GtpV2Ies.IE_HEADER_LENGTH;
                length = GtpV2Ies.valueLength(buf, ie);
            }
        }
        byte[] bytes = new byte[length];
        buf.getBytes(value, bytes);
        String dotted = GtpApn.decode(bytes);
        return dotted != null ? dotted : new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
    }

    // ---- RADIUS ----

    private static void radius(ByteBuf buf, Map<String, Object> out) throws DecodeException {
        if (buf.readableBytes() >= 2) {
            out.put("code", (int) buf.getUnsignedByte(0));
            out.put("id", (int) buf.getUnsignedByte(1));
        }
        RadiusView view = RadiusView.wrap(buf);
        putIfPresent(out, "user_name", view.userName());
        putIfPresent(out, "calling_station_id", view.callingStationId());
        long framed = view.framedIpAddress();
        if (framed >= 0) {
            out.put("framed_ip", ipv4((int) framed));
        }
        long status = view.acctStatusType();
        if (status >= 0) {
            out.put("acct_status_type", status);
        }
        putIfPresent(out, "acct_session_id", view.acctSessionId());
    }

    // ---- Mobile IP ----

    private static void mip(ByteBuf buf, Map<String, Object> out) throws DecodeException {
        if (buf.readableBytes() >= 1) {
            out.put("type", (int) buf.getUnsignedByte(0));
        }
        MipHeaderView view = MipHeaderView.wrap(buf);
        if (!view.isRequest()) {
            out.put("code", view.code());
        }
        out.put("lifetime", view.lifetime());
        out.put("home_address", ipv4(view.homeAddress()));
        out.put("home_agent", ipv4(view.homeAgent()));
        if (view.isRequest()) {
            out.put("care_of_address", ipv4(view.careOfAddress()));
        }
        long identification = view.identification();
        out.put("identification", identification >= 0 ? (Object) identification
                : new java.math.BigInteger(Long.toUnsignedString(identification)));
        putIfPresent(out, "nai", view.nai());
    }

    // ---- R6 ----

    private void r6(ByteBuf buf, Map<String, Object> out) throws DecodeException {
        R6View view = R6View.wrap(buf);
        out.put("function_type", view.functionType());
        out.put("op_id", view.opId());
        out.put("type", view.messageType());
        out.put("msid", view.msidText());
        out.put("transaction_id", view.transactionId());
        R6PreAttachment pre = view.preAttachment(release);
        if (pre != null) {
            out.put("pre_attachment", pre.name());
        }
    }

    private static void putIfPresent(Map<String, Object> out, String key, Object value) {
        if (value != null) {
            out.put(key, value);
        }
    }

    private static String ipv4(int address) {
        return ((address >>> 24) & 0xFF) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "."
                + (address & 0xFF);
    }
}
