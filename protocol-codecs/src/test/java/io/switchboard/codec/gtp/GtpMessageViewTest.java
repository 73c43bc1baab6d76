package io.switchboard.codec.gtp;

import static io.switchboard.codec.gtp.GtpVectors.decode;
import static io.switchboard.codec.gtp.GtpVectors.frame;
import static io.switchboard.codec.gtp.GtpVectors.handBuilt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v0.GtpV0Message;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.codec.gtp.v1.GtpV1Cause;
import io.switchboard.codec.gtp.v1.GtpV1Codec;
import io.switchboard.codec.gtp.v1.GtpV1Message;
import io.switchboard.codec.gtp.v2.GtpV2Cause;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2Message;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GtpMessageViewTest {

    static Stream<GtpVectors.Vector> vectors() {
        return GtpVectors.all().stream();
    }

    /** What the full model says, to compare the in-place view with. */
    private record Facts(boolean request, boolean response, boolean createsTunnel, String imsi, int cause,
            GtpControlEndpoint sender) {
    }

    private static Facts model(GtpVectors.Vector v, GtpV0TidOrder order) throws DecodeException {
        switch (v.version()) {
            case 0: {
                GtpV0Message m = decode(v.bytes(), GtpV0Codec::decode);
                return new Facts(m.isRequest(), m.isResponse(), m.createsTunnel(), m.imsi(order),
                        m.cause().map(GtpV1Cause::value).orElse(-1), null);
            }
            case 1: {
                GtpV1Message m = decode(v.bytes(), GtpV1Codec::decode);
                return new Facts(m.isRequest(), m.isResponse(), m.createsTunnel(), m.imsi().orElse(null),
                        m.cause().map(GtpV1Cause::value).orElse(-1), m.senderControlPlane().orElse(null));
            }
            default: {
                GtpV2Message m = decode(v.bytes(), GtpV2Codec::decode);
                return new Facts(m.isRequest(), m.isResponse(), m.createsTunnel(), m.imsi().orElse(null),
                        m.cause().map(GtpV2Cause::value).orElse(-1), m.senderControlPlane().orElse(null));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void viewAgreesWithTheModel(GtpVectors.Vector v) throws Exception {
        for (GtpV0TidOrder order : GtpV0TidOrder.values()) {
            Facts expected = model(v, order);
            Facts viewed = decode(v.bytes(), buf -> {
                GtpMessageView view = new GtpMessageView(order).wrap(buf);
                assertThat(view.version()).isEqualTo(v.version());
                return new Facts(view.isRequest(), view.isResponse(), view.createsTunnel(), view.imsi(), view.cause(),
                        view.senderControlPlane());
            });
            assertThat(viewed).isEqualTo(expected);
        }
    }

    @Test
    void theCauseOfEveryGtpV2ResponseIsRead() throws Exception {
        // TS 29.274 §8.4: Cause is mandatory in every response; Table 6.1-1 names which types are.
        java.util.List<Integer> responses = new java.util.ArrayList<>();
        for (int type = 0; type < 256; type++) {
            io.switchboard.codec.gtp.v2.GtpV2MessageType t = io.switchboard.codec.gtp.v2.GtpV2MessageType.of(type);
            if (!t.isResponse()) {
                continue;
            }
            responses.add(type);
            // T = 1, TEID 0x10, sequence 7, Cause 73 ("no resources available")
            byte[] bytes = {0x48, (byte) type, 0, 14, 0, 0, 0, 0x10, 0, 0, 7, 0, 2, 0, 2, 0, 73, 0};
            assertThat((int) decode(bytes, buf -> new GtpMessageView().wrap(buf).cause())).as("type %d", type).isEqualTo(73);
        }
        // Create Indirect Data Forwarding Tunnel Response (167), Context Response (131), Forward
        // Relocation Response (134), Modify Access Bearers Response (212) among them
        assertThat(responses).contains(33, 35, 37, 96, 98, 100, 131, 134, 167, 169, 171, 212);
    }

    @Test
    void oneViewForEveryVersion() throws Exception {
        GtpMessageView view = new GtpMessageView(GtpV0TidOrder.LIBGTP_REVERSED);
        decode(frame("/pcaps/osmo-ggsn/sgsnemu-v1-v0.pcap", 9), buf -> {
            view.wrap(buf);
            assertThat(view.version()).isZero();
            assertThat(view.createsTunnel()).isTrue();
            assertThat(view.imsi()).isEqualTo("262420000000002");
            assertThat(view.teid()).isEqualTo(-1);
            return null;
        });
        decode(frame("/pcaps/osmo-ggsn/sgsnemu-v1-v0.pcap", 2), buf -> {
            view.wrap(buf);
            assertThat(view.version()).isEqualTo(1);
            assertThat(view.createsTunnel()).isTrue();
            assertThat(view.imsi()).isEqualTo("262420000000001");
            return null;
        });
        decode(frame("/pcaps/gtpv2/gtp_c.pcap", 2), buf -> {
            view.wrap(buf);
            assertThat(view.version()).isEqualTo(2);
            assertThat(view.isResponse()).isTrue();
            assertThat(view.cause()).isEqualTo(16);
            assertThat(view.sequence()).isEqualTo(0x4b5462);
            assertThat(view.teid()).isEqualTo(0x35529204L);
            return null;
        });
        decode(handBuilt("v2-echo-request"), buf -> {
            assertThat(view.wrap(buf).isEchoRequest()).isTrue();
            assertThat(view.teid()).isEqualTo(-1);
            return null;
        });
        decode(frame("/pcaps/gtpv2/gtpv2.pcap", 2), buf -> {
            view.wrap(buf);
            int next = view.piggybackedOffset();
            assertThat(next).isEqualTo(13);
            assertThat(new GtpMessageView().wrap(buf, next).createsTunnel()).isFalse();
            return null;
        });
    }

    @Test
    void rejectsWhatIsNotGtp() {
        byte[] v3 = {(byte) 0x68, 1, 0, 4, 0, 0, 0, 0};
        assertThatThrownBy(() -> decode(v3, buf -> new GtpMessageView().wrap(buf)))
                .isInstanceOfSatisfying(DecodeException.class,
                        e -> assertThat(e.reason()).isSameAs(DropReason.UNSUPPORTED_VERSION));
        assertThatThrownBy(() -> decode(new byte[0], buf -> new GtpMessageView().wrap(buf)))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.reason()).isSameAs(DropReason.TRUNCATED));
        assertThatThrownBy(() -> new GtpMessageView().version()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void rewritesTheSenderForEveryVersion() throws Exception {
        Inet4Address nat = (Inet4Address) InetAddress.getByName("198.51.100.7");
        for (byte[] bytes : new byte[][] {
            frame("/pcaps/osmo-ggsn/sgsnemu-v1-v0.pcap", 10), // v0 Create PDP Context Response
            frame("/pcaps/gtpv1/gtp_create_pdp_ctx.pcap", 3), // v1 Create PDP Context Response
            frame("/pcaps/gtpv2/nsa_connection.pcap", 33)}) { // v2 Create Session Response
            ByteBuf buf = GtpVectors.pooled(bytes);
            try {
                GtpMessageView view = new GtpMessageView().wrap(buf);
                assertThat(view.setSenderIpv4(nat)).isTrue();
                view.setSequence(0x0102);
                if (view.version() > 0) {
                    view.setTeid(0x0a0b0c0dL);
                    assertThat(view.senderControlPlane().address()).isEqualTo(nat);
                    assertThat(view.teid()).isEqualTo(0x0a0b0c0dL);
                } else {
                    assertThat(decode(bytesOf(buf), GtpV0Codec::decode).senderSignallingAddress()).contains(nat);
                }
                assertThat(view.sequence()).isEqualTo(0x0102);
                assertThat(buf.readableBytes()).isEqualTo(bytes.length);
            } finally {
                buf.release();
            }
        }
    }

    private static byte[] bytesOf(ByteBuf buf) {
        return io.netty.buffer.ByteBufUtil.getBytes(buf);
    }
}
