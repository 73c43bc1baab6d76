package io.switchboard.codec.gtp.v0;

import static io.switchboard.codec.gtp.GtpVectors.decode;
import static io.switchboard.codec.gtp.GtpVectors.encoded;
import static io.switchboard.codec.gtp.GtpVectors.handBuilt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpVectors;
import io.switchboard.codec.testing.CaptureReader;
import io.switchboard.codec.gtp.v1.GtpV1Cause;
import io.switchboard.codec.gtp.v1.GtpV1Ie;
import java.net.InetAddress;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GtpV0CodecTest {

    static Stream<GtpVectors.Vector> vectors() {
        return GtpVectors.all(0).stream();
    }

    static byte[] sgsnemu(int frame) {
        return GtpVectors.capture("/pcaps/osmo-ggsn/sgsnemu-v1-v0.pcap").stream().filter(d -> d.frame() == frame)
                .findFirst().map(CaptureReader.Datagram::payload).orElseThrow();
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void decodeThenEncodeGivesTheSameBytes(GtpVectors.Vector vector) throws Exception {
        GtpV0Message message = decode(vector.bytes(), GtpV0Codec::decode);
        assertThat(ByteBufUtil.hexDump(encoded(out -> GtpV0Codec.encode(message, out))))
                .isEqualTo(ByteBufUtil.hexDump(vector.bytes()));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void headerViewAgreesWithTheModel(GtpVectors.Vector vector) throws Exception {
        GtpV0Message message = decode(vector.bytes(), GtpV0Codec::decode);
        decode(vector.bytes(), buf -> {
            GtpV0Header header = GtpV0Header.of(buf);
            assertThat(header.version()).isZero();
            assertThat(header.messageType()).isSameAs(message.type());
            assertThat(header.sequence()).isEqualTo(message.sequence());
            assertThat(header.flowLabel()).isEqualTo(message.flowLabel());
            assertThat(header.tid()).isEqualTo(message.tid());
            assertThat(header.totalLength()).isEqualTo(vector.bytes().length);
            for (GtpV0TidOrder order : GtpV0TidOrder.values()) {
                assertThat(header.imsi(order)).isEqualTo(message.imsi(order));
                assertThat(header.nsapi(order)).isEqualTo(message.nsapi(order));
            }
            return null;
        });
    }

    @Test
    void tidInGsm0960Order() throws Exception {
        // tshark reads the TID of this vector as 2624200000000015: IMSI 262420000000001, NSAPI 5
        GtpV0Message m = decode(handBuilt("v0-create-pdp-context-request"), GtpV0Codec::decode);
        assertThat(m.imsi(GtpV0TidOrder.GSM_09_60)).isEqualTo("262420000000001");
        assertThat(m.nsapi(GtpV0TidOrder.GSM_09_60)).isEqualTo(5);
        assertThat(m.tid()).isEqualTo(GtpV0Tid.of("262420000000001", 5, GtpV0TidOrder.GSM_09_60));
        assertThat(m.type()).isSameAs(GtpV0MessageType.CREATE_PDP_CONTEXT_REQUEST);
        assertThat(m.createsTunnel()).isTrue();
        assertThat(m.ies()).contains(new GtpV1Ie.Apn("internet"), new GtpV1Ie.Msisdn(0x91, "49170000001"));
        assertThat(m.senderSignallingAddress()).contains(InetAddress.getByName("127.0.0.1"));
        // 16/17 are flow labels in GTPv0 (2 octets), not TEIDs
        assertThat(m.ies()).contains(new GtpV1Ie.Raw(16, new byte[] {0, 1}), new GtpV1Ie.Raw(17, new byte[] {0, 2}));
        assertThat(m.ies()).noneMatch(ie -> ie instanceof GtpV1Ie.TeidControlPlane);
    }

    @Test
    void tidInLibgtpOrderFromARealSgsnemu() throws Exception {
        // sgsnemu --gtpversion 0 --imsi 262420000000002; tshark (GSM 09.60 order) shows 2000000000202426
        GtpV0Message request = decode(sgsnemu(9), GtpV0Codec::decode);
        assertThat(request.type()).isSameAs(GtpV0MessageType.CREATE_PDP_CONTEXT_REQUEST);
        assertThat(request.imsi(GtpV0TidOrder.LIBGTP_REVERSED)).isEqualTo("262420000000002");
        assertThat(request.nsapi(GtpV0TidOrder.LIBGTP_REVERSED)).isZero();
        assertThat(request.imsi(GtpV0TidOrder.GSM_09_60)).isEqualTo("200000000020242");
        assertThat(request.tid()).isEqualTo(GtpV0Tid.of("262420000000002", 0, GtpV0TidOrder.LIBGTP_REVERSED));

        GtpV0Message response = decode(sgsnemu(10), GtpV0Codec::decode);
        assertThat(response.cause()).contains(GtpV1Cause.REQUEST_ACCEPTED);
        assertThat(response.tid()).isEqualTo(request.tid()); // osmo-ggsn echoes the TID it received
        assertThat(response.senderSignallingAddress()).contains(InetAddress.getByName("127.0.0.77"));
        assertThat(response.ies()).contains(new GtpV1Ie.EndUserAddress(1, 0x21, new byte[] {(byte) 172, 16, 77, 2}));

        byte[] hand = handBuilt("v0-create-pdp-context-request-libgtp-tid");
        assertThat(decode(hand, GtpV0Codec::decode).imsi(GtpV0TidOrder.LIBGTP_REVERSED)).isEqualTo("262420000000001");
        assertThat(decode(hand, GtpV0Codec::decode).nsapi(GtpV0TidOrder.LIBGTP_REVERSED)).isEqualTo(5);
    }

    @Test
    void everyTunnelMessageOfTheTable() throws Exception {
        assertThat(decode(handBuilt("v0-update-pdp-context-request"), GtpV0Codec::decode).type())
                .isSameAs(GtpV0MessageType.UPDATE_PDP_CONTEXT_REQUEST);
        GtpV0Message updated = decode(handBuilt("v0-update-pdp-context-response"), GtpV0Codec::decode);
        assertThat(updated.isResponse()).isTrue();
        assertThat(updated.cause()).contains(GtpV1Cause.REQUEST_ACCEPTED);
        GtpV0Message delete = decode(handBuilt("v0-delete-pdp-context-request"), GtpV0Codec::decode);
        assertThat(delete.ies()).isEmpty();
        assertThat(delete.isRequest()).isTrue();
        assertThat(decode(handBuilt("v0-delete-pdp-context-response"), GtpV0Codec::decode).cause())
                .contains(GtpV1Cause.REQUEST_ACCEPTED);
    }

    @Test
    void echoFromZeekCapture() throws Exception {
        List<CaptureReader.Datagram> echo = GtpVectors.capture("/pcaps/gtpv0/gtp_control_prime_v0-echo-only.pcap");
        GtpV0Message request = decode(echo.get(0).payload(), GtpV0Codec::decode);
        GtpV0Message response = decode(echo.get(1).payload(), GtpV0Codec::decode);
        // tshark: Echo request / response, seq 0x1400, recovery 1 in the response
        assertThat(request.type()).isSameAs(GtpV0MessageType.ECHO_REQUEST);
        assertThat(request.sequence()).isEqualTo(0x1400);
        assertThat(response.type()).isSameAs(GtpV0MessageType.ECHO_RESPONSE);
        assertThat(response.recovery()).contains(1);
    }

    @Test
    void unknownTvTypeIsRejected() {
        // TV 20 is NSAPI in GTPv1 but unassigned in GSM 09.60: its length is unknown here
        byte[] bytes = ByteBufUtil.decodeHexDump("1e01000200010000ffffffff62420200000000511405");
        assertThatThrownBy(() -> decode(bytes, GtpV0Codec::decode))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.reason()).isSameAs(DropReason.MALFORMED));
    }

    @Test
    void gtpPrimeAndOtherVersionsAreRefused() {
        byte[] prime = ByteBufUtil.decodeHexDump("0e01000000010000ffffffff0000000000000000");
        assertThatThrownBy(() -> decode(prime, GtpV0Header::of))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.reason()).isSameAs(DropReason.MALFORMED));
        assertThatThrownBy(() -> decode(handBuilt("v1-delete-pdp-context-response"), GtpV0Header::of))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isSameAs(DropReason.UNSUPPORTED_VERSION));
    }

    @Test
    void inPlaceRewrites() throws Exception {
        ByteBuf buf = GtpVectors.pooled(sgsnemu(10));
        try {
            GtpV0Header header = GtpV0Header.of(buf);
            assertThat(GtpV0Codec.setGsnAddress(buf, header, 0, InetAddress.getByName("192.0.2.9"))).isTrue();
            header.setSequence(0x0909);
            header.setFlowLabel(0x0707);
            GtpV0Message m = GtpV0Codec.decode(buf);
            assertThat(m.senderSignallingAddress()).contains(InetAddress.getByName("192.0.2.9"));
            assertThat(m.sequence()).isEqualTo(0x0909);
            assertThat(m.flowLabel()).isEqualTo(0x0707);
            assertThat(m.imsi(GtpV0TidOrder.LIBGTP_REVERSED)).isEqualTo("262420000000002");
        } finally {
            buf.release();
        }
    }

    @Test
    void builtInCodeEncodesTheHandBuiltVector() {
        long tid = GtpV0Tid.of("262420000000001", 5, GtpV0TidOrder.GSM_09_60);
        GtpV0Message m = new DefaultGtpV0Message(GtpV0MessageType.DELETE_PDP_CONTEXT_RESPONSE, 3, 2, tid,
                List.of(new GtpV1Ie.Cause(128)));
        assertThat(encoded(out -> GtpV0Codec.encode(m, out))).isEqualTo(handBuilt("v0-delete-pdp-context-response"));
    }
}
