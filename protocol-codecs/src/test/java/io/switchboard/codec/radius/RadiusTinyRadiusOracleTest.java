package io.switchboard.codec.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.Hex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tinyradius.attribute.IntegerAttribute;
import org.tinyradius.attribute.StringAttribute;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.CoaRequest;
import org.tinyradius.packet.RadiusPacket;
import org.tinyradius.util.RadiusException;

/**
 * TinyRadius (org.tinyradius:tinyradius:1.1.3) as an independent oracle for the authenticator arithmetic,
 * in both directions. TinyRadius 1.1.3 knows nothing of Message-Authenticator (RFC 3579), which the
 * Python-computed vectors cover instead, and does not check CoA/Disconnect request authenticators on
 * decode, so for those its encoder is compared with ours.
 */
class RadiusTinyRadiusOracleTest {

    private static final String SECRET = new String(RadiusVectors.SECRET, StandardCharsets.US_ASCII);
    private static final String OTHER = "another-hop";

    @Test
    void tinyRadiusAcceptsOurAccountingRequestAndRevealsOurPassword() throws Exception {
        byte[] acct = Hex.bytes(RadiusVectors.ACCOUNTING_REQUEST);
        RadiusPacket decoded = RadiusPacket.decodeRequestPacket(new ByteArrayInputStream(acct), SECRET);
        assertThat(decoded).isInstanceOf(AccountingRequest.class);
        assertThat(((AccountingRequest) decoded).getAcctStatusType()).isEqualTo(AccountingRequest.ACCT_STATUS_TYPE_START);
        assertThatThrownBy(() -> RadiusPacket.decodeRequestPacket(new ByteArrayInputStream(acct), OTHER))
                .isInstanceOf(RadiusException.class);

        byte[] access = Hex.bytes(RadiusVectors.ACCESS_REQUEST);
        AccessRequest request = (AccessRequest) RadiusPacket.decodeRequestPacket(new ByteArrayInputStream(access), SECRET);
        assertThat(request.getUserName()).isEqualTo("alice");
        assertThat(request.getUserPassword()).isEqualTo("hunter2");
    }

    @Test
    void tinyRadiusAcceptsOurReSignedRequests() throws Exception {
        byte[] access = resignRequest(RadiusVectors.ACCESS_REQUEST, 17);
        AccessRequest request = (AccessRequest) RadiusPacket.decodeRequestPacket(new ByteArrayInputStream(access), OTHER);
        assertThat(request.getPacketIdentifier()).isEqualTo(17);
        assertThat(request.getUserPassword()).isEqualTo("hunter2");

        byte[] acct = resignRequest(RadiusVectors.ACCOUNTING_REQUEST, 18);
        RadiusPacket decoded = RadiusPacket.decodeRequestPacket(new ByteArrayInputStream(acct), OTHER);
        assertThat(decoded.getPacketIdentifier()).isEqualTo(18);
    }

    @Test
    void tinyRadiusAcceptsOurResponses() throws Exception {
        Map<String, String> pairs = Map.of("ACCESS_ACCEPT", "ACCESS_REQUEST", "ACCESS_REJECT", "ACCESS_REQUEST",
                "ACCESS_CHALLENGE", "ACCESS_REQUEST", "ACCOUNTING_RESPONSE", "ACCOUNTING_REQUEST",
                "DISCONNECT_ACK", "DISCONNECT_REQUEST", "DISCONNECT_NAK", "DISCONNECT_REQUEST",
                "COA_ACK", "COA_REQUEST", "COA_NAK", "COA_REQUEST");
        for (Map.Entry<String, String> e : pairs.entrySet()) {
            RadiusPacket request = tinyRequest(Hex.bytes(RadiusVectors.ALL.get(e.getValue())));
            byte[] response = Hex.bytes(RadiusVectors.ALL.get(e.getKey()));
            RadiusPacket decoded = RadiusPacket.decodeResponsePacket(new ByteArrayInputStream(response), SECRET, request);
            assertThat(decoded.getPacketType()).as(e.getKey()).isEqualTo(response[0] & 0xff);
            assertThatThrownBy(() -> RadiusPacket.decodeResponsePacket(new ByteArrayInputStream(response), OTHER, request))
                    .as(e.getKey()).isInstanceOf(RadiusException.class);
        }
    }

    @Test
    void tinyRadiusSignsCoaAndDisconnectRequestsAsWeDo() throws Exception {
        for (String name : new String[] {"COA_REQUEST", "DISCONNECT_REQUEST"}) {
            byte[] ours = Hex.bytes(RadiusVectors.ALL.get(name));
            RadiusPacket decoded = tinyRequest(ours);
            CoaRequest again = new CoaRequest();
            again.setPacketType(ours[0] & 0xff);
            again.setPacketIdentifier(ours[1] & 0xff);
            again.setAttributes(decoded.getAttributes());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            again.encodeRequestPacket(out, SECRET);
            assertThat(out.toByteArray()).as(name).isEqualTo(ours);
        }
    }

    @Test
    void weAcceptTinyRadiusRequests() throws Exception {
        AccountingRequest acct = new AccountingRequest("bob", AccountingRequest.ACCT_STATUS_TYPE_STOP);
        acct.setPacketIdentifier(3);
        acct.addAttribute(new StringAttribute(44, "tr-session"));
        acct.addAttribute(new IntegerAttribute(8, 0x0a000005));
        CoaRequest coa = new CoaRequest();
        coa.setPacketIdentifier(4);
        coa.addAttribute(new StringAttribute(1, "bob"));
        AccessRequest access = new AccessRequest("bob", "correct horse battery staple");
        access.setPacketIdentifier(5);
        for (RadiusPacket p : new RadiusPacket[] {acct, coa, access}) {
            byte[] bytes = encodeRequest(p, SECRET);
            ByteBuf buf = Unpooled.wrappedBuffer(bytes);
            try {
                RadiusView view = RadiusView.wrap(buf);
                assertThat(view.userName()).isEqualTo("bob");
                assertThat(RadiusAuthenticators.verifyRequest(view, RadiusVectors.SECRET)).isTrue();
                if (view.code() != RadiusCode.ACCESS_REQUEST.value()) {
                    assertThat(RadiusAuthenticators.verifyRequest(view, OTHER.getBytes(StandardCharsets.US_ASCII))).isFalse();
                }
                if (view.code() == RadiusCode.ACCOUNTING_REQUEST.value()) {
                    assertThat(view.acctStatusType()).isEqualTo(RadiusAcctStatusType.STOP);
                    assertThat(view.acctSessionId()).isEqualTo("tr-session");
                    assertThat(view.framedIpAddress()).isEqualTo(0x0a000005L);
                }
                if (view.code() == RadiusCode.ACCESS_REQUEST.value()) {
                    byte[] hidden = view.value(view.find(RadiusAttributeType.USER_PASSWORD.value()));
                    assertThat(new String(RadiusAuthenticators.revealUserPassword(hidden, RadiusVectors.SECRET,
                            view.authenticator()), StandardCharsets.UTF_8)).isEqualTo("correct horse battery staple");
                }
                RadiusAuthenticators.resignRequest(view, 6, RadiusVectors.SECRET, OTHER.getBytes(StandardCharsets.US_ASCII));
                RadiusPacket back = RadiusPacket.decodeRequestPacket(new ByteArrayInputStream(ByteBufUtil.getBytes(buf)), OTHER);
                if (back instanceof AccessRequest a) {
                    assertThat(a.getUserPassword()).isEqualTo("correct horse battery staple");
                }
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void weAcceptTinyRadiusResponses() throws Exception {
        AccessRequest access = new AccessRequest("bob", "pw");
        access.setPacketIdentifier(9);
        byte[] requestBytes = encodeRequest(access, SECRET);
        RadiusPacket request = RadiusPacket.decodeRequestPacket(new ByteArrayInputStream(requestBytes), SECRET);
        RadiusPacket accept = new RadiusPacket(RadiusPacket.ACCESS_ACCEPT, 9);
        accept.addAttribute(new IntegerAttribute(8, 0x0a000009));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        accept.encodeResponsePacket(out, SECRET, request);
        ByteBuf buf = Unpooled.wrappedBuffer(out.toByteArray());
        try {
            RadiusView view = RadiusView.wrap(buf);
            byte[] requestAuthenticator = Arrays.copyOfRange(requestBytes, 4, 20);
            assertThat(view.framedIpAddress()).isEqualTo(0x0a000009L);
            assertThat(RadiusAuthenticators.verifyResponse(view, requestAuthenticator, RadiusVectors.SECRET)).isTrue();
            assertThat(RadiusAuthenticators.verifyResponse(view, requestAuthenticator,
                    OTHER.getBytes(StandardCharsets.US_ASCII))).isFalse();
        } finally {
            buf.release();
        }
    }

    private static byte[] resignRequest(String vector, int identifier) throws DecodeException {
        ByteBuf buf = Unpooled.wrappedBuffer(Hex.bytes(vector));
        try {
            RadiusAuthenticators.resignRequest(RadiusView.wrap(buf), identifier, RadiusVectors.SECRET,
                    OTHER.getBytes(StandardCharsets.US_ASCII));
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** Decodes a request without TinyRadius's own checks, to serve as the request of a response. */
    private static RadiusPacket tinyRequest(byte[] bytes) throws IOException, RadiusException {
        RadiusPacket p = RadiusPacket.decodeRequestPacket(new ByteArrayInputStream(bytes), SECRET);
        assertThat(p.getAuthenticator()).isEqualTo(Arrays.copyOfRange(bytes, 4, 20));
        return p;
    }

    private static byte[] encodeRequest(RadiusPacket p, String secret) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.encodeRequestPacket(out, secret);
        return out.toByteArray();
    }
}
