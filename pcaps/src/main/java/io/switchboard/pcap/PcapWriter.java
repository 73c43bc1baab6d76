package io.switchboard.pcap;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a classic pcap file, or a pcapng file (one section, one Ethernet interface; {@link
 * #createPcapng}), with microsecond timestamps, little-endian, of UDP datagrams over IPv4 or IPv6,
 * optionally behind an 802.1Q tag or cut into IPv4 fragments.
 * For tests and tools that need a capture of messages built with the project's encoders, replay's
 * {@code --write} and the director's debug capture; tshark, Wireshark and libpcap read what it writes. UDP checksums are left 0 (allowed for IPv4, RFC 768; not verified by tshark by
 * default); IPv4 header checksums are computed.
 */
public final class PcapWriter implements AutoCloseable {

    private static final int LINKTYPE_ETHERNET = 1;
    private static final byte[] SOURCE_MAC = {0x02, 0, 0, 0, 0, 0x01};
    private static final byte[] DESTINATION_MAC = {0x02, 0, 0, 0, 0, 0x02};

    private final OutputStream out;
    private final boolean pcapng;
    private long micros = 1_700_000_000_000_000L;
    private int ipIdentification = 1;
    private long bytes;

    private PcapWriter(OutputStream out, boolean pcapng) throws IOException {
        this.out = out;
        this.pcapng = pcapng;
        if (pcapng) {
            // Section Header Block (byte-order magic, version 1.0, section length unknown) and one
            // Interface Description Block: pcapng draft-ietf-opsawg-pcapng §4.1, §4.2.
            ByteBuffer header = ByteBuffer.allocate(28 + 20).order(ByteOrder.LITTLE_ENDIAN);
            header.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0)
                    .putLong(-1).putInt(28);
            header.putInt(1).putInt(20).putShort((short) LINKTYPE_ETHERNET).putShort((short) 0).putInt(0).putInt(20);
            write(header.array());
        } else {
            ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            header.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535)
                    .putInt(LINKTYPE_ETHERNET);
            write(header.array());
        }
    }

    public static PcapWriter create(Path file) throws IOException {
        return new PcapWriter(new BufferedOutputStream(Files.newOutputStream(file)), false);
    }

    /** A pcapng file. */
    public static PcapWriter createPcapng(Path file) throws IOException {
        return new PcapWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), true);
    }

    /** How many bytes the file holds so far (buffered ones included). */
    public long bytesWritten() {
        return bytes;
    }

    /** The timestamp of the next frame in microseconds since the epoch. */
    public PcapWriter timeMicros(long epochMicros) {
        micros = epochMicros;
        return this;
    }

    /** Writes what is buffered to the file. */
    public void flush() throws IOException {
        out.flush();
    }

    private void write(byte[] b) throws IOException {
        out.write(b);
        bytes += b.length;
    }

    /** The timestamp of the next frame (by default each frame is 1 ms after the previous one). */
    public PcapWriter time(java.time.Instant at) {
        micros = at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000;
        return this;
    }

    /** One frame carrying one UDP datagram. */
    public PcapWriter udp(InetAddress source, int sourcePort, InetAddress destination, int destinationPort,
                          byte[] payload) throws IOException {
        return udp(source, sourcePort, destination, destinationPort, payload, -1);
    }

    /** One frame carrying one UDP datagram behind an 802.1Q tag with {@code vlan} (-1: untagged). */
    public PcapWriter udp(InetAddress source, int sourcePort, InetAddress destination, int destinationPort,
                          byte[] payload, int vlan) throws IOException {
        byte[] udp = udpSegment(sourcePort, destinationPort, payload);
        if (source instanceof Inet6Address) {
            frame(vlan, 0x86DD, ipv6(source, destination, udp));
        } else {
            frame(vlan, 0x0800, ipv4(source, destination, udp, ipIdentification++, 0, false));
        }
        return this;
    }

    /**
     * The UDP datagram cut into IPv4 fragments of at most {@code fragmentSize} octets of IP payload
     * (rounded down to a multiple of 8), one frame each, in order.
     */
    public PcapWriter udpFragmented(Inet4Address source, int sourcePort, Inet4Address destination,
                                    int destinationPort, byte[] payload, int fragmentSize) throws IOException {
        byte[] udp = udpSegment(sourcePort, destinationPort, payload);
        int step = Math.max(8, fragmentSize / 8 * 8);
        int id = ipIdentification++;
        for (int offset = 0; offset < udp.length; offset += step) {
            int end = Math.min(udp.length, offset + step);
            byte[] piece = java.util.Arrays.copyOfRange(udp, offset, end);
            frame(-1, 0x0800, ipv4(source, destination, piece, id, offset / 8, end < udp.length));
        }
        return this;
    }

    private static byte[] udpSegment(int sourcePort, int destinationPort, byte[] payload) {
        ByteBuffer udp = ByteBuffer.allocate(8 + payload.length);
        udp.putShort((short) sourcePort).putShort((short) destinationPort).putShort((short) (8 + payload.length))
                .putShort((short) 0).put(payload);
        return udp.array();
    }

    private static byte[] ipv4(InetAddress source, InetAddress destination, byte[] payload, int id,
                               int fragmentOffset, boolean moreFragments) {
        ByteBuffer ip = ByteBuffer.allocate(20 + payload.length);
        ip.put((byte) 0x45).put((byte) 0).putShort((short) (20 + payload.length)).putShort((short) id)
                .putShort((short) ((moreFragments ? 0x2000 : 0) | fragmentOffset)).put((byte) 64).put((byte) 17)
                .putShort((short) 0).put(source.getAddress()).put(destination.getAddress()).put(payload);
        byte[] bytes = ip.array();
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += ((bytes[i] & 0xFF) << 8) | (bytes[i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        int checksum = ~sum & 0xFFFF;
        bytes[10] = (byte) (checksum >>> 8);
        bytes[11] = (byte) checksum;
        return bytes;
    }

    private static byte[] ipv6(InetAddress source, InetAddress destination, byte[] payload) {
        ByteBuffer ip = ByteBuffer.allocate(40 + payload.length);
        ip.putInt(0x60000000).putShort((short) payload.length).put((byte) 17).put((byte) 64)
                .put(source.getAddress()).put(destination.getAddress()).put(payload);
        return ip.array();
    }

    private void frame(int vlan, int etherType, byte[] ip) throws IOException {
        int linkHeader = vlan >= 0 ? 18 : 14;
        ByteBuffer frame = ByteBuffer.allocate(linkHeader + ip.length);
        frame.put(DESTINATION_MAC).put(SOURCE_MAC);
        if (vlan >= 0) {
            frame.putShort((short) 0x8100).putShort((short) (vlan & 0x0FFF));
        }
        frame.putShort((short) etherType).put(ip);
        int length = frame.capacity();
        if (pcapng) {
            enhancedPacket(frame.array());
        } else {
            ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt((int) (micros / 1_000_000)).putInt((int) (micros % 1_000_000)).putInt(length).putInt(length);
            write(record.array());
            write(frame.array());
        }
        micros += 1000;
    }

    /** An Enhanced Packet Block on interface 0, without options (pcapng §4.3). */
    private void enhancedPacket(byte[] frame) throws IOException {
        int total = 28 + pad(frame.length) + 4;
        ByteBuffer block = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        block.putInt(6).putInt(total).putInt(0).putInt((int) (micros >>> 32)).putInt((int) micros)
                .putInt(frame.length).putInt(frame.length).put(frame);
        block.position(total - 4);
        block.putInt(total);
        write(block.array());
    }

    private static int pad(int length) {
        return (length + 3) & ~3;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
