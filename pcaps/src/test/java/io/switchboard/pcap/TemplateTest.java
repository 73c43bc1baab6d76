package io.switchboard.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import java.net.InetAddress;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Load from a template: fresh transaction ids and varied keys, read back by the inspector's codecs. */
class TemplateTest {

    /** GTPv2 Create Session Request (32) without TEID, sequence 5, IMSI 001010123456789. */
    private static final byte[] CREATE_SESSION = {0x40, 32, 0, 16, 0, 0, 5, 0,
        1, 0, 8, 0, 0x00, 0x01, 0x01, 0x21, 0x43, 0x65, (byte) 0x87, (byte) 0xF9};

    private final SignalingInspector inspector = new SignalingInspector(NwgRelease.R1_0_V1_2_1, GtpV0TidOrder.GSM_09_60);

    private Map<String, Object> inspect(byte[] payload) throws Exception {
        return inspector.inspect(new UdpDatagram(1, InetAddress.getByName("192.0.2.1"), 2123,
                InetAddress.getByName("192.0.2.2"), 2123, payload, 1));
    }

    @Test
    void imsiAndSequenceVaryPerRequest() throws Exception {
        assertThat(inspect(CREATE_SESSION)).containsEntry("imsi", "001010123456789").doesNotContainKey("error");
        Template template = new Template(new Replay.Requests(2123, SignalingProtocol.GTPV2,
                List.of(new Replay.Request(1, Instant.EPOCH, CREATE_SESSION))),
                List.of(Template.Variation.parse("imsi:1000")), null);
        Set<Object> imsis = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            Map<String, Object> m = inspect(template.make(i));
            assertThat(m).doesNotContainKey("error").containsEntry("seq", i);
            imsis.add(m.get("imsi"));
        }
        assertThat(imsis).hasSize(1000).contains("001010123456000", "001010123456999");
    }

    @Test
    void gtpv1ImsiAndSequenceVaryPerRequest() throws Exception {
        // gtp_create_pdp_ctx.pcap: one Create PDP Context Request (tshark)
        Replay.Requests requests = Replay.read(java.nio.file.Path.of(
                "../switchboard-app/src/test/resources/pcaps/gtpv1/gtp_create_pdp_ctx.pcap"), 2123);
        assertThat(requests.protocol()).isEqualTo(SignalingProtocol.GTPV1);
        Template template = new Template(requests, List.of(Template.Variation.parse("imsi:100")), null);
        Set<Object> imsis = new HashSet<>();
        for (int i = 65_530; i < 65_730; i++) {
            Map<String, Object> m = inspect(template.make(i));
            assertThat(m).doesNotContainKey("error").containsEntry("seq", i & 0xFFFF).containsEntry("type", 16);
            imsis.add(m.get("imsi"));
        }
        assertThat(imsis).hasSize(100);
    }

    @Test
    void r6MsidAndTransactionIdVaryPerRequest() throws Exception {
        // r6-crafted-v1.2.x.pcap: MS_PreAttachment_Req frames 1 and 4, MSID 0a:1b:2c:3d:4e:5f (tshark)
        Replay.Requests all = Replay.read(java.nio.file.Path.of(
                "../switchboard-app/src/test/resources/pcaps/r6/r6-crafted-v1.2.x.pcap"), 2231);
        assertThat(all.protocol()).isEqualTo(SignalingProtocol.R6);
        Replay.Requests requests = new Replay.Requests(2231, all.protocol(), all.requests().subList(0, 1));
        Template template = new Template(requests, List.of(Template.Variation.parse("msid:1000")), null);
        Set<Object> msids = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            Map<String, Object> m = inspector.inspect(new UdpDatagram(1, InetAddress.getByName("10.0.0.1"), 2231,
                    InetAddress.getByName("10.0.0.2"), 2231, template.make(i), 1));
            assertThat(m).doesNotContainKey("error").containsEntry("transaction_id", i & 0xFFFF);
            assertThat((String) m.get("msid")).startsWith("0a:1b:2c:3d:");
            msids.add(m.get("msid"));
        }
        // 1000 values need 10 bits: the low 10 bits of the MSID change, the rest stays.
        assertThat(msids).hasSize(1000).contains("0a:1b:2c:3d:4c:00", "0a:1b:2c:3d:4f:e7");
    }

    @Test
    void mobileIpIdentificationIsFreshAndTheHomeAddressOrNaiVaries() throws Exception {
        Template byAddress = new Template(mip(new byte[] {10, 1, 0, 0}), List.of(Template.Variation.parse("msid:300")),
                null);
        Set<Object> homes = new HashSet<>();
        Set<Object> ids = new HashSet<>();
        for (int i = 0; i < 600; i++) {
            Map<String, Object> m = inspectMip(byAddress.make(i));
            homes.add(m.get("home_address"));
            ids.add(m.get("identification"));
            assertThat(m).containsEntry("nai", "mn0000@example.net");
        }
        assertThat(homes).hasSize(300).contains("10.1.0.0", "10.1.1.43");
        assertThat(ids).hasSize(600);
        Template byNai = new Template(mip(new byte[4]), List.of(Template.Variation.parse("msid:50")), null);
        assertThat(inspectMip(byNai.make(49))).containsEntry("nai", "mn0049@example.net")
                .containsEntry("home_address", "0.0.0.0");
    }

    @Test
    void framedIpAndSequenceVary() throws Exception {
        // Accounting-Request (4), Framed-IP-Address 192.0.2.77 (RFC 2865 §5.8)
        byte[] acct = new byte[20 + 6];
        acct[0] = 4;
        acct[3] = (byte) acct.length;
        acct[20] = 8;
        acct[21] = 6;
        acct[22] = (byte) 192;
        acct[24] = 2;
        acct[25] = 77;
        Template template = new Template(new Replay.Requests(1813, SignalingProtocol.RADIUS,
                List.of(new Replay.Request(1, Instant.EPOCH, acct))),
                List.of(Template.Variation.parse("framed-ip:256"), Template.Variation.parse("sequence:4")),
                "testing123".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Map<String, Object> m = inspector.inspect(new UdpDatagram(1, InetAddress.getByName("192.0.2.1"), 40000,
                InetAddress.getByName("192.0.2.2"), 1813, template.make(301), 1));
        assertThat(m).containsEntry("framed_ip", "192.0.2.45").containsEntry("id", 1); // 301 mod 256, 301 mod 4
    }

    /** A Registration Request (RFC 5944 §3.3) with the given home address and an MN-NAI extension (RFC 2794). */
    private static Replay.Requests mip(byte[] home) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24 + 2 + 18);
        b.put((byte) 1).put((byte) 0).putShort((short) 1800).put(home).put(new byte[] {10, 9, 0, 1})
                .put(new byte[] {10, 8, 0, 1}).putLong(0x0123456700000000L);
        b.put((byte) 131).put((byte) 18).put("mn0000@example.net".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        return new Replay.Requests(434, SignalingProtocol.MIP, List.of(new Replay.Request(1, Instant.EPOCH, b.array())));
    }

    private Map<String, Object> inspectMip(byte[] payload) throws Exception {
        Map<String, Object> m = inspector.inspect(new UdpDatagram(1, InetAddress.getByName("10.8.0.1"), 434,
                InetAddress.getByName("10.9.0.1"), 434, payload, 1));
        assertThat(m).doesNotContainKey("error");
        return m;
    }

    @Test
    void variationsThatCannotApplyAreRefusedUpFront() {
        assertThatThrownBy(() -> Template.Variation.parse("teid:3")).hasMessageContaining("can vary");
        assertThatThrownBy(() -> new Template(new Replay.Requests(2123, SignalingProtocol.GTPV2,
                List.of(new Replay.Request(1, Instant.EPOCH, CREATE_SESSION))),
                List.of(Template.Variation.parse("msid:10")), null)).hasMessageContaining("does not apply");
        assertThatThrownBy(() -> Template.Variation.parse("imsi")).hasMessageContaining("FIELD:K");
        assertThatThrownBy(() -> new Template(new Replay.Requests(2123, SignalingProtocol.GTPV2,
                List.of(new Replay.Request(1, Instant.EPOCH, CREATE_SESSION))),
                List.of(Template.Variation.parse("username:10")), null)).hasMessageContaining("does not apply");
    }
}
