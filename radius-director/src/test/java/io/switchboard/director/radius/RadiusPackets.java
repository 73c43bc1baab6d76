package io.switchboard.director.radius;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Test packets, signed as a NAS (or a server) would. */
final class RadiusPackets {

    /**
     * Batch buffers without the paranoid leak detector's record of every access, which would make the
     * fuzz tests' hundred thousand accesses per run take a minute; their slices behave the same.
     */
    private static final io.netty.buffer.ByteBufAllocator UNTRACKED =
            new io.netty.buffer.UnpooledByteBufAllocator(true, true);

    private RadiusPackets() {
    }

    static byte[] randomAuthenticator() {
        byte[] a = new byte[16];
        ThreadLocalRandom.current().nextBytes(a);
        return a;
    }

    static RadiusAttribute text(RadiusAttributeType type, String value) {
        return RadiusAttribute.text(type, value);
    }

    static RadiusAttribute messageAuthenticator() {
        return new RadiusAttribute(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value(), new byte[16]);
    }

    /** An Access-Request with a hidden User-Password, signed (Message-Authenticator if present). */
    static ByteBuf accessRequest(int id, String secret, String user, String password, List<RadiusAttribute> more) {
        byte[] authenticator = randomAuthenticator();
        List<RadiusAttribute> attributes = new ArrayList<>();
        attributes.add(text(RadiusAttributeType.USER_NAME, user));
        attributes.add(new RadiusAttribute(RadiusAttributeType.USER_PASSWORD.value(), RadiusAuthenticators
                .hideUserPassword(password.getBytes(StandardCharsets.UTF_8), bytes(secret), authenticator)));
        attributes.addAll(more);
        return signed(RadiusCode.ACCESS_REQUEST, id, authenticator, attributes, secret);
    }

    static ByteBuf accountingRequest(int id, String secret, List<RadiusAttribute> attributes) {
        return signed(RadiusCode.ACCOUNTING_REQUEST, id, new byte[16], attributes, secret);
    }

    static ByteBuf signed(RadiusCode code, int id, byte[] authenticator, List<RadiusAttribute> attributes,
            String secret) {
        ByteBuf buf = Unpooled.buffer();
        new DefaultRadiusPacket(code, id, authenticator, attributes).encode(buf);
        RadiusAuthenticators.signRequest(view(buf), bytes(secret));
        return buf;
    }

    /** An answer to {@code request} (as forwarded), signed with {@code secret}. */
    static ByteBuf answer(RadiusCode code, ByteBuf request, String secret, List<RadiusAttribute> attributes) {
        RadiusView req = view(request);
        ByteBuf buf = Unpooled.buffer();
        new DefaultRadiusPacket(code, req.identifier(), new byte[16], attributes).encode(buf);
        RadiusAuthenticators.signResponse(view(buf), req.authenticator(), bytes(secret));
        return buf;
    }

    /**
     * Signs {@code bytes} in place as a request with {@code secret}, as a client holding the secret
     * would sign whatever it sends, if they still parse as a RADIUS packet; false otherwise.
     */
    static boolean resignRequest(byte[] bytes, String secret) {
        return resign(bytes, view -> RadiusAuthenticators.signRequest(view, bytes(secret)));
    }

    /** {@link #resignRequest} for an answer to the request whose authenticator is {@code requestAuthenticator}. */
    static boolean resignResponse(byte[] bytes, byte[] requestAuthenticator, String secret) {
        return resign(bytes, view -> RadiusAuthenticators.signResponse(view, requestAuthenticator, bytes(secret)));
    }

    private static boolean resign(byte[] bytes, java.util.function.Consumer<RadiusView> sign) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            sign.accept(RadiusView.wrap(buf));
            return true;
        } catch (DecodeException e) {
            return false;
        } finally {
            buf.release();
        }
    }

    /**
     * A datagram as the director holds it on Linux: the engine reads with recvmmsg
     * (UdpDirectorVerticle: epoll, MAX_DATAGRAM_PAYLOAD_SIZE of max-datagram + 1 per slot), and Netty's
     * NativeDatagramPacket hands each datagram over as a retained slice of the batch buffer, exactly as
     * long as the datagram, which therefore cannot grow. Release it.
     */
    static ByteBuf recvmmsgSlice(byte[] bytes) {
        int slot = RadiusView.MAX_LENGTH + 1;
        ByteBuf batch = UNTRACKED.directBuffer(2 * slot);
        try {
            batch.writerIndex(slot); // the previous datagram's slot
            batch.writeBytes(bytes);
            return batch.retainedSlice(slot, bytes.length);
        } finally {
            batch.release();
        }
    }

    static RadiusView view(ByteBuf buf) {
        try {
            return RadiusView.wrap(buf);
        } catch (DecodeException e) {
            throw new AssertionError(e);
        }
    }

    static byte[] bytes(String secret) {
        return secret.getBytes(StandardCharsets.UTF_8);
    }
}
