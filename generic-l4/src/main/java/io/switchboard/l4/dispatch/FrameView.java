package io.switchboard.l4.dispatch;

/**
 * The headers of one captured Ethernet frame that dispatched mode reads: the IPv4 addresses, the
 * protocol and, for TCP and UDP, the ports. Read at fixed offsets, without copying or allocating
 * (pcap4j's packet factories dissect whole payloads and throw on what they misread, see
 * {@code UdpExtractor}); one view per capture thread, reused frame after frame.
 */
final class FrameView {

    /** IEEE 802.3: destination MAC, source MAC, EtherType. */
    static final int ETHERNET_HEADER = 14;
    static final int ETHERTYPE_IPV4 = 0x0800;
    /** IEEE 802.1Q: a VLAN tag of four octets before the real EtherType. */
    static final int ETHERTYPE_VLAN = 0x8100;
    /** RFC 791 §3.1: IHL counts 32-bit words, at least 5. */
    static final int MIN_IPV4_HEADER = 20;
    static final int TCP = 6;
    static final int UDP = 17;

    /** Why a frame was not read. */
    enum Verdict {
        IPV4,
        /** Not IPv4 (ARP, IPv6, ...): not for dispatched mode. */
        UNEXPECTED,
        /** Cut short, or IPv4 header fields that contradict the frame. */
        MALFORMED
    }

    int ipOffset;
    int protocol;
    int source;
    int destination;
    /** The ports, when {@link #hasPorts}: TCP or UDP and not a later fragment. */
    int sourcePort;
    int destinationPort;
    boolean hasPorts;

    Verdict read(byte[] frame, int length) {
        if (length < ETHERNET_HEADER || length > frame.length) {
            return Verdict.MALFORMED;
        }
        int offset = 12;
        int etherType = u16(frame, offset);
        if (etherType == ETHERTYPE_VLAN) {
            if (length < ETHERNET_HEADER + 4) {
                return Verdict.MALFORMED;
            }
            offset += 4;
            etherType = u16(frame, offset);
        }
        if (etherType != ETHERTYPE_IPV4) {
            return Verdict.UNEXPECTED;
        }
        int ip = offset + 2;
        if (length < ip + MIN_IPV4_HEADER) {
            return Verdict.MALFORMED;
        }
        int versionAndIhl = frame[ip] & 0xff;
        int headerLength = (versionAndIhl & 0x0f) * 4;
        int totalLength = u16(frame, ip + 2);
        if (versionAndIhl >> 4 != 4 || headerLength < MIN_IPV4_HEADER || totalLength < headerLength
                || ip + totalLength > length) {
            return Verdict.MALFORMED;
        }
        ipOffset = ip;
        protocol = frame[ip + 9] & 0xff;
        source = s32(frame, ip + 12);
        destination = s32(frame, ip + 16);
        // RFC 791: flags and fragment offset; only the first fragment carries the ports.
        boolean laterFragment = (u16(frame, ip + 6) & 0x1fff) != 0;
        hasPorts = false;
        if ((protocol == TCP || protocol == UDP) && !laterFragment) {
            if (totalLength < headerLength + 4) {
                return Verdict.MALFORMED;
            }
            sourcePort = u16(frame, ip + headerLength);
            destinationPort = u16(frame, ip + headerLength + 2);
            hasPorts = true;
        }
        return Verdict.IPV4;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
    }

    private static int s32(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }
}
