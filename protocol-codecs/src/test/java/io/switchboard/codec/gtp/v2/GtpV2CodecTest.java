package io.switchboard.codec.gtp.v2;

import static io.switchboard.codec.gtp.GtpVectors.decode;
import static io.switchboard.codec.gtp.GtpVectors.encoded;
import static io.switchboard.codec.gtp.GtpVectors.frame;
import static io.switchboard.codec.gtp.GtpVectors.handBuilt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpControlEndpoint;
import io.switchboard.codec.gtp.GtpVectors;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GtpV2CodecTest {

    private static final String GTP_C = "/pcaps/gtpv2/gtp_c.pcap";
    private static final String NSA = "/pcaps/gtpv2/nsa_connection.pcap";
    private static final String PIGGYBACK = "/pcaps/gtpv2/gtpv2.pcap";

    static Stream<GtpVectors.Vector> vectors() {
        return GtpVectors.all(2).stream();
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void decodeAllThenEncodeAllGivesTheSameBytes(GtpVectors.Vector vector) throws Exception {
        List<GtpV2Message> messages = decode(vector.bytes(), GtpV2Codec::decodeAll);
        assertThat(ByteBufUtil.hexDump(encoded(out -> GtpV2Codec.encodeAll(messages, out))))
                .isEqualTo(ByteBufUtil.hexDump(vector.bytes()));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void headerViewAgreesWithTheModel(GtpVectors.Vector vector) throws Exception {
        GtpV2Message message = decode(vector.bytes(), GtpV2Codec::decode);
        decode(vector.bytes(), buf -> {
            GtpV2Header header = GtpV2Header.of(buf);
            assertThat(header.version()).isEqualTo(2);
            assertThat(header.messageType()).isSameAs(message.type());
            assertThat(header.sequence()).isEqualTo(message.sequence());
            assertThat(header.hasTeid()).isEqualTo(message.hasTeid());
            if (header.hasTeid()) {
                assertThat(header.teid()).isEqualTo(message.teid());
            }
            assertThat(header.piggybacked()).isEqualTo(message.piggybacked());
            return null;
        });
    }

    @Test
    void createSessionRequestWithBearerContext() throws Exception {
        // tshark: gtp_c.pcap frame 1: Create Session Request, TEID 0, seq 0x4b5462, IMSI 987654112233445,
        // sender F-TEID S11 MME GTP-C (6) 0x35529204 10.101.0.2, APN internet, PAA 33.23.23.1,
        // bearer context: EBI 5, F-TEID instance 2 S5/S8 SGW GTP-U (4) 0x35529205 10.101.0.2
        GtpV2Message m = decode(frame(GTP_C, 1), GtpV2Codec::decode);
        assertThat(m.type()).isSameAs(GtpV2MessageType.CREATE_SESSION_REQUEST);
        assertThat(m.createsTunnel()).isTrue();
        assertThat(m.isRequest()).isTrue();
        assertThat(m.hasTeid()).isTrue();
        assertThat(m.teid()).isZero();
        assertThat(m.sequence()).isEqualTo(0x4b5462);
        assertThat(m.imsi()).contains("987654112233445");
        Inet4Address sender = (Inet4Address) InetAddress.getByName("10.101.0.2");
        assertThat(m.senderControlPlane()).contains(new GtpControlEndpoint(0x35529204L, sender, null));
        assertThat(m.first(GtpV2Ie.Fteid.class, 0)).contains(new GtpV2Ie.Fteid(0, 6, 0x35529204L, sender, null));
        assertThat(m.first(GtpV2Ie.Apn.class, 0)).contains(new GtpV2Ie.Apn(0, "internet"));
        assertThat(m.first(GtpV2Ie.Paa.class, 0)).contains(new GtpV2Ie.Paa(0, GtpV2Ie.Paa.IPV4, 0, null,
                (Inet4Address) InetAddress.getByName("33.23.23.1")));
        assertThat(m.bearerContexts()).hasSize(1);
        GtpV2Ie.BearerContext bearer = m.bearerContexts().get(0);
        assertThat(bearer.ies()).contains(new GtpV2Ie.Ebi(0, 5), new GtpV2Ie.Fteid(2, 4, 0x35529205L, sender, null));
        assertThat(bearer.ies()).extracting(GtpV2Ie::type).containsExactly(73, 84, 87, 80);
    }

    @Test
    void createSessionResponse() throws Exception {
        // tshark: frame 2: cause 16, no Sender F-TEID (instance 0) but the PGW S5/S8 F-TEID for
        // control plane (instance 1, interface 7) 0x35529206 10.102.0.2
        GtpV2Message m = decode(frame(GTP_C, 2), GtpV2Codec::decode);
        assertThat(m.type()).isSameAs(GtpV2MessageType.CREATE_SESSION_RESPONSE);
        assertThat(m.isResponse()).isTrue();
        assertThat(m.teid()).isEqualTo(0x35529204L);
        assertThat(m.cause()).contains(GtpV2Cause.REQUEST_ACCEPTED);
        assertThat(m.cause().orElseThrow().isAccepted()).isTrue();
        // On S5/S8 that instance-1 F-TEID is the PGW's own control plane (TS 29.274 Table 7.2.2-1:
        // the Sender F-TEID "is not needed because its content would be identical").
        GtpControlEndpoint pgw = new GtpControlEndpoint(0x35529206L, (Inet4Address) InetAddress.getByName("10.102.0.2"), null);
        assertThat(m.pgwControlPlane()).contains(pgw);
        assertThat(m.senderControlPlane()).contains(pgw);
        // nsa_connection frame 33: the SGW's response carries Sender F-TEID S11/S4 SGW GTP-C (11)
        GtpV2Message fromSgw = decode(frame(NSA, 33), GtpV2Codec::decode);
        assertThat(fromSgw.senderControlPlane()).contains(
                new GtpControlEndpoint(2, (Inet4Address) InetAddress.getByName("192.168.61.132"), null));
        assertThat(m.bearerContexts().get(0).ies()).contains(new GtpV2Ie.Cause(0, 16, 0, new byte[0]));
    }

    @Test
    void deleteSessionAndModifyBearer() throws Exception {
        GtpV2Message delete = decode(frame(GTP_C, 3), GtpV2Codec::decode);
        assertThat(delete.type()).isSameAs(GtpV2MessageType.DELETE_SESSION_REQUEST);
        assertThat(delete.teid()).isEqualTo(0x35529206L);
        assertThat(delete.imsi()).isEmpty();
        assertThat(decode(frame(GTP_C, 4), GtpV2Codec::decode).cause()).contains(GtpV2Cause.REQUEST_ACCEPTED);

        // nsa_connection frames 39/40: Modify Bearer Request/Response, seq 0x00a485
        GtpV2Message modify = decode(frame(NSA, 39), GtpV2Codec::decode);
        assertThat(modify.type()).isSameAs(GtpV2MessageType.MODIFY_BEARER_REQUEST);
        assertThat(modify.sequence()).isEqualTo(0x00a485);
        GtpV2Message modified = decode(frame(NSA, 40), GtpV2Codec::decode);
        assertThat(modified.type()).isSameAs(GtpV2MessageType.MODIFY_BEARER_RESPONSE);
        assertThat(modified.sequence()).isEqualTo(modify.sequence());
        assertThat(modified.cause()).contains(GtpV2Cause.REQUEST_ACCEPTED);
    }

    @Test
    void echoWithoutTeid() throws Exception {
        GtpV2Message echo = decode(handBuilt("v2-echo-request"), GtpV2Codec::decode);
        assertThat(echo.hasTeid()).isFalse();
        assertThat(echo.recovery()).contains(5);
        decode(handBuilt("v2-echo-request"), buf -> {
            assertThat(GtpV2Header.of(buf).teid()).isEqualTo(-1);
            assertThat(GtpV2Header.of(buf).bodyOffset()).isEqualTo(8);
            return null;
        });
        GtpV2Message built = new DefaultGtpV2Message(GtpV2MessageType.ECHO_RESPONSE, 1,
                List.of(new GtpV2Ie.Recovery(0, 5)));
        assertThat(encoded(out -> GtpV2Codec.encode(built, out))).isEqualTo(handBuilt("v2-echo-response"));
    }

    @Test
    void dualStackFteidAndPaa() throws Exception {
        // tshark: F-TEID IPv6 2001:db8::7, interface types 11 and 1, PAA prefix 2001:db8:1::
        GtpV2Message m = decode(handBuilt("v2-create-session-response-dual-stack"), GtpV2Codec::decode);
        GtpControlEndpoint sender = m.senderControlPlane().orElseThrow();
        assertThat(sender.teid()).isEqualTo(7);
        assertThat(sender.ipv4()).isEqualTo(InetAddress.getByName("10.0.0.7"));
        assertThat(sender.ipv6()).isEqualTo(InetAddress.getByName("2001:db8::7"));
        assertThat(sender.address()).isEqualTo(sender.ipv4());
        GtpV2Ie.Paa paa = m.first(GtpV2Ie.Paa.class, 0).orElseThrow();
        assertThat(paa.pdnType()).isEqualTo(GtpV2Ie.Paa.IPV4V6);
        assertThat(paa.ipv6PrefixLength()).isEqualTo(64);
        assertThat(paa.ipv6()).isEqualTo((Inet6Address) InetAddress.getByName("2001:db8:1::"));
        assertThat(paa.ipv4()).isEqualTo(InetAddress.getByName("10.45.0.1"));
        assertThat(m.bearerContexts().get(0).ies()).contains(
                new GtpV2Ie.Fteid(2, 1, 8, (Inet4Address) InetAddress.getByName("10.0.0.8"), null));
        assertThat(m.recovery()).contains(9);
    }

    @Test
    void piggybackedMessagesAreBothExposed() throws Exception {
        // tshark: gtpv2.pcap frame 2: Echo Request (P=1) then Create Session Response (T=1, MP=1)
        byte[] datagram = frame(PIGGYBACK, 2);
        List<GtpV2Message> messages = decode(datagram, GtpV2Codec::decodeAll);
        assertThat(messages).extracting(GtpV2Message::type)
                .containsExactly(GtpV2MessageType.ECHO_REQUEST, GtpV2MessageType.CREATE_SESSION_RESPONSE);
        assertThat(messages.get(0).piggybacked()).isTrue();
        assertThat(messages.get(1).sequence()).isEqualTo(0x010932);
        assertThat(messages.get(1).teid()).isEqualTo(0x00015666L);
        assertThat(messages.get(1).imsi()).contains("337839439415386");
        decode(datagram, buf -> {
            GtpV2Header first = GtpV2Header.of(buf);
            assertThat(first.piggybacked()).isTrue();
            assertThat(first.nextMessageOffset()).isEqualTo(13);
            GtpV2Header second = new GtpV2Header().wrap(buf, first.nextMessageOffset());
            assertThat(second.messageType()).isSameAs(GtpV2MessageType.CREATE_SESSION_RESPONSE);
            assertThat(second.endOffset()).isEqualTo(datagram.length);
            assertThat(second.nextMessageOffset()).isEqualTo(-1);
            return null;
        });
    }

    @Test
    void brokenPiggybackAndCutShortMessageFromTheCaptureAreRejected() {
        assertThatThrownBy(() -> decode(frame(PIGGYBACK, 4), GtpV2Codec::decodeAll))
                .isInstanceOf(DecodeException.class);
        assertThatThrownBy(() -> decode(frame(PIGGYBACK, 6), GtpV2Codec::decodeAll))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.reason()).isSameAs(DropReason.TRUNCATED));
        // P set, nothing after it
        assertThatThrownBy(() -> decode(ByteBufUtil.decodeHexDump("500100090030390003000100" + "11"),
                GtpV2Codec::decodeAll))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.reason()).isSameAs(DropReason.TRUNCATED));
    }

    @Test
    void hotPathReadersAndInPlaceRewrites() throws Exception {
        byte[] original = frame(GTP_C, 1);
        ByteBuf buf = GtpVectors.pooled(original);
        try {
            GtpV2Header header = GtpV2Header.of(buf);
            assertThat(GtpV2Ies.imsi(buf, header)).isEqualTo("987654112233445");
            assertThat(GtpV2Ies.cause(buf, header)).isEqualTo(-1);
            Inet4Address nat = (Inet4Address) InetAddress.getByName("192.0.2.44");
            assertThat(GtpV2Ies.setSenderFteidIpv4(buf, header, nat)).isTrue();
            int fteid = GtpV2Ies.indexOf(buf, header.bodyOffset(), header.endOffset(), 87, 0);
            assertThat(GtpV2Ies.setFteidTeid(buf, fteid, 0xabcdef01L)).isTrue();
            int imsiAt = GtpV2Ies.indexOf(buf, header.bodyOffset(), header.endOffset(), 1, 0);
            assertThat(GtpV2Ies.setFteidIpv4(buf, imsiAt, nat)).isFalse();
            header.setTeid(0x01020304L);
            header.setSequence(0x0a0b0c);
            assertThat(buf.readableBytes()).isEqualTo(original.length);

            GtpV2Message m = GtpV2Codec.decode(buf);
            assertThat(m.teid()).isEqualTo(0x01020304L);
            assertThat(m.sequence()).isEqualTo(0x0a0b0c);
            assertThat(m.senderControlPlane()).contains(new GtpControlEndpoint(0xabcdef01L, nat, null));
            assertThat(m.imsi()).contains("987654112233445");
        } finally {
            buf.release();
        }
        ByteBuf echo = GtpVectors.pooled(handBuilt("v2-echo-request"));
        try {
            assertThatThrownBy(() -> GtpV2Header.of(echo).setTeid(1)).isInstanceOf(IllegalStateException.class);
        } finally {
            echo.release();
        }
    }

    @Test
    void nestedFteidOfABearerContextIsRewrittenInPlace() throws Exception {
        // gtp_c.pcap frame 1: Bearer Context (93) holds the S5/S8 SGW GTP-U F-TEID, instance 2
        ByteBuf buf = GtpVectors.pooled(frame(GTP_C, 1));
        try {
            GtpV2Header header = GtpV2Header.of(buf);
            int bearer = GtpV2Ies.indexOf(buf, header.bodyOffset(), header.endOffset(), 93, 0);
            int groupStart = bearer + GtpV2Ies.IE_HEADER_LENGTH;
            int nested = GtpV2Ies.indexOf(buf, groupStart, groupStart + GtpV2Ies.valueLength(buf, bearer), 87, 2);
            Inet4Address nat = (Inet4Address) InetAddress.getByName("203.0.113.5");
            assertThat(GtpV2Ies.setFteidIpv4(buf, nested, nat)).isTrue();
            GtpV2Message m = GtpV2Codec.decode(buf);
            assertThat(m.bearerContexts().get(0).ies()).contains(new GtpV2Ie.Fteid(2, 4, 0x35529205L, nat, null));
            // the sender F-TEID (top level, instance 0) is untouched
            assertThat(m.senderControlPlane().orElseThrow().ipv4()).isEqualTo(InetAddress.getByName("10.101.0.2"));
        } finally {
            buf.release();
        }
    }

    @Test
    void unknownMessageTypesAndIesAreKept() throws Exception {
        // type 250 (not assigned), body kept opaque; then type 33 with an unassigned IE 250 kept raw
        byte[] unknownType = ByteBufUtil.decodeHexDump("48fa000c0000000100000200" + "01020304");
        GtpV2Message m = decode(unknownType, GtpV2Codec::decode);
        assertThat(m.type().name()).isEqualTo("unknown(250)");
        assertThat(m.opaqueBody()).containsExactly(1, 2, 3, 4);
        assertThat(encoded(out -> GtpV2Codec.encode(m, out))).isEqualTo(unknownType);

        byte[] unknownIe = ByteBufUtil.decodeHexDump("482100130000000100000200" + "fa00020ad00d" + "02000200" + "10");
        // cause IE has length 2 but only one value octet follows: the IE walk must notice
        assertThatThrownBy(() -> decode(unknownIe, GtpV2Codec::decode)).isInstanceOf(DecodeException.class);
        byte[] fixed = ByteBufUtil.decodeHexDump("482100140000000100000200" + "fa00020ad00d" + "020002001000");
        GtpV2Message kept = decode(fixed, GtpV2Codec::decode);
        assertThat(kept.ies().get(0)).isEqualTo(new GtpV2Ie.Raw(250, 10, 0, new byte[] {(byte) 0xd0, 0x0d}));
        assertThat(kept.cause()).contains(GtpV2Cause.REQUEST_ACCEPTED);
        assertThat(encoded(out -> GtpV2Codec.encode(kept, out))).isEqualTo(fixed);
    }
}
