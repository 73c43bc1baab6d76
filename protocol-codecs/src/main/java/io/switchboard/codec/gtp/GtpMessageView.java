package io.switchboard.codec.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v0.GtpV0IeType;
import io.switchboard.codec.gtp.v0.GtpV0Header;
import io.switchboard.codec.gtp.v0.GtpV0MessageType;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.codec.gtp.v1.GtpV1Header;
import io.switchboard.codec.gtp.v1.GtpV1IeType;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import io.switchboard.codec.gtp.v1.GtpV1MessageType;
import io.switchboard.codec.gtp.v2.GtpV2Header;
import io.switchboard.codec.gtp.v2.GtpV2IeType;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import io.switchboard.codec.gtp.v2.GtpV2SenderFteid;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * The one place a GTP plug-in asks its questions of a datagram, whatever its version: what kind of
 * message it is, its sequence number and TEID, the IMSI, the cause of a response, the sender's
 * control-plane endpoint; and the same-length rewrites a director makes. A reusable flyweight over
 * the version-specific header views: {@link #wrap} sniffs the version and checks the header; the
 * rest reads in place, never moves the reader index, and borrows the buffer (no retain, no release).
 * Only the IE lookups (IMSI, cause, sender) walk the information elements, and only for message
 * types whose body is made of IEs.
 */
public final class GtpMessageView {

    private final GtpV0Header v0 = new GtpV0Header();
    private final GtpV1Header v1 = new GtpV1Header();
    private final GtpV2Header v2 = new GtpV2Header();
    private final GtpV0TidOrder tidOrder;
    private int version = -1;

    /** A view reading GTPv0 TIDs in the given order (a per-virtual-server setting, see docs/interop.md). */
    public GtpMessageView(GtpV0TidOrder tidOrder) {
        this.tidOrder = tidOrder;
    }

    /** A view reading GTPv0 TIDs in GSM 09.60 order. */
    public GtpMessageView() {
        this(GtpV0TidOrder.GSM_09_60);
    }

    /** Points the view at the message at absolute {@code offset}, of any of the three versions. */
    public GtpMessageView wrap(ByteBuf buf, int offset) throws DecodeException {
        version = -1;
        int sniffed = GtpVersion.supported(buf, offset);
        switch (sniffed) {
            case GtpVersion.V0 -> v0.wrap(buf, offset);
            case GtpVersion.V1 -> v1.wrap(buf, offset);
            default -> v2.wrap(buf, offset);
        }
        version = sniffed;
        return this;
    }

    public GtpMessageView wrap(ByteBuf buf) throws DecodeException {
        return wrap(buf, buf.readerIndex());
    }

    /** 0, 1 or 2. */
    public int version() {
        requireWrapped();
        return version;
    }

    public GtpV0Header v0() {
        return v0;
    }

    public GtpV1Header v1() {
        return v1;
    }

    public GtpV2Header v2() {
        return v2;
    }

    public int messageTypeValue() {
        return switch (version()) {
            case 0 -> v0.messageTypeValue();
            case 1 -> v1.messageTypeValue();
            default -> v2.messageTypeValue();
        };
    }

    public boolean isRequest() {
        return switch (version()) {
            case 0 -> v0.messageType().isRequest();
            case 1 -> v1.messageType().isRequest();
            default -> v2.messageType().isRequest();
        };
    }

    public boolean isResponse() {
        return switch (version()) {
            case 0 -> v0.messageType().isResponse();
            case 1 -> v1.messageType().isResponse();
            default -> v2.messageType().isResponse();
        };
    }

    /** Create PDP Context Request (v0, v1) or Create Session Request (v2). */
    public boolean createsTunnel() {
        return switch (version()) {
            case 0 -> v0.messageType().createsTunnel();
            case 1 -> v1.messageType().createsTunnel();
            default -> v2.messageType().createsTunnel();
        };
    }

    /** Echo Request (any version), answered by the director or a probe rather than balanced. */
    public boolean isEchoRequest() {
        return switch (version()) {
            case 0 -> v0.messageType() == GtpV0MessageType.ECHO_REQUEST;
            case 1 -> v1.messageType() == GtpV1MessageType.ECHO_REQUEST;
            default -> v2.messageType() == GtpV2MessageType.ECHO_REQUEST;
        };
    }

    /** The sequence number that correlates a response with its request; -1 if v1 without S flag. */
    public int sequence() {
        return switch (version()) {
            case 0 -> v0.sequence();
            case 1 -> v1.sequence();
            default -> v2.sequence();
        };
    }

    /** The header TEID: v1 always, v2 when the T flag is set, else -1 (v0 has a TID: {@link #v0()}). */
    public long teid() {
        return switch (version()) {
            case 0 -> -1;
            case 1 -> v1.teid();
            default -> v2.teid();
        };
    }

    /** Octets of this message (a piggybacked v2 message that follows is not included). */
    public int totalLength() {
        return switch (version()) {
            case 0 -> v0.totalLength();
            case 1 -> v1.totalLength();
            default -> v2.totalLength();
        };
    }

    /** Offset of the piggybacked GTPv2 message that follows this one, or -1. */
    public int piggybackedOffset() {
        return version() == 2 ? v2.nextMessageOffset() : -1;
    }

    /**
     * The IMSI of this message, or {@code null}: v0 from the TID in the configured order; v1 from IE 2;
     * v2 from IE 1 instance 0 (TS 29.274 §7.2.1). Messages that carry none (Update, Delete, secondary
     * contexts, emergency attach) are found by TEID instead.
     */
    public String imsi() throws DecodeException {
        return switch (version()) {
            case 0 -> v0.imsi(tidOrder);
            case 1 -> v1.messageType().isKnown() ? GtpV1Ies.imsi(v1.buffer(), v1) : null;
            default -> v2.messageType().isKnown() ? GtpV2Ies.imsi(v2.buffer(), v2) : null;
        };
    }

    /**
     * The Access Point Name of this message in dotted form (v0 GSM 09.60 §7.9.22 and v1 TS 29.060
     * §7.7.30: IE 131; v2 TS 29.274 §8.6: IE 71 instance 0), or {@code null} when it has none or the
     * name is not a clean label sequence.
     */
    public String apn() throws DecodeException {
        ByteBuf buf;
        int ie;
        int value;
        int length;
        switch (version()) {
            case 0 -> {
                buf = v0.buffer();
                ie = v0.messageType().isKnown() ? GtpV1Ies.indexOf(buf, v0.bodyOffset(), v0.endOffset(),
                        GtpV0IeType.APN.value(), 0, GtpV0Codec.TV_LENGTHS) : -1;
                value = ie + 3;
                length = ie < 0 ? 0 : buf.getUnsignedShort(ie + 1);
            }
            case 1 -> {
                buf = v1.buffer();
                ie = v1.messageType().isKnown() ? GtpV1Ies.indexOf(buf, v1.bodyOffset(), v1.endOffset(),
                        GtpV1IeType.APN.value(), 0) : -1;
                value = ie + 3;
                length = ie < 0 ? 0 : buf.getUnsignedShort(ie + 1);
            }
            default -> {
                buf = v2.buffer();
                ie = v2.messageType().isKnown() ? GtpV2Ies.indexOf(buf, v2.bodyOffset(), v2.endOffset(),
                        GtpV2IeType.APN.value(), 0) : -1;
                value = ie + GtpV2Ies.IE_HEADER_LENGTH;
                length = ie < 0 ? 0 : GtpV2Ies.valueLength(buf, ie);
            }
        }
        return ie < 0 || length == 0 ? null : GtpApn.decode(GtpBytes.copy(buf, value, length));
    }

    /** The cause value of a response (v0/v1 IE 1, v2 IE 2 instance 0), or -1. */
    public int cause() throws DecodeException {
        return switch (version()) {
            case 0 -> v0.messageType().isKnown() ? v0Cause() : -1;
            case 1 -> v1.messageType().isKnown() ? GtpV1Ies.cause(v1.buffer(), v1) : -1;
            default -> v2.messageType().isKnown() ? GtpV2Ies.cause(v2.buffer(), v2) : -1;
        };
    }

    private int v0Cause() throws DecodeException {
        int ie = GtpV1Ies.indexOf(v0.buffer(), v0.bodyOffset(), v0.endOffset(), 1, 0, GtpV0Codec.TV_LENGTHS);
        return ie < 0 ? -1 : v0.buffer().getUnsignedByte(ie + 1);
    }

    /**
     * Where the sender wants control-plane messages for this session, or {@code null}: v1 TEID Control
     * Plane (IE 17) with the first GSN Address (IE 133); v2 the F-TEID {@link #senderFteid} locates.
     * GTPv0 has no TEID (sessions are known by TID): always {@code null}.
     */
    public GtpControlEndpoint senderControlPlane() throws DecodeException {
        switch (version()) {
            case 1: {
                if (!v1.messageType().isKnown()) {
                    return null;
                }
                ByteBuf buf = v1.buffer();
                int teid = GtpV1Ies.indexOf(buf, v1.bodyOffset(), v1.endOffset(),
                        GtpV1IeType.TEID_CONTROL_PLANE.value(), 0);
                int gsn = GtpV1Ies.indexOf(buf, v1.bodyOffset(), v1.endOffset(), GtpV1IeType.GSN_ADDRESS.value(), 0);
                if (teid < 0 || gsn < 0) {
                    return null;
                }
                InetAddress address = GtpBytes.address(GtpBytes.copy(buf, gsn + 3, buf.getUnsignedShort(gsn + 1)));
                return address == null ? null : GtpControlEndpoint.of(buf.getUnsignedInt(teid + 1), address);
            }
            case 2: {
                int ie = senderFteid();
                return ie < 0 ? null : fteidEndpoint(v2.buffer(), ie);
            }
            default:
                return null;
        }
    }

    /**
     * GTPv2: the offset of the F-TEID naming the sender's control plane ({@link GtpV2SenderFteid}:
     * instance 0, or a PGW's instance 1 in a Create Session Response without it, TS 29.274 Table
     * 7.2.2-1) when it carries a TEID and an address of a flagged family (TS 29.274 §8.22), else -1
     * (and -1 for v0/v1). Lets a caller that reads and rewrites it find it once, without building
     * the endpoint.
     */
    public int senderFteid() throws DecodeException {
        if (version() != 2 || !v2.messageType().isKnown()) {
            return -1;
        }
        return GtpV2SenderFteid.locate(v2.buffer(), v2);
    }

    /**
     * GTPv2: in a Create Session Response, an instance-1 PGW F-TEID identical to the sender F-TEID at
     * {@code senderFteid} (a PGW on S5/S8 that sent both), else -1: it is rewritten with it.
     */
    public int senderFteidTwin(int senderFteid) throws DecodeException {
        return version() != 2 ? -1 : GtpV2SenderFteid.twin(v2.buffer(), v2, senderFteid);
    }

    /** The endpoint an F-TEID at {@code ie} names ({@link #senderFteid} checked its lengths). */
    public static GtpControlEndpoint fteidEndpoint(ByteBuf buf, int ie) {
        int value = ie + GtpV2Ies.IE_HEADER_LENGTH;
        int flags = buf.getUnsignedByte(value);
        boolean hasV4 = (flags & GtpV2Ies.FTEID_V4) != 0;
        boolean hasV6 = (flags & GtpV2Ies.FTEID_V6) != 0;
        Inet4Address ipv4 = hasV4 ? GtpBytes.ipv4(GtpBytes.copy(buf, value + 5, 4)) : null;
        Inet6Address ipv6 = hasV6 ? GtpBytes.ipv6(GtpBytes.copy(buf, value + (hasV4 ? 9 : 5), 16)) : null;
        return new GtpControlEndpoint(buf.getUnsignedInt(value + 1), ipv4, ipv6);
    }

    /** Rewrites the sequence number in place (v1 needs the S flag). */
    public void setSequence(int sequence) {
        switch (version()) {
            case 0 -> v0.setSequence(sequence);
            case 1 -> v1.setSequence(sequence);
            default -> v2.setSequence(sequence);
        }
    }

    /** Rewrites the header TEID in place (v1, or v2 with the T flag). */
    public void setTeid(long teid) {
        switch (version()) {
            case 0 -> throw new IllegalStateException("GTPv0 has no TEID");
            case 1 -> v1.setTeid(teid);
            default -> v2.setTeid(teid);
        }
    }

    /**
     * Rewrites the sender's control-plane IPv4 address in place, as a director under server NAT
     * does: v0/v1 the first GSN Address, v2 the IPv4 of the F-TEID {@link #senderFteid} locates. Returns
     * false, writing nothing, when the message has no such IPv4 address.
     */
    public boolean setSenderIpv4(Inet4Address address) throws DecodeException {
        return switch (version()) {
            case 0 -> v0.messageType().isKnown() && GtpV0Codec.setGsnAddress(v0.buffer(), v0, 0, address);
            case 1 -> v1.messageType().isKnown() && GtpV1Ies.setGsnAddress(v1.buffer(), v1, 0, address);
            default -> v2.messageType().isKnown() && GtpV2Ies.setSenderFteidIpv4(v2.buffer(), v2, address);
        };
    }

    private void requireWrapped() {
        if (version < 0) {
            throw new IllegalStateException("view not wrapped around a valid message");
        }
    }
}
