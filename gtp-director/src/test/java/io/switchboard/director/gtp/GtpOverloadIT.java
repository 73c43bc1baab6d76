package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.OverloadConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.VirtualServerConfig;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code gtp-inspect} director admitting one new session a second (a burst of two): the creates past
 * it are answered by the director itself with "No resources available" (GTPv1 199, GTPv2 73) toward the
 * requester's own TEID — its TEID Control Plane, its Sender F-TEID — as tshark reads them, while the
 * Update and Modify Bearer requests of the admitted sessions all reach the PGW and are answered.
 */
class GtpOverloadIT {

    @TempDir
    Path dir;

    private static byte[] exchange(DatagramSocket sgsn, InetSocketAddress vip, byte[] request) throws Exception {
        sgsn.send(new DatagramPacket(request, request.length, vip));
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            sgsn.receive(in);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer to message type " + request[1], e);
        }
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    private static long headerTeid(byte[] message) {
        return ByteBuffer.wrap(message).getInt(4) & 0xFFFF_FFFFL;
    }

    @Test
    void createsPastTheRateAreRefusedToTheRequestersTeidSessionsGoOn() throws Exception {
        GtpResponder pgw = new GtpResponder();
        Map<String, List<GtpResponder>> farms = Map.of("pgw", List.of(pgw));
        VirtualServerConfig plain = GtpTestBed.server("gtp-c", new InetSocketAddress("127.0.0.1", 0), "gtp-inspect",
                "pgw", GtpOptions.DEFAULT);
        VirtualServerConfig vs = new VirtualServerConfig(plain.name(), plain.listen(), plain.service(), plain.farm(),
                plain.sticky(), plain.responseTimeout(), plain.idle(), plain.maxDatagram(), true, plain.options(),
                new OverloadConfig(1, 0, 0, 20, Duration.ofSeconds(2)));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Map<String, VirtualServerConfig> servers = new LinkedHashMap<>(Map.of("gtp-c", vs));
        try (GtpTestBed bed = GtpTestBed.start(farms, Map.of("pgw", GtpTestBed.farm("pgw", PredictorKind.ROUNDROBIN,
                Duration.ofMinutes(10), List.of(pgw))), servers, new GtpInspectService(), registry);
                DatagramSocket sgsn = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            sgsn.setSoTimeout(5000);
            InetSocketAddress vip = bed.vip("gtp-c");

            // The burst: one session of each version, admitted.
            byte[] v1Accepted = exchange(sgsn, vip, GtpMessages.v1CreateRequest("262010000000001", 1, 5));
            assertThat(v1Accepted[13] & 0xff).as("v1 cause").isEqualTo(128);
            long v1Session = GtpMessages.senderTeid(v1Accepted);
            byte[] v2Accepted = exchange(sgsn, vip, GtpMessages.v2CreateRequest("262010000000002", 2));
            assertThat(v2Accepted[16] & 0xff).as("v2 cause").isEqualTo(16);
            long v2Session = GtpMessages.senderTeid(v2Accepted);

            // New subscribers faster than one a second: refused by the director, each to its requester's TEID.
            List<byte[]> refusals = new ArrayList<>();
            List<Long> expectedTeids = new ArrayList<>();
            int createsAtPgw = pgw.received.size();
            for (int i = 0; i < 4; i++) {
                byte[] v1 = exchange(sgsn, vip, GtpMessages.v1CreateRequest(String.format("2620100000001%02d", i),
                        10 + i, 5 + i));
                if ((v1[13] & 0xff) != 128) {
                    refusals.add(v1);
                    expectedTeids.add(0x2000L + 5 + i);
                }
                byte[] v2 = exchange(sgsn, vip, GtpMessages.v2CreateRequest(String.format("2620100000002%02d", i),
                        20 + i, 0x3100 + i, new byte[] {127, 0, 0, 1}, null));
                if ((v2[16] & 0xff) != 16) {
                    refusals.add(v2);
                    expectedTeids.add(0x3100L + i);
                }
            }
            assertThat(refusals).as("at most one more admitted in the second the loop takes").hasSizeGreaterThanOrEqualTo(6);
            assertThat(pgw.received.size() - createsAtPgw).isEqualTo(8 - refusals.size());
            for (int i = 0; i < refusals.size(); i++) {
                byte[] refusal = refusals.get(i);
                boolean v2 = (refusal[0] & 0xe0) == 0x40;
                assertThat(refusal[1] & 0xff).isEqualTo(v2 ? 33 : 17);
                assertThat(refusal[v2 ? 16 : 13] & 0xff).isEqualTo(v2 ? 73 : 199);
                assertThat(headerTeid(refusal)).as("never TEID 0 while the F-TEID is known")
                        .isEqualTo(expectedTeids.get(i));
            }
            double refused = registry.get("switchboard.overload.refused").tag("work", "new").tag("limit", "new-rate")
                    .counter().count();
            assertThat(refused).isEqualTo(refusals.size());

            // The admitted sessions' own requests are session work: all served while creates are refused.
            for (int i = 0; i < 5; i++) {
                byte[] update = exchange(sgsn, vip, GtpMessages.v1UpdateRequest(v1Session, 100 + i));
                assertThat(update[1] & 0xff).as("Update PDP Context Response").isEqualTo(19);
                assertThat(update[13] & 0xff).isEqualTo(128);
                byte[] modify = exchange(sgsn, vip, GtpMessages.v2(34, v2Session, 200 + i, new byte[0]));
                assertThat(modify[1] & 0xff).as("Modify Bearer Response").isEqualTo(35);
                assertThat(modify[16] & 0xff).isEqualTo(16);
            }
            assertThat(registry.get("switchboard.overload.refused").tag("work", "session").counter().count()).isZero();

            Assumptions.assumeTrue(Tshark.available(), "tshark is not installed: the refusals were read by the tests' own offsets only");
            Path pcap = dir.resolve("refusals.pcap");
            Tshark.writePcap(pcap, refusals);
            List<String> lines = Tshark.fields(pcap, "gtp.message", "gtp.cause", "gtp.teid", "gtpv2.message_type",
                    "gtpv2.cause", "gtpv2.teid");
            assertThat(lines).hasSize(refusals.size());
            for (int i = 0; i < lines.size(); i++) {
                boolean v2 = (refusals.get(i)[0] & 0xe0) == 0x40;
                String teid = String.format("0x%08x", expectedTeids.get(i));
                assertThat(lines.get(i)).as("tshark's reading").isEqualTo(v2 ? "|||33|73|" + teid : "0x11|199|" + teid + "|||");
            }
        }
    }
}
