package io.switchboard.codec.gtp;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test-only reader of UDP payloads from a capture, so tests need no pcap library: classic pcap
 * (24-octet global header, 16-octet record headers, either byte order) and pcapng (SHB, IDB, EPB;
 * other blocks skipped); link types Ethernet (1, with 802.1Q tags), raw IP (101) and Linux cooked
 * (113); IPv4 (unfragmented datagrams only) and IPv6 (no extension headers) carrying UDP.
 */
public final class PcapUdpPayloads {

    /** One UDP datagram: its 1-based frame number in the capture, ports and payload. */
    public record Datagram(int frame, int sourcePort, int destinationPort, byte[] payload) {
    }

    private static final int LINKTYPE_ETHERNET = 1;
    private static final int LINKTYPE_RAW = 101;
    private static final int LINKTYPE_LINUX_SLL = 113;

    private PcapUdpPayloads() {
    }

    /** Reads a capture from the test classpath, e.g. {@code /pcaps/gtpv1/gtp_create_pdp_ctx.pcap}. */
    public static List<Datagram> fromResource(String name) {
        try (InputStream in = PcapUdpPayloads.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return read(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<Datagram> read(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        int magic = b.order(ByteOrder.BIG_ENDIAN).getInt(0);
        List<Datagram> out = new ArrayList<>();
        if (magic == 0x0A0D0D0A) {
            readPcapng(b, out);
        } else {
            readPcap(b, out);
        }
        return out;
    }

    private static void readPcap(ByteBuffer b, List<Datagram> out) {
        int magic = b.order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        if (magic != 0xA1B2C3D4 && magic != 0xA1B23C4D) {
            b.order(ByteOrder.BIG_ENDIAN);
        }
        int linkType = b.getInt(20) & 0x0FFFFFFF;
        int pos = 24;
        int frame = 0;
        while (pos + 16 <= b.limit()) {
            int captured = b.getInt(pos + 8);
            pos += 16;
            frame++;
            frame(Arrays.copyOfRange(b.array(), pos, pos + captured), linkType, frame, out);
            pos += captured;
        }
    }

    private static void readPcapng(ByteBuffer b, List<Datagram> out) {
        List<Integer> linkTypes = new ArrayList<>();
        int pos = 0;
        int frame = 0;
        while (pos + 12 <= b.limit()) {
            int type = b.getInt(pos); // the section header type reads the same in both orders
            if (type == 0x0A0D0D0A) {
                // The byte-order magic decides how this section's blocks are read.
                int bom = b.order(ByteOrder.LITTLE_ENDIAN).getInt(pos + 8);
                b.order(bom == 0x1A2B3C4D ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
                linkTypes.clear();
            }
            int length = b.getInt(pos + 4);
            if (type == 1) {
                linkTypes.add(b.getShort(pos + 8) & 0xFFFF);
            } else if (type == 6) {
                frame++;
                int interfaceId = b.getInt(pos + 8);
                int captured = b.getInt(pos + 20);
                frame(Arrays.copyOfRange(b.array(), pos + 28, pos + 28 + captured), linkTypes.get(interfaceId), frame,
                        out);
            } else if (type == 3) {
                frame++;
            }
            pos += length;
        }
    }

    private static void frame(byte[] f, int linkType, int frame, List<Datagram> out) {
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.BIG_ENDIAN);
        int pos;
        int etherType;
        switch (linkType) {
            case LINKTYPE_ETHERNET:
                pos = 12;
                etherType = b.getShort(pos) & 0xFFFF;
                while (etherType == 0x8100 || etherType == 0x88A8) {
                    pos += 4;
                    etherType = b.getShort(pos) & 0xFFFF;
                }
                pos += 2;
                break;
            case LINKTYPE_LINUX_SLL:
                etherType = b.getShort(14) & 0xFFFF;
                pos = 16;
                break;
            case LINKTYPE_RAW:
                pos = 0;
                etherType = (f[0] >> 4) == 6 ? 0x86DD : 0x0800;
                break;
            default:
                return;
        }
        int udp;
        if (etherType == 0x0800) {
            int ihl = (f[pos] & 0x0F) * 4;
            int fragment = b.getShort(pos + 6) & 0x3FFF; // MF flag and fragment offset
            if (f[pos + 9] != 17 || fragment != 0) {
                return;
            }
            udp = pos + ihl;
        } else if (etherType == 0x86DD) {
            if (f[pos + 6] != 17) {
                return;
            }
            udp = pos + 40;
        } else {
            return;
        }
        int udpLength = b.getShort(udp + 4) & 0xFFFF;
        int end = Math.min(udp + udpLength, f.length);
        out.add(new Datagram(frame, b.getShort(udp) & 0xFFFF, b.getShort(udp + 2) & 0xFFFF,
                Arrays.copyOfRange(f, udp + 8, end)));
    }
}
