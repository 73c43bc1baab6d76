package io.switchboard.codec.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.CaptureReader;
import io.switchboard.codec.testing.CaptureReader.Datagram;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Real captures (see src/test/resources/pcaps/README.md). Expected values come from tshark 4.0.17, not
 * from this codec. The zeek and tcpdump captures were made with FreeRADIUS's default secret testing123.
 */
class RadiusCaptureTest {

    private static final Set<Integer> PORTS = Set.of(1812, 1813, 1645, 1646, 3799, 1700);
    private static final byte[] TESTING123 = "testing123".getBytes(StandardCharsets.US_ASCII);

    @ParameterizedTest
    @CsvSource({
        // file, RADIUS messages per tshark, frames tshark reports malformed
        "RADIUS-RFC3162.pcap, 1, ''",
        "RADIUS-RFC4675.pcap, 6, ''",
        "RADIUS-RFC5176-2.pcap, 1, ''",
        "RADIUS-RFC5176.pcap, 6, ''",
        "RADIUS-RFC5580.pcap, 1, ''",
        "RADIUS-port1700.pcap, 1, ''",
        "arkime_synthetic.pcap, 10, '419 486'",
        "radius.pcap, 4, ''",
        "radius.pcapng, 1, ''",
        "radius_3.pcap, 1, ''",
        "radius_localhost.pcap, 19, ''",
        "radius_rfc5447.pcap, 1, ''",
    })
    void everyRadiusDatagramDecodesAndReEncodesExactly(String file, int messages, String malformed) {
        List<Datagram> datagrams = radius("/pcaps/radius/" + file);
        assertThat(datagrams).hasSize(messages);
        Set<Integer> bad = new java.util.HashSet<>();
        for (String f : malformed.split(" ")) {
            if (!f.isBlank()) {
                bad.add(Integer.parseInt(f));
            }
        }
        for (Datagram d : datagrams) {
            ByteBuf in = Unpooled.wrappedBuffer(d.payload());
            ByteBuf out = Unpooled.buffer();
            try {
                if (bad.contains(d.frame())) {
                    assertThat(catchThrowable(() -> RadiusView.wrap(in))).as(d.toString())
                            .isInstanceOf(DecodeException.class);
                    continue;
                }
                RadiusView view = RadiusView.wrap(in);
                RadiusPacket.decode(in).encode(out);
                assertThat(ByteBufUtil.getBytes(out))
                        .as(d.toString()).isEqualTo(Arrays.copyOf(d.payload(), view.length()));
            } catch (DecodeException e) {
                throw new AssertionError(d + ": " + e.getMessage(), e);
            } finally {
                in.release();
                out.release();
            }
        }
    }

    @Test
    void readsTheSameKeysAsTshark() throws DecodeException {
        List<Datagram> zeek = radius("/pcaps/radius/radius.pcap");
        RadiusView request = view(zeek.get(0));
        assertThat(request.code()).isEqualTo(1);
        assertThat(request.identifier()).isEqualTo(5);
        assertThat(request.userName()).isEqualTo("John.McGuirk");
        assertThat(request.callingStationId()).isEqualTo("00-14-22-E9-54-5E");
        RadiusView challenge = view(zeek.get(1));
        assertThat(challenge.code()).isEqualTo(11);
        assertThat(challenge.framedIpAddress()).isEqualTo(0xFFFFFFFEL);
        assertThat(challenge.state()).isNotNull();

        List<Datagram> huawei = radius("/pcaps/radius/radius.pcapng");
        RadiusView h = view(huawei.get(0));
        assertThat(h.userName()).isEqualTo("201713893");
        assertThat(h.acctSessionId()).isEqualTo("HUAWEI0000000000000072594483001055");

        List<Datagram> localhost = radius("/pcaps/radius/radius_localhost.pcap");
        RadiusView accept = view(localhost.get(7));
        assertThat(accept.code()).isEqualTo(2);
        assertThat(accept.userName()).isEqualTo("steve");
        assertThat(accept.framedIpAddress()).isEqualTo(0xAC100321L); // 172.16.3.33

        List<Datagram> coa = radius("/pcaps/radius/RADIUS-RFC5176.pcap");
        int[] codes = {40, 41, 42, 43, 44, 45};
        for (int i = 0; i < codes.length; i++) {
            RadiusView v = view(coa.get(i));
            assertThat(v.code()).isEqualTo(codes[i]);
            assertThat(v.identifier()).isEqualTo(i + 1);
        }
    }

    @Test
    void verifiesTheAuthenticatorsOfRealFreeRadiusTraffic() throws DecodeException {
        int verified = 0;
        for (String file : new String[] {"radius_localhost.pcap", "RADIUS-RFC4675.pcap"}) {
            Map<Integer, byte[]> requestAuthenticators = new HashMap<>();
            for (Datagram d : radius("/pcaps/radius/" + file)) {
                RadiusView v = view(d);
                if (d.frame() > 14) {
                    continue; // tshark pairs frames 1..14; 15-19 are retransmissions and a late answer
                }
                if (v.code() == 1) {
                    requestAuthenticators.put(v.identifier(), v.authenticator());
                    assertThat(RadiusAuthenticators.verifyRequest(v, TESTING123)).as(d.toString()).isTrue();
                } else {
                    byte[] requestAuthenticator = requestAuthenticators.get(v.identifier());
                    assertThat(RadiusAuthenticators.verifyResponse(v, requestAuthenticator, TESTING123))
                            .as(d.toString()).isTrue();
                    verified++;
                }
            }
        }
        assertThat(verified).isEqualTo(10);
        RadiusView disconnect = view(radius("/pcaps/radius/RADIUS-RFC5176.pcap").get(0));
        assertThat(RadiusAuthenticators.verifyRequest(disconnect, TESTING123)).isTrue();
        assertThat(RadiusAuthenticators.verifyRequest(disconnect, RadiusVectors.SECRET)).isFalse();
    }

    @Test
    void everyTruncationOfEveryCapturedPacketIsRejected() {
        for (String file : new String[] {"radius_localhost.pcap", "RADIUS-RFC5176.pcap", "radius.pcap", "radius.pcapng"}) {
            for (Datagram d : radius("/pcaps/radius/" + file)) {
                io.switchboard.codec.testing.Malformed.assertEveryTruncationRejected(d.payload(),
                        RadiusMalformedTest::exercise, file + " " + d);
            }
        }
    }

    @Test
    void negativeCapturesRaiseOnlyDecodeException() {
        for (String file : new String[] {"radius_attr_asan.pcap", "radius_false_positive.pcapng",
                "radius_rfc5447_invalid_length.pcap", "radius_wrong.pcap"}) {
            for (Datagram d : CaptureReader.resource("/pcaps/negative/" + file)) {
                ByteBuf in = Unpooled.wrappedBuffer(d.payload());
                try {
                    RadiusView.wrap(in);
                } catch (DecodeException e) {
                    assertThat(e.reason()).isNotNull();
                } finally {
                    in.release();
                }
            }
        }
        Datagram invalid = CaptureReader.resource("/pcaps/negative/radius_rfc5447_invalid_length.pcap").get(0);
        ByteBuf in = Unpooled.wrappedBuffer(invalid.payload());
        try {
            assertThatThrownBy(() -> RadiusView.wrap(in)).isInstanceOf(DecodeException.class);
        } finally {
            in.release();
        }
    }

    private final List<ByteBuf> held = new ArrayList<>();

    private RadiusView view(Datagram d) throws DecodeException {
        ByteBuf buf = Unpooled.wrappedBuffer(d.payload());
        held.add(buf);
        return RadiusView.wrap(buf);
    }

    @org.junit.jupiter.api.AfterEach
    void releaseHeld() {
        held.forEach(ByteBuf::release);
        held.clear();
    }


    private static List<Datagram> radius(String resource) {
        return CaptureReader.resource(resource).stream()
                .filter(d -> PORTS.contains(d.sourcePort()) || PORTS.contains(d.destinationPort()))
                .toList();
    }
}
