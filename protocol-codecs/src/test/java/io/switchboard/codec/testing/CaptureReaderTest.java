package io.switchboard.codec.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.codec.gtp.GtpVectors;
import io.switchboard.codec.testing.CaptureReader.Datagram;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The test-only capture reader finds the datagrams tshark finds. */
class CaptureReaderTest {

    @Test
    void readsClassicPcapWithEthernet() {
        List<Datagram> datagrams = CaptureReader.resource("/pcaps/gtpv1/gtp_create_pdp_ctx.pcap");
        assertThat(datagrams).extracting(Datagram::destinationPort).contains(2123, 34273);
        Datagram request = datagrams.stream().filter(d -> d.destinationPort() == 2123).findFirst()
                .orElseThrow();
        // tshark: frame 2, udp.srcport 34273, payload starts 32 10 00 89
        assertThat(request.frame()).isEqualTo(2);
        assertThat(request.sourcePort()).isEqualTo(34273);
        assertThat(GtpVectors.hex(request.payload())).startsWith("3210008900000000130b");
        assertThat(request.payload()).hasSize(8 + 0x89);
    }

    @Test
    void readsPcapng() {
        List<Datagram> control =
                GtpVectors.capture("/pcaps/gtpv2/inbound_roaming_01_210505_130828-1.pcapng");
        // tshark: frames 39, 40, 207, 208 are GTPv2-C; echo requests on 2152 are GTPv1-U
        assertThat(control).extracting(Datagram::frame).contains(39, 40, 207, 208);
    }

    @Test
    void skipsWhatIsNotUdp() {
        // gtpv2.pcap frame 3 is a TCP SYN to port 2123
        assertThat(CaptureReader.resource("/pcaps/gtpv2/gtpv2.pcap"))
                .extracting(Datagram::frame).doesNotContain(3);
    }
}
