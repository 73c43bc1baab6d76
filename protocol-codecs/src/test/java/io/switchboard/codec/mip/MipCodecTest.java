package io.switchboard.codec.mip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.testing.CaptureReader;
import io.switchboard.codec.testing.CaptureReader.Datagram;
import io.switchboard.codec.testing.Hex;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MipCodecTest {

    private static final int HOME = 0x0a000005;          // 10.0.0.5
    private static final int HOME_AGENT = 0xc0000201;    // 192.0.2.1
    private static final int CARE_OF = 0xc6336407;       // 198.51.100.7
    private static final long IDENTIFICATION = 0xe8f5c2a100000001L;
    private static final byte[] MN_HA_KEY = "mn-ha-key".getBytes(StandardCharsets.US_ASCII);

    @Test
    void everyVectorDecodesAndReEncodesToTheSameBytes() throws DecodeException {
        for (Map.Entry<String, String> v : MipVectors.ALL.entrySet()) {
            byte[] bytes = Hex.bytes(v.getValue());
            ByteBuf in = Unpooled.wrappedBuffer(bytes);
            ByteBuf out = Unpooled.buffer();
            try {
                MipMessage message = MipMessage.decode(in);
                assertThat(message).isNotInstanceOf(MipRawMessage.class);
                message.encode(out);
                assertThat(ByteBufUtil.getBytes(out)).as(v.getKey()).isEqualTo(bytes);
                assertThat(in.readerIndex()).isZero();
            } finally {
                in.release();
                out.release();
            }
        }
    }

    @Test
    void viewsARequest() throws DecodeException {
        ByteBuf buf = Unpooled.wrappedBuffer(Hex.bytes(MipVectors.REQUEST));
        try {
            MipHeaderView view = MipHeaderView.wrap(buf);
            assertThat(view.isRequest()).isTrue();
            assertThat(view.type()).isEqualTo(1);
            assertThat(view.flags()).isEqualTo(MipFlags.S | MipFlags.T);
            assertThat(view.code()).isEqualTo(-1);
            assertThat(view.lifetime()).isEqualTo(1800);
            assertThat(view.homeAddress()).isEqualTo(HOME);
            assertThat(view.homeAgent()).isEqualTo(HOME_AGENT);
            assertThat(view.careOfAddress()).isEqualTo(CARE_OF);
            assertThat(view.identification()).isEqualTo(IDENTIFICATION);
            assertThat(view.nai()).isEqualTo("mn1@example.net");
            int mnHa = view.findExtension(MipExtensionType.MN_HA_AUTHENTICATION.value());
            assertThat(MipAuthenticators.verify(view, mnHa, MN_HA_KEY)).isTrue();
            assertThat(MipAuthenticators.verify(view, mnHa, "wrong".getBytes(StandardCharsets.US_ASCII))).isFalse();
            int faHa = view.findExtension(MipExtensionType.FA_HA_AUTHENTICATION.value());
            assertThat(MipAuthenticators.verify(view, faHa, "fa-ha-key".getBytes(StandardCharsets.US_ASCII))).isTrue();
            int generalized = view.findExtension(MipExtensionType.GENERALIZED_AUTHENTICATION.value());
            assertThat(view.extensionDataOffset(generalized)).isEqualTo(generalized + 4);
            assertThat(view.extensionDataLength(generalized)).isEqualTo(20);
        } finally {
            buf.release();
        }
    }

    @Test
    void modelsARequestWithItsExtensions() throws DecodeException {
        ByteBuf buf = Unpooled.wrappedBuffer(Hex.bytes(MipVectors.REQUEST));
        try {
            MipRegistrationRequest request = (MipRegistrationRequest) MipMessage.decode(buf);
            assertThat(request.hasFlag(MipFlags.S)).isTrue();
            assertThat(request.hasFlag(MipFlags.B)).isFalse();
            assertThat(request.careOfAddress()).isEqualTo(CARE_OF);
            assertThat(request.extensions()).extracting(MipExtension::type).containsExactly(131, 150, 32, 33, 36, 34);
            assertThat(request.extension(MipExtensionType.MN_NAI).nai()).isEqualTo("mn1@example.net");
            MipExtension mnHa = request.extension(MipExtensionType.MN_HA_AUTHENTICATION);
            assertThat(mnHa.spi()).isEqualTo(0x100);
            assertThat(mnHa.authenticator()).hasSize(16);
            MipExtension generalized = request.extension(MipExtensionType.GENERALIZED_AUTHENTICATION);
            assertThat(generalized.subType()).isEqualTo(1);
            assertThat(generalized.spi()).isEqualTo(0x300);
            assertThat(request.extensions().get(1)).isEqualTo(MipExtension.of(150, new byte[] {1, 2, 3}));
            assertThat(MipExtensionType.isSkippable(150)).isTrue();
        } finally {
            buf.release();
        }
    }

    @Test
    void modelsRepliesAndTheirCodes() throws DecodeException {
        Map<String, Integer> codes = Map.of("REPLY_ACCEPTED", 0, "REPLY_ACCEPTED_NO_SIMULTANEOUS", 1,
                "REPLY_FA_INSUFFICIENT_RESOURCES", 66, "REPLY_HA_INSUFFICIENT_RESOURCES", 130,
                "REPLY_HA_UNKNOWN_HOME_AGENT", 136);
        for (Map.Entry<String, Integer> c : codes.entrySet()) {
            ByteBuf buf = Unpooled.wrappedBuffer(Hex.bytes(MipVectors.ALL.get(c.getKey())));
            try {
                MipHeaderView view = MipHeaderView.wrap(buf);
                assertThat(view.isRequest()).isFalse();
                assertThat(view.code()).isEqualTo(c.getValue());
                assertThat(view.identification()).isEqualTo(IDENTIFICATION);
                assertThat(view.homeAgent()).isEqualTo(HOME_AGENT);
                assertThat(view.nai()).isEqualTo("mn1@example.net");
                assertThat(MipAuthenticators.verify(view, view.findExtension(32), MN_HA_KEY)).isTrue();
                MipRegistrationReply reply = (MipRegistrationReply) MipMessage.decode(buf);
                MipReplyCode code = reply.code();
                assertThat(code).isSameAs(MipReplyCode.valueOf(c.getValue()));
                assertThat(code.isAccepted()).isEqualTo(c.getValue() < 2);
                assertThat(code.isForeignAgentDenial()).isEqualTo(c.getValue() == 66);
                assertThat(code.isHomeAgentDenial()).isEqualTo(c.getValue() >= 128);
                assertThatThrownBy(view::careOfAddress).isInstanceOf(IllegalStateException.class);
            } finally {
                buf.release();
            }
        }
        assertThat(MipReplyCode.HA_INSUFFICIENT_RESOURCES.value()).isEqualTo(130);
        assertThat(MipReplyCode.HA_UNKNOWN_HOME_AGENT_ADDRESS.value()).isEqualTo(136);
        assertThat(MipReplyCode.valueOf(200).name()).isEqualTo("code 200");
    }

    @Test
    void rewritesTheHomeAgentInPlaceAndCanReSign() throws DecodeException {
        byte[] original = Hex.bytes(MipVectors.DEREGISTRATION);
        ByteBuf buf = Unpooled.wrappedBuffer(original.clone());
        try {
            MipHeaderView view = MipHeaderView.wrap(buf);
            view.rewriteHomeAgent(0xc0000263); // 192.0.2.99
            assertThat(view.homeAgent()).isEqualTo(0xc0000263);
            byte[] rewritten = ByteBufUtil.getBytes(buf);
            assertThat(rewritten[8 + 3]).isEqualTo((byte) 99);
            for (int i = 0; i < original.length; i++) {
                if (i < 8 || i > 11) {
                    if (i < original.length - 16) {
                        assertThat(rewritten[i]).as("octet " + i).isEqualTo(original[i]);
                    }
                }
            }
            int mnHa = view.findExtension(32);
            assertThat(MipAuthenticators.verify(view, mnHa, MN_HA_KEY)).isFalse();
            MipAuthenticators.sign(view, mnHa, MN_HA_KEY);
            assertThat(MipAuthenticators.verify(view, mnHa, MN_HA_KEY)).isTrue();
            MipExtension cvse = ((MipRegistrationRequest) MipMessage.decode(buf))
                    .extension(MipExtensionType.CRITICAL_VENDOR_SPECIFIC);
            assertThat(cvse.subType()).isZero();
            assertThat(cvse.data()).hasSize(8);
        } finally {
            buf.release();
        }
    }

    @Test
    void buildsMessagesFromTheModel() throws DecodeException {
        DefaultMipRegistrationReply reply = new DefaultMipRegistrationReply(MipReplyCode.HA_INSUFFICIENT_RESOURCES, 0,
                HOME, HOME_AGENT, IDENTIFICATION, List.of(MipExtension.nai("mn1@example.net"),
                        MipExtension.authentication(MipExtensionType.MN_HA_AUTHENTICATION, 0x100, new byte[16])));
        ByteBuf buf = Unpooled.buffer();
        try {
            reply.encode(buf);
            MipHeaderView view = MipHeaderView.wrap(buf);
            MipAuthenticators.sign(view, view.findExtension(32), MN_HA_KEY);
            assertThat(Hex.of(buf)).isEqualTo(Hex.of(Hex.bytes(MipVectors.REPLY_HA_INSUFFICIENT_RESOURCES)));
        } finally {
            buf.release();
        }
    }

    @Test
    void otherMessageTypesAreRawInTheModelAndUnexpectedInTheView() throws DecodeException {
        byte[] revocation = Hex.bytes("07 00 00 00 0a 00 00 05 c0 00 02 01 c6 33 64 07 00 00 00 01");
        ByteBuf in = Unpooled.wrappedBuffer(revocation);
        ByteBuf out = Unpooled.buffer();
        try {
            MipMessage message = MipMessage.decode(in);
            assertThat(message).isEqualTo(new MipRawMessage(revocation));
            assertThat(message.type()).isSameAs(MipMessageType.REGISTRATION_REVOCATION);
            message.encode(out);
            assertThat(ByteBufUtil.getBytes(out)).isEqualTo(revocation);
            assertThatThrownBy(() -> MipHeaderView.wrap(in)).isInstanceOfSatisfying(DecodeException.class,
                    e -> assertThat(e.reason()).isSameAs(DropReason.UNEXPECTED_MESSAGE));
        } finally {
            in.release();
            out.release();
        }
    }

    @ParameterizedTest
    @CsvSource({
        // file, requests, replies (tshark), home agent as tshark shows it
        "away-foreign.pcap, 3, 3, 192.168.0.2",
        "away-public.pcap, 3, 3, 192.168.0.2",
        "foreignnetwork-7rreq.pcap, 7, 0, 192.168.2.254",
        "ipcloud-28mip.pcap, 14, 14, 192.168.2.254",
        "public.pcap, 2, 2, 192.168.0.2",
        "return-home.pcap, 1, 1, 192.168.0.2",
        "return-public.pcap, 1, 1, 192.168.0.2",
        "test-rawip.pcap, 2, 0, 192.168.2.254",
    })
    void realCapturesDecodeAndReEncodeExactly(String file, int requests, int replies, String homeAgent)
            throws Exception {
        List<Datagram> datagrams = CaptureReader.resource("/pcaps/mip/" + file, 434);
        assertThat(datagrams).hasSize(requests + replies);
        int seenRequests = 0;
        int ha = java.nio.ByteBuffer.wrap(java.net.InetAddress.getByName(homeAgent).getAddress()).getInt();
        for (Datagram d : datagrams) {
            ByteBuf in = Unpooled.wrappedBuffer(d.payload());
            ByteBuf out = Unpooled.buffer();
            try {
                MipHeaderView view = MipHeaderView.wrap(in);
                seenRequests += view.isRequest() ? 1 : 0;
                assertThat(view.homeAddress()).isEqualTo(0xc0a80201); // 192.168.2.1 in every capture
                assertThat(view.homeAgent()).isEqualTo(ha);
                if (!view.isRequest()) {
                    assertThat(MipReplyCode.isAccepted(view.code())).isTrue();
                }
                MipMessage.decode(in).encode(out);
                assertThat(ByteBufUtil.getBytes(out)).as(d.toString()).isEqualTo(d.payload());
            } finally {
                in.release();
                out.release();
            }
        }
        assertThat(seenRequests).isEqualTo(requests);
    }

    @Test
    void repliesCarryTheirRequestsIdentification() throws DecodeException {
        List<Datagram> datagrams = CaptureReader.resource("/pcaps/mip/public.pcap", 434);
        ByteBuf request = Unpooled.wrappedBuffer(datagrams.get(0).payload());
        ByteBuf reply = Unpooled.wrappedBuffer(datagrams.get(1).payload());
        try {
            MipHeaderView rrq = MipHeaderView.wrap(request);
            MipHeaderView rrp = MipHeaderView.wrap(reply);
            assertThat(rrq.lifetime()).isEqualTo(25);
            assertThat(rrq.careOfAddress()).isEqualTo(0xc0a80003); // 192.168.0.3 per tshark
            assertThat(rrp.identification()).isEqualTo(rrq.identification()).isEqualTo(0x25f4bbe03750362aL);
        } finally {
            request.release();
            reply.release();
        }
    }
}
