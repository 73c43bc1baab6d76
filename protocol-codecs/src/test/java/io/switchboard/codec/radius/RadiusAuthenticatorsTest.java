package io.switchboard.codec.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.Hex;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Authenticators against the vectors, which were computed independently (RFC 2865 §7.1 and Python). */
class RadiusAuthenticatorsTest {

    private static final byte[] OTHER_SECRET = "another-hop".getBytes(StandardCharsets.US_ASCII);

    /** Response vector name -> the request it answers. */
    private static final Map<String, String> RESPONSES = Map.of(
            "ACCESS_ACCEPT", "ACCESS_REQUEST", "ACCESS_REJECT", "ACCESS_REQUEST",
            "ACCESS_CHALLENGE", "ACCESS_REQUEST", "ACCOUNTING_RESPONSE", "ACCOUNTING_REQUEST",
            "DISCONNECT_ACK", "DISCONNECT_REQUEST", "DISCONNECT_NAK", "DISCONNECT_REQUEST",
            "COA_ACK", "COA_REQUEST", "COA_NAK", "COA_REQUEST");

    private static final String[] REQUESTS = {
        "ACCESS_REQUEST", "ACCOUNTING_REQUEST", "STATUS_SERVER", "DISCONNECT_REQUEST", "COA_REQUEST"};

    /**
     * The thread keeps a few HMAC-MD5 instances keyed: cycling through more secrets than it keeps,
     * over heap and direct buffers, every Message-Authenticator is still the one a fresh instance
     * computes (RFC 3579 §3.2: HMAC-MD5 over the packet with the attribute's value zeroed).
     */
    @Test
    void messageAuthenticatorsStayRightAcrossManySecretsAndBufferKinds() throws Exception {
        byte[] packet = Hex.bytes(vector("STATUS_SERVER"));
        ByteBuf direct = PooledByteBufAllocator.DEFAULT.directBuffer(packet.length).writeBytes(packet);
        ByteBuf heap = Unpooled.wrappedBuffer(packet.clone());
        try {
            RadiusView directView = RadiusView.wrap(direct);
            RadiusView heapView = RadiusView.wrap(heap);
            int ma = heapView.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value());
            assertThat(ma).isPositive();
            byte[] zeroed = packet.clone();
            Arrays.fill(zeroed, ma + 2, ma + 18, (byte) 0);
            for (int round = 0; round < 3; round++) {
                for (int s = 0; s < 7; s++) {
                    byte[] secret = ("secret-" + s).getBytes(StandardCharsets.US_ASCII);
                    javax.crypto.Mac fresh = javax.crypto.Mac.getInstance("HmacMD5");
                    fresh.init(new javax.crypto.spec.SecretKeySpec(secret, "HmacMD5"));
                    byte[] expected = fresh.doFinal(zeroed);
                    assertThat(RadiusAuthenticators.messageAuthenticator(heapView, null, secret)).isEqualTo(expected);
                    assertThat(RadiusAuthenticators.messageAuthenticator(directView, null, secret)).isEqualTo(expected);
                }
            }
            // And the MD5 over a direct buffer: the same Request Authenticator as over the heap.
            assertThat(RadiusAuthenticators.requestAuthenticator(directView, RadiusVectors.SECRET))
                    .isEqualTo(RadiusAuthenticators.requestAuthenticator(heapView, RadiusVectors.SECRET));
        } finally {
            direct.release();
        }
    }

    @Test
    void verifiesEveryRequestVectorAndRejectsAWrongSecret() throws DecodeException {
        for (String name : REQUESTS) {
            ByteBuf buf = buffer(name);
            try {
                RadiusView view = RadiusView.wrap(buf);
                assertThat(RadiusAuthenticators.verifyRequest(view, RadiusVectors.SECRET)).as(name).isTrue();
                assertThat(RadiusAuthenticators.verifyRequest(view, OTHER_SECRET)).as(name).isFalse();
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void verifiesEveryResponseVectorAgainstItsRequest() throws DecodeException {
        for (Map.Entry<String, String> e : RESPONSES.entrySet()) {
            ByteBuf response = buffer(e.getKey());
            byte[] requestAuthenticator = Arrays.copyOfRange(Hex.bytes(vector(e.getValue())), 4, 20);
            try {
                RadiusView view = RadiusView.wrap(response);
                assertThat(RadiusAuthenticators.verifyResponse(view, requestAuthenticator, RadiusVectors.SECRET))
                        .as(e.getKey()).isTrue();
                assertThat(RadiusAuthenticators.verifyResponse(view, requestAuthenticator, OTHER_SECRET))
                        .as(e.getKey()).isFalse();
                assertThat(RadiusAuthenticators.verifyResponse(view, new byte[16], RadiusVectors.SECRET))
                        .as(e.getKey()).isFalse();
            } finally {
                response.release();
            }
        }
    }

    @Test
    void signingReproducesEveryVector() throws DecodeException {
        for (String name : REQUESTS) {
            byte[] expected = Hex.bytes(vector(name));
            ByteBuf buf = Unpooled.wrappedBuffer(blanked(expected));
            try {
                RadiusAuthenticators.signRequest(RadiusView.wrap(buf), RadiusVectors.SECRET);
                assertThat(ByteBufUtil.getBytes(buf)).as(name).isEqualTo(expected);
            } finally {
                buf.release();
            }
        }
        for (Map.Entry<String, String> e : RESPONSES.entrySet()) {
            byte[] expected = Hex.bytes(vector(e.getKey()));
            byte[] requestAuthenticator = Arrays.copyOfRange(Hex.bytes(vector(e.getValue())), 4, 20);
            // A direct buffer, so that the digests read through nioBuffer rather than the array.
            ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer().writeBytes(blanked(expected));
            try {
                RadiusAuthenticators.signResponse(RadiusView.wrap(buf), requestAuthenticator, RadiusVectors.SECRET);
                assertThat(ByteBufUtil.getBytes(buf)).as(e.getKey()).isEqualTo(expected);
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void rfc2865ExampleRevealsItsPasswordAndVerifiesItsAnswer() throws DecodeException {
        ByteBuf request = Unpooled.wrappedBuffer(Hex.bytes(RadiusVectors.RFC2865_ACCESS_REQUEST));
        ByteBuf accept = Unpooled.wrappedBuffer(Hex.bytes(RadiusVectors.RFC2865_ACCESS_ACCEPT));
        try {
            RadiusView req = RadiusView.wrap(request);
            int password = req.find(RadiusAttributeType.USER_PASSWORD.value());
            byte[] plain = RadiusAuthenticators.revealUserPassword(req.value(password), RadiusVectors.RFC2865_SECRET,
                    req.authenticator());
            assertThat(new String(plain, StandardCharsets.US_ASCII)).isEqualTo("arctangent");
            assertThat(RadiusAuthenticators.hideUserPassword(plain, RadiusVectors.RFC2865_SECRET, req.authenticator()))
                    .isEqualTo(req.value(password));
            assertThat(RadiusAuthenticators.verifyResponse(RadiusView.wrap(accept), req.authenticator(),
                    RadiusVectors.RFC2865_SECRET)).isTrue();
        } finally {
            request.release();
            accept.release();
        }
    }

    @Test
    void resignsAnAccessRequestForAnotherHop() throws DecodeException {
        ByteBuf buf = buffer("ACCESS_REQUEST");
        try {
            RadiusView view = RadiusView.wrap(buf);
            byte[] authenticator = view.authenticator();
            RadiusAuthenticators.resignRequest(view, 7, RadiusVectors.SECRET, OTHER_SECRET);
            assertThat(view.identifier()).isEqualTo(7);
            assertThat(view.authenticator()).isEqualTo(authenticator);
            assertThat(RadiusAuthenticators.verifyRequest(view, OTHER_SECRET)).isTrue();
            assertThat(RadiusAuthenticators.verifyRequest(view, RadiusVectors.SECRET)).isFalse();
            byte[] hidden = view.value(view.find(RadiusAttributeType.USER_PASSWORD.value()));
            assertThat(RadiusAuthenticators.revealUserPassword(hidden, OTHER_SECRET, authenticator))
                    .isEqualTo("hunter2".getBytes(StandardCharsets.US_ASCII));
        } finally {
            buf.release();
        }
    }

    @Test
    void resignsAHashedRequestAndItsResponse() throws DecodeException {
        for (String name : new String[] {"ACCOUNTING_REQUEST", "COA_REQUEST", "DISCONNECT_REQUEST"}) {
            ByteBuf buf = buffer(name);
            try {
                RadiusView view = RadiusView.wrap(buf);
                RadiusAuthenticators.resignRequest(view, 200, RadiusVectors.SECRET, OTHER_SECRET);
                assertThat(view.identifier()).isEqualTo(200);
                assertThat(RadiusAuthenticators.verifyRequest(view, OTHER_SECRET)).as(name).isTrue();
                assertThat(view.authenticator()).isEqualTo(RadiusAuthenticators.requestAuthenticator(view, OTHER_SECRET));
            } finally {
                buf.release();
            }
        }
        // The server's Access-Accept, signed for the director's request, relayed to the original client.
        ByteBuf accept = buffer("ACCESS_ACCEPT");
        try {
            RadiusView view = RadiusView.wrap(accept);
            byte[] clientAuthenticator = Hex.bytes("00112233445566778899aabbccddeeff");
            RadiusAuthenticators.resignResponse(view, 99, clientAuthenticator, OTHER_SECRET);
            assertThat(view.identifier()).isEqualTo(99);
            assertThat(RadiusAuthenticators.verifyResponse(view, clientAuthenticator, OTHER_SECRET)).isTrue();
        } finally {
            accept.release();
        }
    }

    @Test
    void rehidingWithTheSameSecretChangesNothing() throws DecodeException {
        byte[] original = Hex.bytes(RadiusVectors.ACCESS_REQUEST);
        ByteBuf buf = Unpooled.wrappedBuffer(original.clone());
        try {
            assertThat(RadiusAuthenticators.rehideUserPassword(RadiusView.wrap(buf), RadiusVectors.SECRET,
                    RadiusVectors.SECRET)).isTrue();
            assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(original);
        } finally {
            buf.release();
        }
        ByteBuf noPassword = buffer("STATUS_SERVER");
        try {
            assertThat(RadiusAuthenticators.rehideUserPassword(RadiusView.wrap(noPassword), RadiusVectors.SECRET,
                    OTHER_SECRET)).isFalse();
        } finally {
            noPassword.release();
        }
    }

    @Test
    void hidesAndRevealsPasswordsOfEveryLength() {
        byte[] authenticator = Hex.bytes("0f403f9473978057bd83d5cb98f4227a");
        for (int length : new int[] {1, 15, 16, 17, 31, 32, 100, 128}) {
            byte[] password = new byte[length];
            Arrays.fill(password, (byte) 'p');
            byte[] hidden = RadiusAuthenticators.hideUserPassword(password, RadiusVectors.SECRET, authenticator);
            assertThat(hidden.length % 16).isZero();
            assertThat(hidden.length).isBetween(16, 128);
            assertThat(RadiusAuthenticators.revealUserPassword(hidden, RadiusVectors.SECRET, authenticator))
                    .isEqualTo(password);
        }
        assertThatThrownBy(() -> RadiusAuthenticators.hideUserPassword(new byte[129], RadiusVectors.SECRET,
                authenticator)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A Message-Authenticator first (draft-ietf-radext-deprecating-radius: the first attribute of an
     * Access-Accept, -Reject or -Challenge, against BlastRADIUS): inserted after the 20-octet header
     * when absent (Length + 18, RFC 3579 §3.2; padding past the Length dropped), moved there when
     * elsewhere (padding, which RFC 2865 §3 has receivers ignore, left), the other attributes in their order; over heap and direct buffers, whose bulk copy
     * differs. Signed afterwards, it verifies.
     */
    @Test
    void aMessageAuthenticatorIsPutFirstInsertedOrMoved() throws Exception {
        byte[] request = Hex.bytes(vector("ACCESS_REQUEST"));
        byte[] requestAuthenticator = Arrays.copyOfRange(request, 4, 20);
        byte[] attributes = {18, 9, 'w', 'e', 'l', 'c', 'o', 'm', 'e', 25, 4, 'c', 'l'}; // Reply-Message, Class
        byte[] ma = new byte[18];
        ma[0] = 80;
        ma[1] = 18;
        byte[][] layouts = {attributes, concat(attributes, ma), concat(ma, attributes),
            concat(Arrays.copyOf(attributes, 9), ma, Arrays.copyOfRange(attributes, 9, 13))};
        for (byte[] layout : layouts) {
            byte[] packet = concat(new byte[] {2, 7, 0, 0}, new byte[16], layout);
            packet[3] = (byte) packet.length;
            for (boolean direct : new boolean[] {false, true}) {
                ByteBuf buf = direct ? PooledByteBufAllocator.DEFAULT.directBuffer(packet.length + 4)
                        : Unpooled.buffer(packet.length + 4);
                try {
                    buf.writeBytes(packet).writeZero(3); // padding past the Length
                    RadiusView view = RadiusAuthenticators.messageAuthenticatorFirst(RadiusView.wrap(buf));
                    RadiusAuthenticators.signResponse(view, requestAuthenticator, RadiusVectors.SECRET);
                    byte[] all = ByteBufUtil.getBytes(buf);
                    byte[] out = Arrays.copyOf(all, ((all[2] & 0xff) << 8) | (all[3] & 0xff));
                    assertThat(out).hasSize(20 + 18 + attributes.length);
                    if (layout == attributes) {
                        assertThat(all).as("inserted: the padding is gone").hasSize(out.length);
                    }
                    assertThat(out[20]).isEqualTo((byte) 80);
                    assertThat(out[21]).isEqualTo((byte) 18);
                    assertThat(Arrays.copyOfRange(out, 38, out.length)).isEqualTo(attributes);
                    byte[] zeroed = out.clone();
                    System.arraycopy(requestAuthenticator, 0, zeroed, 4, 16);
                    Arrays.fill(zeroed, 22, 38, (byte) 0);
                    javax.crypto.Mac hmac = javax.crypto.Mac.getInstance("HmacMD5");
                    hmac.init(new javax.crypto.spec.SecretKeySpec(RadiusVectors.SECRET, "HmacMD5"));
                    assertThat(Arrays.copyOfRange(out, 22, 38)).isEqualTo(hmac.doFinal(zeroed));
                    assertThat(RadiusAuthenticators.verifyResponse(RadiusView.wrap(buf), requestAuthenticator,
                            RadiusVectors.SECRET)).isTrue();
                } finally {
                    buf.release();
                }
            }
        }
    }

    @Test
    void noMessageAuthenticatorIsInsertedPastTheLargestPacket() throws Exception {
        byte[] packet = new byte[RadiusView.MAX_LENGTH - 10];
        packet[0] = 2;
        packet[2] = (byte) (packet.length >> 8);
        packet[3] = (byte) packet.length;
        for (int a = 20; a < packet.length; a += 250) {
            packet[a] = 18;
            packet[a + 1] = (byte) Math.min(250, packet.length - a);
        }
        ByteBuf buf = Unpooled.buffer().writeBytes(packet);
        assertThatThrownBy(() -> RadiusAuthenticators.messageAuthenticatorFirst(RadiusView.wrap(buf)))
                .isInstanceOf(DecodeException.class);
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** The vector with its authenticator (if hashed) and Message-Authenticator value zeroed. */
    private static byte[] blanked(byte[] packet) {
        byte[] copy = packet.clone();
        int code = copy[0] & 0xff;
        if (!RadiusCode.isRequest(code) || RadiusCode.hasHashedRequestAuthenticator(code)) {
            Arrays.fill(copy, 4, 20, (byte) 0);
        }
        for (int a = 20; a < copy.length; a += copy[a + 1] & 0xff) {
            if (copy[a] == 80) {
                Arrays.fill(copy, a + 2, a + 18, (byte) 0);
            }
        }
        return copy;
    }

    static String vector(String name) {
        return RadiusVectors.ALL.get(name);
    }

    private static ByteBuf buffer(String name) {
        return Unpooled.wrappedBuffer(Hex.bytes(vector(name)));
    }
}
