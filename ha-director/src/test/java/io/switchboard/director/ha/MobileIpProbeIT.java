package io.switchboard.director.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.mip.MipAuthenticators;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.director.testing.PcapFile;
import io.switchboard.director.testing.Tshark;
import io.vertx.core.Vertx;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Mobile IP probe against a stand-in home agent that checks the probe's authenticator. */
class MobileIpProbeIT {

    private static final byte[] KEY = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");

    private final Vertx vertx = Vertx.vertx();
    private final PcapFile capture = new PcapFile();
    private DatagramSocket agent;
    private volatile int code;

    @TempDir
    Path dir;

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Answers with {@link #code} when the MN-HA authenticator verifies, 131 (failed authentication) otherwise. */
    private InetSocketAddress startAgent() throws Exception {
        agent = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        Thread t = new Thread(() -> {
            while (!agent.isClosed()) {
                try {
                    DatagramPacket in = new DatagramPacket(new byte[512], 512);
                    agent.receive(in);
                    byte[] bytes = Arrays.copyOf(in.getData(), in.getLength());
                    capture.add((InetSocketAddress) in.getSocketAddress(),
                            new InetSocketAddress("127.0.0.1", agent.getLocalPort()), bytes);
                    MipHeaderView rrq = MipHeaderView.wrap(Unpooled.wrappedBuffer(bytes));
                    boolean valid = MipAuthenticators.verify(rrq,
                            rrq.findExtension(MipExtensionType.MN_HA_AUTHENTICATION.value()), KEY);
                    byte[] rrp = ByteBuffer.allocate(20).put((byte) 3).put((byte) (valid ? code : 131))
                            .putShort((short) 0).putInt(rrq.homeAddress()).putInt(rrq.homeAgent())
                            .putLong(0x7777777700000000L | (rrq.identification() & 0xFFFF_FFFFL)).array();
                    agent.send(new DatagramPacket(rrp, rrp.length, in.getSocketAddress()));
                } catch (Exception e) {
                    // closed or not Mobile IP
                }
            }
        }, "probe-home-agent");
        t.setDaemon(true);
        t.start();
        return new InetSocketAddress("127.0.0.1", agent.getLocalPort());
    }

    private static MobileIpCheck check(byte[] key, int expectCode) throws Exception {
        return new MobileIpCheck(InetAddress.getByName("10.99.255.1"),
                Optional.of(InetAddress.getByName("127.0.0.10")), Optional.of("probe@ha.example.net"), 4096, key,
                expectCode);
    }

    private static String outcome(MobileIpProbe probe, InetSocketAddress target) throws Exception {
        try {
            probe.check(target).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            return "passed";
        } catch (ExecutionException e) {
            return e.getCause().getMessage();
        }
    }

    @Test
    void aSignedDeregistrationPassesOnTheExpectedCodeAndFailsOnAnother() throws Exception {
        InetSocketAddress target = startAgent();
        Duration timeout = Duration.ofSeconds(2);
        code = 0;
        assertThat(outcome(new MobileIpProbe(vertx, check(KEY, 0), timeout), target)).isEqualTo("passed");
        assertThat(outcome(new MobileIpProbe(vertx, check(new byte[16], 0), timeout), target))
                .isEqualTo("Registration Reply code 131, expected 0");
        code = 130; // insufficient resources
        assertThat(outcome(new MobileIpProbe(vertx, check(KEY, 0), timeout), target))
                .isEqualTo("Registration Reply code 130, expected 0");
        agent.close();
        assertThat(outcome(new MobileIpProbe(vertx, check(KEY, 0), Duration.ofMillis(300)), target))
                .startsWith("no Registration Reply within");

        // tshark reads the probe's request as a deregistration of the probe mobile node.
        Path pcap = dir.resolve("mip-probe.pcap");
        capture.write(pcap);
        List<List<String>> rows = Tshark.fields(pcap, List.of("-d", "udp.port==" + target.getPort() + ",mip"),
                "mip.type", "mip.life", "mip.homeaddr", "mip.haaddr", "mip.coa", "mip.nai", "mip.auth.spi");
        assertThat(rows).hasSize(3).allSatisfy(row -> assertThat(row.subList(0, 6)).containsExactly(
                "1", "0", "10.99.255.1", "127.0.0.10", "10.99.255.1", "probe@ha.example.net"));
        assertThat(Long.decode(rows.get(0).get(6))).isEqualTo(4096);
    }

    @Test
    void theIdentificationIsTheNtpTimeOfDay() {
        long ntp = MobileIpProbe.ntpNow();
        long unixSeconds = (ntp >>> 32) - 2_208_988_800L;
        assertThat(unixSeconds).isBetween(System.currentTimeMillis() / 1000 - 2, System.currentTimeMillis() / 1000 + 2);
    }
}
