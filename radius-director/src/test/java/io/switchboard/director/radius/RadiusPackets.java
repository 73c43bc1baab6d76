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
