package io.switchboard.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Link layers, VLAN tags, IPv6 and IPv4 fragments, read through pcap4j and the fallbacks. */
class UdpExtractorTest {

    @TempDir
    Path dir;

    private static final byte[] PAYLOAD = "0123456789abcdefghijklmnopqrstuvwxyz".getBytes();

    @Test
    void readsEthernetVlanIpv6AndReassemblesFragments() throws IOException {
        Path file = dir.resolve("w.pcap");
        InetAddress a = InetAddress.getByName("192.0.2.1");
        InetAddress b = InetAddress.getByName("192.0.2.2");
        try (PcapWriter w = PcapWriter.create(file)) {
            w.udp(a, 1000, b, 1812, PAYLOAD);
            w.udp(a, 1001, b, 1813, PAYLOAD, 7);
            w.udp(InetAddress.getByName("2001:db8::1"), 1002, InetAddress.getByName("2001:db8::2"), 2123, PAYLOAD);
            w.udpFragmented((Inet4Address) a, 1003, (Inet4Address) b, 434, PAYLOAD, 16);
        }
        List<CaptureEvent> events = UdpExtractor.extract(CaptureFile.readAll(file));
        assertThat(events).hasSize(4).allMatch(e -> e instanceof UdpDatagram);
        UdpDatagram reassembled = (UdpDatagram) events.get(3);
        assertThat(reassembled.frame()).isEqualTo(6); // 44 octets of UDP in 16-octet fragments: frames 4, 5, 6
        assertThat(reassembled.fragments()).isEqualTo(3);
        assertThat(reassembled.payload()).isEqualTo(PAYLOAD);
        assertThat(((UdpDatagram) events.get(1)).destinationPort()).isEqualTo(1813);
        assertThat(((UdpDatagram) events.get(2)).sourceText()).isEqualTo("[2001:db8::1]:1002");
        events.forEach(e -> assertThat(((UdpDatagram) e).payload()).isEqualTo(PAYLOAD));
    }

    @Test
    void reportsFragmentsThatNeverComplete() throws IOException {
        Path file = dir.resolve("f.pcap");
        try (PcapWriter w = PcapWriter.create(file)) {
            w.udpFragmented((Inet4Address) InetAddress.getByName("192.0.2.1"), 1, (Inet4Address) InetAddress
                    .getByName("192.0.2.2"), 2123, PAYLOAD, 16);
        }
        List<CaptureFrame> frames = CaptureFile.readAll(file);
        List<CaptureEvent> events = UdpExtractor.extract(frames.subList(0, 2)); // the last fragment lost
        assertThat(events).singleElement().isInstanceOfSatisfying(CaptureEvent.Unreadable.class,
                u -> assertThat(u.reason()).contains("not reassembled"));
    }

    @Test
    void readsLinuxCookedSll2AndLoopback() throws IOException {
        byte[] ip = ipv4Udp();
        byte[] sll2 = ByteBuffer.allocate(20 + ip.length).putShort((short) 0x0800).put(new byte[18]).put(ip).array();
        byte[] loopback = ByteBuffer.allocate(4 + ip.length).order(ByteOrder.LITTLE_ENDIAN).putInt(2).put(ip).array();
        for (Object[] c : new Object[][] {{276, sll2}, {0, loopback}}) {
            Path file = dir.resolve("l" + c[0] + ".pcap");
            Files.write(file, pcap((int) c[0], (byte[]) c[1]));
            List<CaptureEvent> events = UdpExtractor.extract(CaptureFile.readAll(file));
            assertThat(events).as("link type " + c[0]).singleElement().isInstanceOfSatisfying(UdpDatagram.class,
                    d -> assertThat(d.payload()).isEqualTo(PAYLOAD));
        }
    }

    @Test
    void ipv6ExtensionHeadersAreSkippedFragmentsReportedAndQuotedDatagramsIgnored() throws IOException {
        byte[] udp = udp(1812);
        byte[] hopByHop = ByteBuffer.allocate(8 + udp.length).put((byte) 17).put((byte) 0)
                .put(new byte[] {1, 4, 0, 0, 0, 0}).put(udp).array();
        byte[] fragment = ByteBuffer.allocate(8 + udp.length).put((byte) 17).put((byte) 0).putShort((short) 1)
                .putInt(99).put(udp).array();
        byte[] quoted = ipv6(17, udp);
        byte[] icmp = ByteBuffer.allocate(8 + quoted.length).put((byte) 1).put((byte) 4).putShort((short) 0).putInt(0)
                .put(quoted).array();
        List<byte[]> frames = List.of(ethernet(ipv6(0, hopByHop)), ethernet(ipv6(44, fragment)),
                ethernet(ipv6(58, icmp)));
        Path file = dir.resolve("v6.pcap");
        Files.write(file, pcap(1, frames));
        List<CaptureEvent> events = UdpExtractor.extract(CaptureFile.readAll(file));
        assertThat(events).hasSize(2);
        assertThat(events.get(0)).isInstanceOfSatisfying(UdpDatagram.class, d -> {
            assertThat(d.destinationPort()).isEqualTo(1812);
            assertThat(d.payload()).isEqualTo(PAYLOAD);
        });
        assertThat(events.get(1)).isInstanceOfSatisfying(CaptureEvent.Unreadable.class,
                u -> assertThat(u.frame()).isEqualTo(2));
    }

    private static byte[] udp(int port) {
        return ByteBuffer.allocate(8 + PAYLOAD.length).putShort((short) 5000).putShort((short) port)
                .putShort((short) (8 + PAYLOAD.length)).putShort((short) 0).put(PAYLOAD).array();
    }

    private static byte[] ipv6(int next, byte[] payload) {
        byte[] a = new byte[16];
        a[0] = 0x20;
        a[1] = 0x01;
        a[15] = 1;
        byte[] b = a.clone();
        b[15] = 2;
        return ByteBuffer.allocate(40 + payload.length).putInt(0x60000000).putShort((short) payload.length)
                .put((byte) next).put((byte) 64).put(a).put(b).put(payload).array();
    }

    private static byte[] ethernet(byte[] ip) {
        return ByteBuffer.allocate(14 + ip.length).put(new byte[12]).putShort((short) 0x86DD).put(ip).array();
    }

    @Test
    void recognisesTheSignalingPorts() {
        byte[] v2 = {0x48, 32};
        assertThat(SignalingProtocol.classify(40000, 2123, v2)).isEqualTo(SignalingProtocol.GTPV2);
        assertThat(SignalingProtocol.classify(2123, 40000, new byte[] {0x32, 16})).isEqualTo(SignalingProtocol.GTPV1);
        assertThat(SignalingProtocol.classify(3386, 3386, new byte[] {0x1E, 16})).isEqualTo(SignalingProtocol.GTPV0);
        assertThat(SignalingProtocol.classify(1700, 5000, v2)).isEqualTo(SignalingProtocol.RADIUS);
        assertThat(SignalingProtocol.classify(5000, 434, v2)).isEqualTo(SignalingProtocol.MIP);
        assertThat(SignalingProtocol.classify(2231, 5000, v2)).isEqualTo(SignalingProtocol.R6);
        assertThat(SignalingProtocol.classify(2152, 2152, v2)).isNull(); // GTP-U is not directed
    }

    private static byte[] ipv4Udp() {
        ByteBuffer b = ByteBuffer.allocate(28 + PAYLOAD.length);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (28 + PAYLOAD.length)).putShort((short) 1).putShort((short) 0)
                .put((byte) 64).put((byte) 17).putShort((short) 0).put(new byte[] {10, 0, 0, 1})
                .put(new byte[] {10, 0, 0, 2}).putShort((short) 1234).putShort((short) 1812)
                .putShort((short) (8 + PAYLOAD.length)).putShort((short) 0).put(PAYLOAD);
        return b.array();
    }

    private static byte[] pcap(int linkType, byte[] frame) {
        return pcap(linkType, List.of(frame));
    }

    private static byte[] pcap(int linkType, List<byte[]> frames) {
        int size = 24 + frames.stream().mapToInt(f -> 16 + f.length).sum();
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(linkType);
        for (byte[] frame : frames) {
            b.putInt(1).putInt(0).putInt(frame.length).putInt(frame.length).put(frame);
        }
        return b.array();
    }
}
