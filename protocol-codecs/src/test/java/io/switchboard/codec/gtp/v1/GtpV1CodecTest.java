package io.switchboard.codec.gtp.v1;

import static io.switchboard.codec.gtp.GtpVectors.decode;
import static io.switchboard.codec.gtp.GtpVectors.encoded;
import static io.switchboard.codec.gtp.GtpVectors.handBuilt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpVectors;
import io.switchboard.codec.testing.CaptureReader;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GtpV1CodecTest {

    static Stream<GtpVectors.Vector> vectors() {
        return GtpVectors.all(1).stream();
    }

    static byte[] frame(String capture, int frame) {
        return GtpVectors.capture(capture).stream().filter(d -> d.frame() == frame).findFirst()
                .map(CaptureReader.Datagram::payload).orElseThrow();
    }

    static byte[] createRequest() {
        return frame("/pcaps/gtpv1/gtp_create_pdp_ctx.pcap", 2);
    }

    static byte[] createResponse() {
        return frame("/pcaps/gtpv1/gtp_create_pdp_ctx.pcap", 3);
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void decodeThenEncodeGivesTheSameBytes(GtpVectors.Vector vector) throws Exception {
        GtpV1Message message = decode(vector.bytes(), GtpV1Codec::decode);
        byte[] again = encoded(out -> GtpV1Codec.encode(message, out));
        assertThat(ByteBufUtil.hexDump(again)).isEqualTo(ByteBufUtil.hexDump(vector.bytes()));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void headerViewAgreesWithTheModel(GtpVectors.Vector vector) throws Exception {
        GtpV1Message message = decode(vector.bytes(), GtpV1Codec::decode);
        decode(vector.bytes(), buf -> {
            GtpV1Header header = GtpV1Header.of(buf);
            assertThat(header.version()).isEqualTo(1);
            assertThat(header.messageType()).isSameAs(message.type());
            assertThat(header.teid()).isEqualTo(message.teid());
            assertThat(header.totalLength()).isEqualTo(vector.bytes().length);
            if (header.hasSequence()) {
                assertThat(header.sequence()).isEqualTo(message.sequence());
            }
            return null;
        });
    }

    @Test
    void createPdpContextRequestFromCapture() throws Exception {
        // tshark: Create PDP context request, seq 0x130b, IMSI 460004100000101, TEID-C 0x32f02bf9,
        // GSN 192.169.100.1 twice, APN "eetest", recovery 176, NSAPI 5
        GtpV1Message m = decode(createRequest(), GtpV1Codec::decode);
        assertThat(m.type()).isSameAs(GtpV1MessageType.CREATE_PDP_CONTEXT_REQUEST);
        assertThat(m.isRequest()).isTrue();
        assertThat(m.createsTunnel()).isTrue();
        assertThat(m.teid()).isZero();
        assertThat(m.sequence()).isEqualTo(0x130b);
        assertThat(m.imsi()).contains("460004100000101");
        assertThat(m.recovery()).contains(176);
        assertThat(m.senderControlPlane())
                .contains(GtpControlEndpoint.of(0x32f02bf9L, InetAddress.getByName("192.169.100.1")));
        assertThat(m.first(GtpV1Ie.Apn.class)).contains(new GtpV1Ie.Apn("eetest"));
        assertThat(m.first(GtpV1Ie.Nsapi.class)).contains(new GtpV1Ie.Nsapi(5));
        assertThat(m.first(GtpV1Ie.TeidDataI.class)).contains(new GtpV1Ie.TeidDataI(0x32f02bf9L));
        assertThat(m.first(GtpV1Ie.EndUserAddress.class))
                .contains(new GtpV1Ie.EndUserAddress(1, 0x21, new byte[0]));
        assertThat(m.first(GtpV1Ie.Msisdn.class)).contains(new GtpV1Ie.Msisdn(0x91, "8615221000101"));
        assertThat(m.ies()).extracting(GtpV1Ie::type).endsWith(135, 151, 153, 255);
    }

    @Test
    void createPdpContextResponseFromCapture() throws Exception {
        // tshark: cause 128, TEID-C 0x10000080, TEID data 0x10000085, GSN 10.100.200.34 / .49
        GtpV1Message m = decode(createResponse(), GtpV1Codec::decode);
        assertThat(m.type()).isSameAs(GtpV1MessageType.CREATE_PDP_CONTEXT_RESPONSE);
        assertThat(m.isResponse()).isTrue();
        assertThat(m.createsTunnel()).isFalse();
        assertThat(m.teid()).isEqualTo(0x32f02bf9L);
        assertThat(m.cause()).contains(GtpV1Cause.REQUEST_ACCEPTED);
        assertThat(m.cause().orElseThrow().isAccepted()).isTrue();
        assertThat(m.senderControlPlane())
                .contains(GtpControlEndpoint.of(0x10000080L, InetAddress.getByName("10.100.200.34")));
        assertThat(m.ies().stream().filter(GtpV1Ie.GsnAddress.class::isInstance).toList())
                .containsExactly(new GtpV1Ie.GsnAddress(InetAddress.getByName("10.100.200.34")),
                        new GtpV1Ie.GsnAddress(InetAddress.getByName("10.100.200.49")));
    }

    @Test
    void handBuiltTunnelMessages() throws Exception {
        GtpV1Message update = decode(handBuilt("v1-update-pdp-context-request"), GtpV1Codec::decode);
        assertThat(update.type()).isSameAs(GtpV1MessageType.UPDATE_PDP_CONTEXT_REQUEST);
        assertThat(update.isRequest()).isTrue();
        assertThat(update.createsTunnel()).isFalse();
        assertThat(update.teid()).isEqualTo(0x10000080L);
        assertThat(update.imsi()).isEmpty();

        GtpV1Message delete = decode(handBuilt("v1-delete-pdp-context-response"), GtpV1Codec::decode);
        assertThat(delete.type()).isSameAs(GtpV1MessageType.DELETE_PDP_CONTEXT_RESPONSE);
        assertThat(delete.cause()).contains(GtpV1Cause.REQUEST_ACCEPTED);

        GtpV1Message rejected = decode(handBuilt("v1-create-pdp-context-response-rejected"), GtpV1Codec::decode);
        assertThat(rejected.cause()).contains(GtpV1Cause.NO_MEMORY_AVAILABLE);
        assertThat(rejected.cause().orElseThrow().isRejected()).isTrue();
        assertThat(rejected.senderControlPlane()).isEmpty();
    }

    @Test
    void secondaryContextHasALinkedNsapiAndNoImsi() throws Exception {
        // TS 29.060 §7.3.1 secondary activation: header TEID = GGSN TEID-C of the primary context,
        // NSAPI 6 then Linked NSAPI 5, no IMSI
        byte[] bytes = ByteBufUtil.decodeHexDump("3210000d1000008000200000" + "1032f02bfb" + "1406" + "1405");
        GtpV1Message m = decode(bytes, GtpV1Codec::decode);
        assertThat(m.createsTunnel()).isTrue();
        assertThat(m.imsi()).isEmpty();
        assertThat(m.teid()).isEqualTo(0x10000080L);
        assertThat(m.first(GtpV1Ie.Nsapi.class)).contains(new GtpV1Ie.Nsapi(6));
        assertThat(m.linkedNsapi()).contains(5);
        assertThat(decode(createRequest(), GtpV1Codec::decode).linkedNsapi()).isEmpty();
    }

    @Test
    void echoFromCapture() throws Exception {
        // tshark: gtp10_not_0xff frame 3 Echo response, seq 0xfe69, recovery 0
        GtpV1Message echo = decode(frame("/pcaps/gtpv1/gtp10_not_0xff.pcap", 3), GtpV1Codec::decode);
        assertThat(echo.type()).isSameAs(GtpV1MessageType.ECHO_RESPONSE);
        assertThat(echo.sequence()).isEqualTo(0xfe69);
        assertThat(echo.recovery()).contains(0);
        GtpV1Message request = decode(frame("/pcaps/gtpv1/gtp10_not_0xff.pcap", 2), GtpV1Codec::decode);
        assertThat(request.type()).isSameAs(GtpV1MessageType.ECHO_REQUEST);
        assertThat(request.ies()).isEmpty();
    }

    @Test
    void errorIndicationAndSgsnContextResponseFromCaptures() throws Exception {
        GtpV1Message error = decode(frame("/pcaps/gtpv1/gtp10_not_0xff.pcap", 1), GtpV1Codec::decode);
        assertThat(error.type()).isSameAs(GtpV1MessageType.ERROR_INDICATION);
        assertThat(error.ies()).containsExactly(new GtpV1Ie.TeidDataI(0xa0f22350L),
                new GtpV1Ie.GsnAddress(InetAddress.getByName("212.200.245.64")));

        // type 51, with a Private Extension (255) kept raw
        GtpV1Message context = decode(frame("/pcaps/gtpv1/gtp.pcap", 1), GtpV1Codec::decode);
        assertThat(context.type()).isSameAs(GtpV1MessageType.SGSN_CONTEXT_RESPONSE);
        assertThat(context.ies()).last().isEqualTo(
                new GtpV1Ie.Raw(255, ByteBufUtil.decodeHexDump("86c5030020060103070180")));
    }

    @Test
    void everyTvLengthOfTheZooVector() throws Exception {
        GtpV1Message m = decode(handBuilt("v1-sgsn-context-request-tv-zoo"), GtpV1Codec::decode);
        assertThat(m.ies()).extracting(GtpV1Ie::type)
                .containsExactly(2, 3, 4, 5, 8, 11, 12, 13, 15, 17, 18, 24, 25, 26, 29, 127, 133, 230, 255);
        assertThat(m.imsi()).contains("262420000000001");
        assertThat(m.ies().get(17)).isEqualTo(new GtpV1Ie.Raw(230, new byte[] {(byte) 0xab, (byte) 0xcd}));
    }

    @Test
    void unknownTvTypeIsRejectedBecauseItCannotBeSkipped() {
        // Echo Request with TV type 7 (spare in TS 29.060 Table 37): its length is unknown
        byte[] bytes = ByteBufUtil.decodeHexDump("3201000600000000000100000700");
        assertThatThrownBy(() -> decode(bytes, GtpV1Codec::decode))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isSameAs(DropReason.MALFORMED));
    }

    @Test
    void unknownMessageTypeIsKeptOpaque() throws Exception {
        GtpV1Message m = decode(handBuilt("v1-unknown-message-type"), GtpV1Codec::decode);
        assertThat(m.type().name()).isEqualTo("unknown(12)");
        assertThat(m.type()).isSameAs(GtpV1MessageType.of(12));
        assertThat(m.isRequest()).isFalse();
        assertThat(m.ies()).isEmpty();
        assertThat(m.opaqueBody()).containsExactly(0xde, 0xad, 0xbe);
    }

    @Test
    void extensionHeaderChainIsWalkedAndKept() throws Exception {
        // TS 29.060 §6.1: E and S set, next type 0xc0 (PDCP PDU number): length 1 (4 octets) whose
        // last octet says no more; then a Recovery IE in an Echo Request
        byte[] bytes = ByteBufUtil.decodeHexDump("3601000a00000000" + "000100c0" + "01123400" + "0e05");
        GtpV1Message m = decode(bytes, GtpV1Codec::decode);
        assertThat(m.nextExtensionType()).isEqualTo(0xc0);
        assertThat(m.extensionHeaders()).containsExactly(0x01, 0x12, 0x34, 0x00);
        assertThat(m.recovery()).contains(5);
        assertThat(encoded(out -> GtpV1Codec.encode(m, out))).isEqualTo(bytes);
        decode(bytes, buf -> {
            assertThat(GtpV1Header.of(buf).bodyOffset()).isEqualTo(16);
            return null;
        });
        // a zero-length extension header would loop forever: malformed
        byte[] zero = ByteBufUtil.decodeHexDump("3601000a00000000" + "000100c0" + "00123400" + "0e05");
        assertThatThrownBy(() -> decode(zero, GtpV1Header::of)).isInstanceOf(DecodeException.class);
    }

    @Test
    void wrongVersionIsUnsupported() {
        byte[] v2 = handBuilt("v2-echo-request");
        assertThatThrownBy(() -> decode(v2, GtpV1Codec::decode))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isSameAs(DropReason.UNSUPPORTED_VERSION));
    }

    @Test
    void messageBuiltInCodeEncodesAsSpecified() {
        GtpV1Message echo = new DefaultGtpV1Message(GtpV1MessageType.ECHO_RESPONSE, 0, 0xfe69,
                List.of(new GtpV1Ie.Recovery(0)));
        assertThat(ByteBufUtil.hexDump(encoded(out -> GtpV1Codec.encode(echo, out))))
                .isEqualTo("3202000600000000fe6900000e00"); // gtp10_not_0xff frame 3
    }

    @Test
    void hotPathReadersWithoutTheModel() throws Exception {
        decode(createRequest(), buf -> {
            GtpV1Header header = GtpV1Header.of(buf);
            assertThat(GtpV1Ies.imsi(buf, header)).isEqualTo("460004100000101");
            assertThat(GtpV1Ies.cause(buf, header)).isEqualTo(-1);
            return null;
        });
        decode(createResponse(), buf -> {
            assertThat(GtpV1Ies.cause(buf, GtpV1Header.of(buf))).isEqualTo(128);
            return null;
        });
    }

    @Test
    void inPlaceRewritesChangeOnlyTheirFields() throws Exception {
        byte[] original = createResponse();
        ByteBuf buf = GtpVectors.pooled(original);
        try {
            GtpV1Header header = GtpV1Header.of(buf);
            int capacity = buf.capacity();
            assertThat(GtpV1Ies.setGsnAddress(buf, header, 0, InetAddress.getByName("192.0.2.1"))).isTrue();
            assertThat(GtpV1Ies.setGsnAddress(buf, header, 2, InetAddress.getByName("192.0.2.1"))).isFalse();
            assertThat(GtpV1Ies.setGsnAddress(buf, header, 1, InetAddress.getByName("2001:db8::1"))).isFalse();
            assertThat(GtpV1Ies.setTeidControlPlane(buf, header, 0x11111111L)).isTrue();
            header.setTeid(0x22222222L);
            header.setSequence(0x3333);
            assertThat(buf.capacity()).isEqualTo(capacity);
            assertThat(buf.readerIndex()).isZero();
            assertThat(buf.readableBytes()).isEqualTo(original.length);

            GtpV1Message m = GtpV1Codec.decode(buf);
            assertThat(m.teid()).isEqualTo(0x22222222L);
            assertThat(m.sequence()).isEqualTo(0x3333);
            assertThat(m.senderControlPlane())
                    .contains(GtpControlEndpoint.of(0x11111111L, InetAddress.getByName("192.0.2.1")));

            byte[] rewritten = ByteBufUtil.getBytes(buf);
            int differing = 0;
            for (int i = 0; i < original.length; i++) {
                differing += original[i] != rewritten[i] ? 1 : 0;
            }
            assertThat(differing).isLessThanOrEqualTo(4 + 4 + 4 + 2);
            assertThat(Arrays.copyOfRange(rewritten, 12, 20)).isEqualTo(Arrays.copyOfRange(original, 12, 20));
        } finally {
            buf.release();
        }
    }

    @Test
    void openValueClassesNameUnknownValues() {
        assertThat(GtpV1MessageType.of(16).name()).isEqualTo("create-pdp-context-request");
        assertThat(GtpV1MessageType.of(200).name()).isEqualTo("unknown(200)");
        assertThat(GtpV1IeType.of(7).tvLength()).isEqualTo(-1);
        assertThat(GtpV1IeType.of(200).tvLength()).isEqualTo(GtpV1IeType.TLV);
        assertThat(GtpV1Cause.of(250).name()).isEqualTo("unknown(250)");
    }
}
