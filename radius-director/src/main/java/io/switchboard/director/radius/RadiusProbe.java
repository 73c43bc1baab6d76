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
import io.switchboard.director.probe.Probe;
import io.switchboard.director.probe.ProbeExchange;
import io.switchboard.director.spi.RealView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A RADIUS probe: Status-Server (RFC 5997) expecting a verified Access-Accept, or an Access-Request
 * expecting a verified Access-Accept or Access-Reject.
 */
final class RadiusProbe implements Probe {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String NO_SECRET = "no secret: give the probe a secret, or the real one";

    private final Vertx vertx;
    private final RadiusCheck check;
    /** The probe's own secret; empty for each real's. */
    private final byte[] secret;
    private final long timeoutMillis;

    RadiusProbe(Vertx vertx, RadiusCheck check, Duration timeout) {
        this.vertx = vertx;
        this.check = check;
        this.secret = check.secret().getBytes(StandardCharsets.UTF_8);
        this.timeoutMillis = timeout.toMillis();
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        return secret.length == 0 ? Future.failedFuture(NO_SECRET) : check(target, secret);
    }

    @Override
    public Future<Void> check(RealView real, InetSocketAddress target) {
        if (secret.length > 0) {
            return check(target, secret);
        }
        return real.value(RadiusModule.SECRET).map(s -> check(target, s.getBytes(StandardCharsets.UTF_8)))
                .orElseGet(() -> Future.failedFuture(NO_SECRET));
    }

    private Future<Void> check(InetSocketAddress target, byte[] secret) {
        int identifier = RANDOM.nextInt(256);
        byte[] authenticator = new byte[16];
        byte[] request = request(identifier, authenticator, secret);
        return ProbeExchange.exchange(vertx, target, request, timeoutMillis, "no answer", (answer, result) -> {
            String verdict = verdict(answer, identifier, authenticator, secret);
            if (verdict == null) {
                result.tryComplete();
            } else {
                result.tryFail(verdict);
            }
        });
    }

    /** The request to send, signed; {@code authenticator} receives its Request Authenticator. */
    private byte[] request(int identifier, byte[] authenticator, byte[] secret) {
        RANDOM.nextBytes(authenticator);
        List<RadiusAttribute> attributes = new ArrayList<>();
        RadiusCode code = RadiusCode.STATUS_SERVER;
        if (check.user().isPresent()) {
            code = RadiusCode.ACCESS_REQUEST;
            attributes.add(RadiusAttribute.text(RadiusAttributeType.USER_NAME, check.user().get()));
            attributes.add(new RadiusAttribute(RadiusAttributeType.USER_PASSWORD.value(), RadiusAuthenticators
                    .hideUserPassword(check.password().orElse("").getBytes(StandardCharsets.UTF_8), secret,
                            authenticator)));
        }
        attributes.add(new RadiusAttribute(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value(), new byte[16]));
        ByteBuf buf = Unpooled.buffer();
        new DefaultRadiusPacket(code, identifier, authenticator, attributes).encode(buf);
        try {
            RadiusAuthenticators.signRequest(RadiusView.wrap(buf), secret);
        } catch (DecodeException e) {
            throw new IllegalStateException(e);
        }
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        return out;
    }

    /** Null when {@code answer} passes, else why not. */
    private String verdict(byte[] answer, int identifier, byte[] authenticator, byte[] secret) {
        RadiusView view;
        try {
            view = RadiusView.wrap(Unpooled.wrappedBuffer(answer));
        } catch (DecodeException e) {
            return "malformed answer: " + e.getMessage();
        }
        if (view.identifier() != identifier) {
            return "answer for identifier " + view.identifier() + ", not " + identifier;
        }
        if (!RadiusAuthenticators.verifyResponse(view, authenticator, secret)) {
            return "answer does not verify with the probe's secret";
        }
        int code = view.code();
        boolean accepted = code == RadiusCode.ACCESS_ACCEPT.value()
                || (check.user().isPresent() && code == RadiusCode.ACCESS_REJECT.value());
        return accepted ? null : "unexpected " + RadiusCode.valueOf(code);
    }
}
