package io.switchboard.codec.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the UDP datagrams out of a classic pcap or pcapng capture, for tests. Understands link types
 * null/loopback (0), Ethernet (1, with 802.1Q/802.1ad tags), raw IP (12, 101, 228, 229), Linux SLL (113)
 * and SLL2 (276); IPv4 (unfragmented or first fragments are skipped unless whole) and IPv6 (with
 * hop-by-hop/routing/destination extension headers). Anything else is skipped, not an error: real
 * captures are full of other traffic.
 */
public final class CaptureReader {

    /** One UDP datagram: ports, addresses as text, and the payload as captured (possibly cut by snaplen). */
    public record Datagram(int frame, String source, int sourcePort, String destination, int destinationPort,
                           byte[] payload) {
        @Override
        public String toString() {
            return "frame " + frame + " " + source + ":" + sourcePort + " -> " + destination + ":" + destinationPort
                    + " (" + payload.length + " bytes)";
        }
    }

    private CaptureReader() {
    }

    /** Reads a capture from the test class path, e.g. {@code "/pcaps/radius/radius.pcap"}. */
    public static List<Datagram> resource(String name) {
        try (InputStream in = CaptureReader.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return read(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The datagrams of a capture whose source or destination port is {@code port}. */
    public static List<Datagram> resource(String name, int port) {
        return resource(name).stream().filter(d -> d.sourcePort() == port || d.destinationPort() == port).toList();
    }

    public static List<Datagram> read(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        if (file.length < 4) {
            throw new IllegalArgumentException("not a capture: " + file.length + " bytes");
        }
        int magic = b.order(ByteOrder.BIG_ENDIAN).getInt(0);
        if (magic == 0x0A0D0D0A) {
            return readPcapng(b);
        }
        return readPcap(b);
    }

    private static List<Datagram> readPcap(ByteBuffer b) {
        int magic = b.order(ByteOrder.BIG_ENDIAN).getInt(0);
        switch (magic) {
            case 0xA1B2C3D4, 0xA1B23C4D -> b.order(ByteOrder.BIG_ENDIAN);
            case 0xD4C3B2A1, 0x4D3CB2A1 -> b.order(ByteOrder.LITTLE_ENDIAN);
            default -> throw new IllegalArgumentException("not a pcap file, magic " + Integer.toHexString(magic));
        }
        int linkType = b.getInt(20) & 0xFFFF; // upper bits may carry FCS information
        List<Datagram> out = new ArrayList<>();
        int pos = 24;
        int frame = 0;
        while (pos + 16 <= b.limit()) {
            int captured = b.getInt(pos + 8);
            pos += 16;
            if (captured < 0 || pos + captured > b.limit()) {
                break; // a capture cut mid-record
            }
            frame++;
            link(linkType, Arrays.copyOfRange(b.array(), pos, pos + captured), frame, out);
            pos += captured;
        }
        return out;
    }

    private static List<Datagram> readPcapng(ByteBuffer b) {
        List<Datagram> out = new ArrayList<>();
        Map<Integer, Integer> linkTypes = new HashMap<>();
        int interfaces = 0;
        int pos = 0;
        int frame = 0;
        while (pos + 12 <= b.limit()) {
            // The section header's type reads the same in both orders; its byte-order magic decides the
            // order of everything in the section.
            ByteBuffer bigEndian = b.duplicate().order(ByteOrder.BIG_ENDIAN);
            int type = bigEndian.getInt(pos);
            if (type == 0x0A0D0D0A) {
                b.order(bigEndian.getInt(pos + 8) == 0x1A2B3C4D ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
                linkTypes.clear();
                interfaces = 0;
            } else {
                type = b.getInt(pos);
            }
            int length = b.getInt(pos + 4);
            if (length < 12 || pos + length > b.limit()) {
                break;
            }
            if (type == 1) { // Interface Description Block
                linkTypes.put(interfaces++, b.getShort(pos + 8) & 0xFFFF);
            } else if (type == 6) { // Enhanced Packet Block
                int iface = b.getInt(pos + 8);
                int captured = b.getInt(pos + 20);
                frame++;
                if (captured >= 0 && 28 + captured <= length) {
                    link(linkTypes.getOrDefault(iface, 1), Arrays.copyOfRange(b.array(), pos + 28, pos + 28 + captured),
                            frame, out);
                }
            } else if (type == 3) { // Simple Packet Block: interface 0, captured = block length - 16
                frame++;
                int captured = length - 16;
                link(linkTypes.getOrDefault(0, 1), Arrays.copyOfRange(b.array(), pos + 12, pos + 12 + captured),
                        frame, out);
            }
            pos += length;
        }
        return out;
    }

    private static void link(int linkType, byte[] f, int frame, List<Datagram> out) {
        ByteBuffer p = ByteBuffer.wrap(f);
        switch (linkType) {
            case 0 -> { // BSD loopback: a 4-octet address family, then IP (the version nibble tells which)
                if (f.length >= 4) {
                    ip(p, 4, frame, out);
                }
            }
            case 1 -> {
                int pos = 12;
                while (pos + 2 <= f.length) {
                    int etherType = p.getShort(pos) & 0xFFFF;
                    if (etherType == 0x8100 || etherType == 0x88A8) {
                        pos += 4;
                        continue;
                    }
                    if (etherType == 0x0800 || etherType == 0x86DD) {
                        ip(p, pos + 2, frame, out);
                    }
                    return;
                }
            }
            case 12, 101, 228, 229 -> ip(p, 0, frame, out);
            case 113 -> {
                if (f.length >= 16) {
                    ip(p, 16, frame, out);
                }
            }
            case 276 -> {
                if (f.length >= 20) {
                    ip(p, 20, frame, out);
                }
            }
            default -> {
                // not a link type tests need
            }
        }
    }

    private static void ip(ByteBuffer p, int pos, int frame, List<Datagram> out) {
        if (pos >= p.limit()) {
            return;
        }
        int version = (p.get(pos) & 0xFF) >>> 4;
        if (version == 4) {
            if (pos + 20 > p.limit()) {
                return;
            }
            int headerLength = (p.get(pos) & 0x0F) * 4;
            int total = p.getShort(pos + 2) & 0xFFFF;
            int fragment = p.getShort(pos + 6) & 0x3FFF; // MF flag and fragment offset
            if (fragment != 0 || (p.get(pos + 9) & 0xFF) != 17) {
                return;
            }
            int end = Math.min(p.limit(), pos + total);
            udp(p, pos + headerLength, end, address(p, pos + 12, 4), address(p, pos + 16, 4), frame, out);
        } else if (version == 6) {
            if (pos + 40 > p.limit()) {
                return;
            }
            int payloadLength = p.getShort(pos + 4) & 0xFFFF;
            int next = p.get(pos + 6) & 0xFF;
            int end = Math.min(p.limit(), pos + 40 + payloadLength);
            int at = pos + 40;
            while ((next == 0 || next == 43 || next == 60) && at + 8 <= end) {
                next = p.get(at) & 0xFF;
                at += ((p.get(at + 1) & 0xFF) + 1) * 8;
            }
            if (next == 17) {
                udp(p, at, end, address(p, pos + 8, 16), address(p, pos + 24, 16), frame, out);
            }
        }
    }

    private static void udp(ByteBuffer p, int pos, int end, String src, String dst, int frame, List<Datagram> out) {
        if (pos + 8 > end) {
            return;
        }
        int srcPort = p.getShort(pos) & 0xFFFF;
        int dstPort = p.getShort(pos + 2) & 0xFFFF;
        int length = p.getShort(pos + 4) & 0xFFFF;
        int payloadEnd = length >= 8 ? Math.min(end, pos + length) : end;
        out.add(new Datagram(frame, src, srcPort, dst, dstPort, Arrays.copyOfRange(p.array(), pos + 8, payloadEnd)));
    }

    private static String address(ByteBuffer p, int pos, int length) {
        try {
            byte[] a = new byte[length];
            p.get(pos, a);
            return java.net.InetAddress.getByAddress(a).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
