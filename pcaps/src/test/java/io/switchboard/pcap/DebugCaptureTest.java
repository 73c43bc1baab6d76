package io.switchboard.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The debug capture's writer: rotation, the bound on kept files, and exact accounting of drops. */
class DebugCaptureTest {

    @TempDir
    Path dir;

    private static final InetSocketAddress CLIENT = new InetSocketAddress("192.0.2.7", 40000);
    private static final InetSocketAddress VIP = new InetSocketAddress("192.0.2.1", 2123);

    @Test
    void filesRotateAtTheirSizeAndOnlyTheNewestAreKept() throws Exception {
        ByteBuf datagram = Unpooled.wrappedBuffer(new byte[1000]);
        DebugCapture capture = new DebugCapture("gtp-c", dir, 10_000, 3, 1 << 16, new SimpleMeterRegistry());
        for (int i = 0; i < 100; i++) {
            capture.tap(CLIENT, VIP, datagram);
        }
        capture.close();
        // 100 frames of ~1.1 kB in files closed after 10 kB: 10 or 11 files made, the 3 newest kept.
        List<Path> kept = capture.files();
        assertThat(kept).hasSize(3).allSatisfy(p -> assertThat(p).exists());
        try (var listing = Files.list(dir)) {
            assertThat(listing.count()).isEqualTo(3);
        }
        assertThat(kept.get(0).getFileName().toString()).matches("gtp-c-\\d{8}T\\d{6}Z-\\d+\\.pcapng");
        assertThat(capture.capturedCount() + capture.droppedCount()).isEqualTo(100);
        assertThat(datagram.readerIndex()).isZero(); // borrowed, not consumed
    }

    @Test
    void everyOfferedDatagramIsWrittenOrCountedAsDropped() throws Exception {
        DebugCapture capture = new DebugCapture("radius", dir, 64L << 20, 2, 1024, new SimpleMeterRegistry());
        ByteBuf datagram = Unpooled.wrappedBuffer("an Access-Request".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        int offered = 50_000;
        for (int i = 0; i < offered; i++) {
            capture.tap(CLIENT, VIP, datagram);
        }
        capture.close();
        assertThat(capture.capturedCount() + capture.droppedCount()).isEqualTo(offered);
        try (CaptureFile file = CaptureFile.open(capture.files().get(0))) {
            int frames = 0;
            UdpExtractor extractor = new UdpExtractor();
            int[] udp = {0};
            InetAddress vip = VIP.getAddress();
            for (CaptureFrame frame = file.next(); frame != null; frame = file.next()) {
                frames++;
                extractor.accept(frame, e -> {
                    if (e instanceof UdpDatagram d && d.destination().equals(vip)) {
                        udp[0]++;
                    }
                });
            }
            assertThat(frames).isEqualTo(capture.capturedCount());
            assertThat(udp[0]).isEqualTo(frames);
        }
    }

    @Test
    void aSocketOnTheIpv6WildcardTalkingIpv4IsWrittenAsIpv4() throws Exception {
        InetAddress[] ends = DebugCapture.oneFamily(InetAddress.getByName("::"), InetAddress.getByName("10.0.0.2"));
        assertThat(ends[0].getHostAddress()).isEqualTo("0.0.0.0");
        assertThat(ends[1].getHostAddress()).isEqualTo("10.0.0.2");
        ends = DebugCapture.oneFamily(InetAddress.getByName("2001:db8::1"), InetAddress.getByName("10.0.0.2"));
        assertThat(ends[1]).isInstanceOf(java.net.Inet6Address.class);
    }
}
