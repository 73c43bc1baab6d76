package io.switchboard.director.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.config.ProbeCheck;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramSocket;
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

    private final Vertx vertx;
    private final ProbeCheck.Radius check;
    /** The probe's own secret; empty for each real's. */
    private final byte[] secret;
    private final long timeoutMillis;

    RadiusProbe(Vertx vertx, ProbeCheck.Radius check, Duration timeout) {
        this.vertx = vertx;
        this.check = check;
        this.secret = check.secret().getBytes(StandardCharsets.UTF_8);
        this.timeoutMillis = timeout.toMillis();
    }

    /** The request to send, signed; {@code authenticator} receives its Request Authenticator. */
    byte[] request(int identifier, byte[] authenticator) {
        return request(identifier, authenticator, secret);
    }

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
    String verdict(byte[] answer, int identifier, byte[] authenticator) {
        return verdict(answer, identifier, authenticator, secret);
    }

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

    @Override
    public Future<Void> check(InetSocketAddress target) {
        if (secret.length == 0) {
            return Future.failedFuture("no secret: give the probe a secret, or the real one");
        }
        return check(target, secret);
    }

    @Override
    public Future<Void> check(io.switchboard.director.real.RealServer real, InetSocketAddress target) {
        if (secret.length > 0) {
            return check(target, secret);
        }
        return real.secret().map(s -> check(target, s.getBytes(StandardCharsets.UTF_8)))
                .orElseGet(() -> Future.failedFuture("no secret: give the probe a secret, or the real one"));
    }

    private Future<Void> check(InetSocketAddress target, byte[] secret) {
        int identifier = RANDOM.nextInt(256);
        byte[] authenticator = new byte[16];
        byte[] request = request(identifier, authenticator, secret);
        DatagramSocket socket = vertx.createDatagramSocket();
        Promise<Void> result = Promise.promise();
        socket.handler(packet -> {
            if (!packet.sender().host().equals(target.getAddress().getHostAddress())) {
                return;
            }
            String verdict = verdict(packet.data().getBytes(), identifier, authenticator, secret);
            if (verdict == null) {
                result.tryComplete();
            } else {
                result.tryFail(verdict);
            }
        });
        long timer = vertx.setTimer(timeoutMillis, t -> result.tryFail("no answer within " + timeoutMillis + " ms"));
        String bind = target.getAddress() instanceof java.net.Inet6Address ? "::" : "0.0.0.0";
        socket.listen(0, bind)
                .compose(s -> s.send(Buffer.buffer(request), target.getPort(), target.getAddress().getHostAddress()))
                .onFailure(result::tryFail);
        return result.future().eventually(() -> {
            vertx.cancelTimer(timer);
            return socket.close();
        });
    }
}
