package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpBytes;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v1.GtpV1IeType;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Puts the director's control-plane endpoint into GTP messages, in place, where a peer names its own:
 * v0/v1 the first GSN Address (for signalling) and, in v1, the TEID Control Plane when present; v2 the
 * F-TEID that names the sender's control plane, IPv4 and/or IPv6: instance 0, or in a Create Session
 * Response from a PGW on S5/S8, S2a or S2b the instance-1 PGW F-TEID it sends instead (TS 29.274 Table
 * 7.2.2-1, {@code GtpV2SenderFteid}). The PGW F-TEID of a response on S11 names another node and is
 * left alone. User-plane addresses and TEIDs are not touched.
 * Rewriting in place keeps lengths: an address is only replaced by the director's of its own family.
 */
final class GtpEndpointRewriter {

    /** TS 29.060 §7.7.32 / GSM 09.60 §7.9.13: GSN Address; the first one is for signalling. */
    private static final int GSN_ADDRESS = 133;
    /** TS 29.060 §4.4.2 / TS 29.274 §4.4.2.1: requests go to the GTP-C port; GSM 09.60 §7.2: v0 on 3386. */
    static final int GTP_C_PORT = 2123;
    static final int GTP_V0_PORT = 3386;
    /** A TEID-C the message did not name (a v1 Update without TEID Control Plane). */
    static final long UNCHANGED = -1;
    /** How many peer endpoints {@link #peer} holds one address object for. */
    private static final int MAX_PEERS = 4096;

    /**
     * The endpoint a peer named for itself, before the rewrite.
     *
     * @param teid    its TEID-C, or {@link #UNCHANGED}
     * @param address its control-plane address and the GTP-C port of the version: where its requests
     *                come from and where the other side's requests go
     */
    record Endpoint(long teid, InetSocketAddress address) {
    }

    private final InetAddress vip;
    private final Inet4Address ipv4;
    private final Inet6Address ipv6;
    private final byte[] ipv4Bytes;
    private final byte[] ipv6Bytes;
    private final LongAdder skipped = new LongAdder();
    /**
     * One address object per peer endpoint: every session keeps its requester's, and a node holds
     * millions of sessions of a few SGSNs / MMEs. Bounded, for a peer population that is not small.
     */
    private final Map<InetSocketAddress, InetSocketAddress> peers = new ConcurrentHashMap<>();

    /** @param directorAddresses at most one per family; empty means the virtual address */
    GtpEndpointRewriter(InetAddress vip, List<InetAddress> directorAddresses) {
        this.vip = vip;
        Inet4Address v4 = null;
        Inet6Address v6 = null;
        for (InetAddress a : directorAddresses.isEmpty() ? List.of(vip) : directorAddresses) {
            if (a instanceof Inet4Address four && !four.isAnyLocalAddress()) {
                v4 = four;
            } else if (a instanceof Inet6Address six && !six.isAnyLocalAddress()) {
                v6 = six;
            }
        }
        this.ipv4 = v4;
        this.ipv6 = v6;
        this.ipv4Bytes = v4 == null ? null : v4.getAddress();
        this.ipv6Bytes = v6 == null ? null : v6.getAddress();
    }

    /** Addresses left unchanged for want of a director address of their family. */
    long skipped() {
        return skipped.sum();
    }

    boolean isDirector(InetAddress address) {
        return address != null && (address.equals(ipv4) || address.equals(ipv6));
    }

    /**
     * Writes the director's address and {@code teid} in place of the sender's endpoint, and returns
     * the sender's own, or null when the message names none.
     */
    Endpoint rewrite(GtpMessageView view, long teid) throws DecodeException {
        int version = view.version();
        if (version == 2) {
            int ie = view.senderFteid();
            if (ie < 0) {
                return null;
            }
            ByteBuf buf = view.v2().buffer();
            GtpControlEndpoint own = GtpMessageView.fteidEndpoint(buf, ie);
            // A PGW on S5/S8 that sends its endpoint twice (instance 0 and the instance 1 Table 7.2.2-1
            // calls identical) has both rewritten, so that its peer reads the director in either.
            int twin = view.senderFteidTwin(ie);
            writeFteid(buf, ie, own, teid);
            if (twin >= 0) {
                writeFteid(buf, twin, own, teid);
            }
            // The other side's requests leave the virtual address's socket: to an address of its family.
            InetAddress to = vip instanceof Inet6Address && own.ipv6() != null ? own.ipv6()
                    : own.ipv4() != null ? own.ipv4() : own.ipv6();
            return new Endpoint(own.teid(), peer(new InetSocketAddress(to, GTP_C_PORT)));
        }
        ByteBuf buf = version == 0 ? view.v0().buffer() : view.v1().buffer();
        int from = version == 0 ? view.v0().bodyOffset() : view.v1().bodyOffset();
        int end = version == 0 ? view.v0().endOffset() : view.v1().endOffset();
        int gsn = gsnAddress(view);
        if (gsn < 0) {
            return null;
        }
        InetAddress own = GtpBytes.address(GtpBytes.copy(buf, gsn + 3, buf.getUnsignedShort(gsn + 1)));
        if (own == null) {
            return null;
        }
        InetAddress director = own instanceof Inet4Address ? ipv4 : ipv6;
        if (director == null) {
            skipped.increment();
        } else {
            buf.setBytes(gsn + 3, director.getAddress()); // same family, same length
        }
        long ownTeid = UNCHANGED;
        if (version == 1) {
            int ie = GtpV1Ies.indexOf(buf, from, end, GtpV1IeType.TEID_CONTROL_PLANE.value(), 0);
            if (ie >= 0) {
                ownTeid = buf.getUnsignedInt(ie + 1);
                buf.setInt(ie + 1, (int) teid);
            }
        }
        return new Endpoint(ownTeid, peer(new InetSocketAddress(own, version == 0 ? GTP_V0_PORT : GTP_C_PORT)));
    }

    /** The director's TEID and address of each family in place of the endpoint {@code own} at {@code ie}. */
    private void writeFteid(ByteBuf buf, int ie, GtpControlEndpoint own, long teid) {
        GtpV2Ies.setFteidTeid(buf, ie, teid);
        if (own.ipv4() != null && (ipv4 == null || !GtpV2Ies.setFteidIpv4(buf, ie, ipv4))) {
            skipped.increment();
        }
        if (own.ipv6() != null && (ipv6 == null || !GtpV2Ies.setFteidIpv6(buf, ie, ipv6))) {
            skipped.increment();
        }
    }

    /** The address object already held for {@code address}, else {@code address}. */
    private InetSocketAddress peer(InetSocketAddress address) {
        InetSocketAddress held = peers.get(address);
        if (held != null) {
            return held;
        }
        if (peers.size() < MAX_PEERS) {
            held = peers.putIfAbsent(address, address);
        }
        return held == null ? address : held;
    }

    /**
     * The TEID-C a v1/v2 create names for its sender when that sender is the director already (a
     * create the engine resends to another real after a refusal), else {@link #UNCHANGED}: v1 by the
     * first GSN Address with the TEID Control Plane, v2 by the sender F-TEID. Asked of every create
     * while any create is pending, so v2 is read in the buffer, in one pass, without building an endpoint.
     */
    long directorTeidNamed(GtpMessageView view) throws DecodeException {
        if (view.version() != 2) {
            GtpControlEndpoint own = view.senderControlPlane();
            return own != null && isDirector(own.address()) ? own.teid() : UNCHANGED;
        }
        int ie = view.senderFteid();
        if (ie < 0) {
            return UNCHANGED;
        }
        ByteBuf buf = view.v2().buffer();
        int value = ie + GtpV2Ies.IE_HEADER_LENGTH;
        int flags = buf.getUnsignedByte(value);
        boolean hasV4 = (flags & GtpV2Ies.FTEID_V4) != 0;
        boolean hasV6 = (flags & GtpV2Ies.FTEID_V6) != 0;
        // The endpoint's address is its IPv4 one when it has both (GtpControlEndpoint.address).
        boolean director = hasV4 ? ipv4 != null && sameBytes(buf, value + 5, ipv4Bytes)
                : hasV6 && ipv6 != null && sameBytes(buf, value + 5, ipv6Bytes);
        return director ? buf.getUnsignedInt(value + 1) : UNCHANGED;
    }

    /**
     * Whether a GTPv0 message names the director as its sender already (a create the engine resends
     * to another real after a refusal), by its first GSN Address.
     */
    boolean namesDirector(GtpMessageView view) throws DecodeException {
        int gsn = gsnAddress(view);
        if (gsn < 0) {
            return false;
        }
        ByteBuf buf = view.version() == 0 ? view.v0().buffer() : view.v1().buffer();
        return isDirector(GtpBytes.address(GtpBytes.copy(buf, gsn + 3, buf.getUnsignedShort(gsn + 1))));
    }

    private static boolean sameBytes(ByteBuf buf, int offset, byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (buf.getByte(offset + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** The offset of the first GSN Address of a v0/v1 message, or -1. */
    private static int gsnAddress(GtpMessageView view) throws DecodeException {
        if (view.version() == 0) {
            return GtpV1Ies.indexOf(view.v0().buffer(), view.v0().bodyOffset(), view.v0().endOffset(), GSN_ADDRESS, 0,
                    GtpV0Codec.TV_LENGTHS);
        }
        return GtpV1Ies.indexOf(view.v1().buffer(), view.v1().bodyOffset(), view.v1().endOffset(), GSN_ADDRESS, 0);
    }
}
