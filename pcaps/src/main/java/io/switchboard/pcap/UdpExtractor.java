package io.switchboard.pcap;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.pcap4j.packet.IpV4Packet;
import org.pcap4j.packet.IpV6ExtFragmentPacket;
import org.pcap4j.packet.IpV6ExtOptionsPacket;
import org.pcap4j.packet.IpV6ExtRoutingPacket;
import org.pcap4j.packet.IpV6Packet;
import org.pcap4j.packet.Packet;
import org.pcap4j.packet.UdpPacket;
import org.pcap4j.packet.factory.PacketFactories;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * Takes the UDP datagrams out of capture frames, IPv4 fragments reassembled.
 *
 * <p>The link and IP layers are decoded by pcap4j's static packet factories (Ethernet with 802.1Q
 * tags, Linux cooked SLL, raw IP; IPv4 and IPv6 with extension headers). A small reader of our own
 * takes over where pcap4j 1.8.2 cannot:
 * <ul>
 *   <li>link types it does not know: Linux cooked SLL2 (DLT 276, newer than pcap4j), BSD loopback
 *       (DLT 0 and 108: the 4-octet address family is in the capturing host's byte order and IPv6 has
 *       a different number on each BSD, so the IP version nibble is the surer guide), LINKTYPE_RAW 101
 *       as pcapng files name it, LINKTYPE_IPV4/IPV6 (228/229), and 802.1ad (QinQ) outer tags;</li>
 *   <li>frames on which pcap4j fails: its factories go on to dissect UDP payloads by port (2123 and
 *       2152 as GTPv1) and throw unchecked exceptions such as {@code ArrayIndexOutOfBoundsException}
 *       on payloads they misread (for example a GTPv2 or arbitrary payload on 2123), and they refuse
 *       IP packets cut by the snap length. Such a frame is read again, IP and UDP headers only, here.</li>
 * </ul>
 * IPv6 fragments are reported, not reassembled. IPv4 fragments are kept until their datagram is complete (offset 0 to a last fragment without a
 * gap) and then put together; the datagram is reported at the frame that completed it, as tshark does.
 *
 * <p>Stateful: feed every frame in order to {@link #accept}, then call {@link #finish} once to report
 * fragments that never completed.
 */
public final class UdpExtractor {

    private static final int UDP = 17;

    /** Fragments older than this many frames without completing are given up. */
    private static final int FRAGMENT_WINDOW = 10_000;

    /** The IP layer of a frame, from pcap4j or from our own reader. */
    private record IpLayer(InetAddress source, InetAddress destination, int protocol, int identification,
                           boolean moreFragments, int fragmentOffset, byte[] payload) {
        boolean fragment() {
            return moreFragments || fragmentOffset != 0;
        }
    }

    private record FragmentKey(InetAddress source, InetAddress destination, int identification, int protocol) {
    }

    private static final class Fragments {
        final int firstFrame;
        final List<IpLayer> pieces = new ArrayList<>();

        Fragments(int firstFrame) {
            this.firstFrame = firstFrame;
        }
    }

    /** IPv6 fragments (extension header 44) are reported, not reassembled: signaling does not use them. */
    private static final IpLayer IPV6_FRAGMENT = new IpLayer(null, null, -1, 0, false, 0, new byte[0]);

    private final Map<FragmentKey, Fragments> pending = new LinkedHashMap<>();

    /** Every UDP datagram of a list of frames, in order, with the frames that could not be read. */
    public static List<CaptureEvent> extract(List<CaptureFrame> frames) {
        UdpExtractor extractor = new UdpExtractor();
        List<CaptureEvent> out = new ArrayList<>();
        for (CaptureFrame frame : frames) {
            extractor.accept(frame, out::add);
        }
        extractor.finish(out::add);
        return out;
    }

    /**
     * The link types whose frames are read (libpcap DLT / LINKTYPE values): BSD loopback 0 and 108,
     * Ethernet 1, raw IP 12, 14, 101, 228, 229, Linux cooked SLL 113 and SLL2 276. A frame of another
     * link type that pcap4j cannot take to an IP layer either is reported as unreadable, by number.
     */
    static final java.util.Set<Integer> KNOWN_LINK_TYPES = java.util.Set.of(0, 1, 12, 14, 101, 108, 113, 228, 229, 276);

    /** Reads one frame; emits its UDP datagram (or the reassembled one it completes), or why not. */
    public void accept(CaptureFrame frame, Consumer<CaptureEvent> out) {
        IpLayer ip = ipLayer(frame);
        if (ip == IPV6_FRAGMENT) {
            out.accept(new CaptureEvent.Unreadable(frame.number(), "IPv6 fragment: not reassembled"));
        } else if (ip == null) {
            if (!KNOWN_LINK_TYPES.contains(frame.linkType())) {
                out.accept(new CaptureEvent.Unreadable(frame.number(), "link type " + frame.linkType()
                        + " is not supported (Ethernet, Linux cooked SLL/SLL2, raw IP and BSD loopback are)"));
            } else if (frame.truncated()) {
                out.accept(new CaptureEvent.Unreadable(frame.number(), "frame cut by the capture's snap length"));
            }
        } else if (ip.fragment()) {
            fragment(frame.number(), ip, out);
        } else if (ip.protocol() == UDP) {
            udp(frame.number(), ip.source(), ip.destination(), ip.payload(), 1, out);
        }
        expireFragments(frame.number(), out);
    }

    /** Reports the fragments that never completed. */
    public void finish(Consumer<CaptureEvent> out) {
        for (Fragments f : pending.values()) {
            out.accept(unreassembled(f));
        }
        pending.clear();
    }

    private static CaptureEvent.Unreadable unreassembled(Fragments f) {
        return new CaptureEvent.Unreadable(f.firstFrame,
                "IPv4 fragments not reassembled: " + f.pieces.size() + " fragment(s), datagram incomplete");
    }

    private void expireFragments(int frame, Consumer<CaptureEvent> out) {
        pending.values().removeIf(f -> {
            if (frame - f.firstFrame > FRAGMENT_WINDOW) {
                out.accept(unreassembled(f));
                return true;
            }
            return false;
        });
    }

    private void fragment(int frame, IpLayer ip, Consumer<CaptureEvent> out) {
        FragmentKey key = new FragmentKey(ip.source(), ip.destination(), ip.identification(), ip.protocol());
        Fragments fragments = pending.computeIfAbsent(key, k -> new Fragments(frame));
        fragments.pieces.add(ip);
        byte[] whole = reassemble(fragments.pieces);
        if (whole == null) {
            return;
        }
        pending.remove(key);
        if (ip.protocol() == UDP) {
            udp(frame, ip.source(), ip.destination(), whole, fragments.pieces.size(), out);
        }
    }

    /** The datagram, if the pieces cover it from offset 0 to a last fragment without a gap; else null. */
    private static byte[] reassemble(List<IpLayer> pieces) {
        List<IpLayer> sorted = new ArrayList<>(pieces);
        sorted.sort(Comparator.comparingInt(IpLayer::fragmentOffset));
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        for (IpLayer p : sorted) {
            int start = p.fragmentOffset();
            if (start > whole.size()) {
                return null; // a gap
            }
            int skip = whole.size() - start; // overlap: the first copy wins
            if (skip < p.payload().length) {
                whole.write(p.payload(), skip, p.payload().length - skip);
            }
            if (!p.moreFragments()) {
                return whole.toByteArray();
            }
        }
        return null;
    }

    private static void udp(int number, InetAddress source, InetAddress destination, byte[] raw, int fragments,
                            Consumer<CaptureEvent> out) {
        if (raw.length < 8) {
            out.accept(new CaptureEvent.Unreadable(number, "UDP header cut short"));
            return;
        }
        int sourcePort = ((raw[0] & 0xFF) << 8) | (raw[1] & 0xFF);
        int destinationPort = ((raw[2] & 0xFF) << 8) | (raw[3] & 0xFF);
        int udpLength = ((raw[4] & 0xFF) << 8) | (raw[5] & 0xFF);
        int end = udpLength >= 8 ? Math.min(raw.length, udpLength) : raw.length;
        out.accept(new UdpDatagram(number, source, sourcePort, destination, destinationPort,
                Arrays.copyOfRange(raw, 8, end), fragments));
    }

    // ---- link and IP layers ----

    private static IpLayer ipLayer(CaptureFrame frame) {
        byte[] data = frame.data();
        int ipOffset = switch (frame.linkType()) {
            case 0, 108 -> 4;         // BSD loopback: 4-octet address family, then IP
            case 101, 228, 229 -> 0;  // LINKTYPE_RAW as pcapng writes it, LINKTYPE_IPV4, LINKTYPE_IPV6
            case 276 -> 20;           // Linux cooked SLL2: protocol, reserved, ifindex, ... 20 octets
            default -> -1;            // pcap4j
        };
        if (ipOffset >= 0) {
            return byHand(data, ipOffset);
        }
        try {
            Packet packet = PacketFactories.getFactory(Packet.class, DataLinkType.class)
                    .newInstance(data, 0, data.length, DataLinkType.getInstance(frame.linkType()));
            IpLayer ip = fromPcap4j(packet);
            if (ip != null) {
                return ip;
            }
        } catch (RuntimeException e) {
            // pcap4j failed above the IP layer (see the class comment): read the headers by hand
        }
        int offset = linkHeaderByHand(frame.linkType(), data);
        return offset < 0 ? null : byHand(data, offset);
    }

    private static IpLayer fromPcap4j(Packet packet) {
        IpV4Packet v4 = packet.get(IpV4Packet.class);
        if (v4 != null) {
            IpV4Packet.IpV4Header h = v4.getHeader();
            byte[] payload = v4.getPayload() == null ? new byte[0] : v4.getPayload().getRawData();
            return new IpLayer(h.getSrcAddr(), h.getDstAddr(), h.getProtocol().value() & 0xFF,
                    h.getIdentificationAsInt(), h.getMoreFragmentFlag(), h.getFragmentOffset() * 8, payload);
        }
        IpV6Packet v6 = packet.get(IpV6Packet.class);
        if (v6 != null) {
            // The UDP header right after the extension headers, not one quoted deeper (ICMPv6 errors).
            Packet next = v6.getPayload();
            while (next instanceof IpV6ExtOptionsPacket || next instanceof IpV6ExtRoutingPacket) {
                next = next.getPayload();
            }
            if (next instanceof IpV6ExtFragmentPacket) {
                return IPV6_FRAGMENT;
            }
            if (!(next instanceof UdpPacket)) {
                return null;
            }
            return new IpLayer(v6.getHeader().getSrcAddr(), v6.getHeader().getDstAddr(), UDP, 0, false, 0,
                    next.getRawData());
        }
        return null;
    }

    /** Where the IP packet starts in a frame of a link type pcap4j decodes, or -1. */
    private static int linkHeaderByHand(int linkType, byte[] data) {
        switch (linkType) {
            case 1 -> { // Ethernet, through 802.1Q / 802.1ad tags
                int pos = 12;
                while (pos + 2 <= data.length) {
                    int etherType = ((data[pos] & 0xFF) << 8) | (data[pos + 1] & 0xFF);
                    if (etherType == 0x8100 || etherType == 0x88A8 || etherType == 0x9100) {
                        pos += 4;
                    } else {
                        return etherType == 0x0800 || etherType == 0x86DD ? pos + 2 : -1;
                    }
                }
                return -1;
            }
            case 12, 14 -> {
                return 0; // raw IP (DLT_RAW on Linux, OpenBSD)
            }
            case 113 -> {
                return 16; // Linux cooked SLL
            }
            default -> {
                return -1;
            }
        }
    }

    /** IPv4 or IPv6 (hop-by-hop, routing, destination options skipped) at {@code pos}, or null. */
    private static IpLayer byHand(byte[] p, int pos) {
        if (pos >= p.length) {
            return null;
        }
        int version = (p[pos] & 0xFF) >>> 4;
        if (version == 4) {
            if (pos + 20 > p.length) {
                return null;
            }
            int headerLength = (p[pos] & 0x0F) * 4;
            int total = u16(p, pos + 2);
            int flagsAndOffset = u16(p, pos + 6);
            int end = Math.min(p.length, pos + total);
            if (headerLength < 20 || pos + headerLength > end) {
                return null;
            }
            return new IpLayer(address(p, pos + 12, 4), address(p, pos + 16, 4), p[pos + 9] & 0xFF, u16(p, pos + 4),
                    (flagsAndOffset & 0x2000) != 0, (flagsAndOffset & 0x1FFF) * 8,
                    Arrays.copyOfRange(p, pos + headerLength, end));
        }
        if (version == 6) {
            if (pos + 40 > p.length) {
                return null;
            }
            int end = Math.min(p.length, pos + 40 + u16(p, pos + 4));
            int next = p[pos + 6] & 0xFF;
            int at = pos + 40;
            while ((next == 0 || next == 43 || next == 60) && at + 8 <= end) {
                next = p[at] & 0xFF;
                at += ((p[at + 1] & 0xFF) + 1) * 8;
            }
            if (next == 44) {
                return IPV6_FRAGMENT;
            }
            if (next != UDP || at > end) {
                return null;
            }
            return new IpLayer(address(p, pos + 8, 16), address(p, pos + 24, 16), UDP, 0, false, 0,
                    Arrays.copyOfRange(p, at, end));
        }
        return null;
    }

    private static int u16(byte[] p, int at) {
        return ((p[at] & 0xFF) << 8) | (p[at + 1] & 0xFF);
    }

    private static InetAddress address(byte[] p, int at, int length) {
        try {
            return InetAddress.getByAddress(Arrays.copyOfRange(p, at, at + length));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // only for a wrong length, never here
        }
    }
}
