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
