package io.switchboard.director.radius;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.real.RealState;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.FarmView;
import io.switchboard.director.spi.RealView;
import java.util.List;

/**
 * Status-Server (RFC 5997) sent to the virtual server: answered by the director itself, from its own
 * view, and never forwarded to a real (a proxy answers Status-Server for itself, RFC 5997). The answer says "this
 * director can serve you": it is sent only while some real of the farm is in service, so that a NAS
 * whose director has no real left hears nothing and fails over to another director, as it would for
 * a dead server.
 *
 * <p>An Access-Accept on an authentication port, an Accounting-Response on an accounting port
 * (RFC 5997 §4 and §5), each with a Message-Authenticator computed over the Status-Server's Request
 * Authenticator, which also signs the Response Authenticator (RFC 5997 §3). A Status-Server without
 * Message-Authenticator, or whose Message-Authenticator does not verify with the client's secret, is
 * silently discarded (RFC 5997 §3). Which kind of port the virtual server is comes from
 * {@code radius: status-server:} ({@link RadiusOptions.StatusServerPort}).
 */
final class StatusServer {

    /** RFC 5997 §3: a Status-Server MUST carry a Message-Authenticator; one without is discarded. */
    static final DropReason NO_MESSAGE_AUTHENTICATOR = DropReason.of("radius-status-server-no-message-authenticator");
    /** No real of the farm serves: silence, so that the NAS fails over to another director. */
    static final DropReason NO_REAL_SERVES = DropReason.of("radius-status-server-no-real-serves");

    /** Access-Accept or Accounting-Response; null when Status-Server is not answered ({@code off}). */
    private final RadiusCode answerCode;
    private final FarmView farm;
    private final Counter answered;
    private final Counter unanswered;

    StatusServer(RadiusOptions.StatusServerPort port, int listenPort, FarmView farm, MeterRegistry registry,
            String vserver) {
        this.answerCode = switch (port.resolve(listenPort)) {
            case ACCESS -> RadiusCode.ACCESS_ACCEPT;
            case ACCOUNTING -> RadiusCode.ACCOUNTING_RESPONSE;
            default -> null;
        };
        this.farm = farm;
        this.answered = RadiusMeters.STATUS_SERVER.counter().tag("vserver", vserver).tag("outcome", "answered")
                .register(registry);
        this.unanswered = RadiusMeters.STATUS_SERVER.counter().tag("vserver", vserver)
                .tag("outcome", "no-real-serves").register(registry);
    }

    /** The answer to a known client's Status-Server signed with its {@code secret}, or why there is none. */
    Decision answer(RadiusView request, byte[] secret, ByteBufAllocator alloc) throws DecodeException {
        if (answerCode == null) {
            throw new DecodeException(DropReason.UNEXPECTED_MESSAGE,
                    "Status-Server is not answered by this virtual server (status-server: off)");
        }
        if (request.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value()) < 0) {
            throw new DecodeException(NO_MESSAGE_AUTHENTICATOR, "Status-Server without Message-Authenticator");
        }
        if (!RadiusAuthenticators.verifyRequest(request, secret)) {
            throw new DecodeException(RadiusPlugin.BAD_MESSAGE_AUTHENTICATOR,
                    "Message-Authenticator does not verify with the client's secret");
        }
        if (!anyRealServes()) {
            unanswered.increment();
            return new Decision.Drop(NO_REAL_SERVES, "no real of farm " + farm.name() + " serves");
        }
        byte[] authenticator = request.authenticator();
        ByteBuf out = alloc.buffer(RadiusView.HEADER_LENGTH + RadiusView.MESSAGE_AUTHENTICATOR_LENGTH);
        new DefaultRadiusPacket(answerCode, request.identifier(), authenticator, List.of(
                new RadiusAttribute(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value(), new byte[16]))).encode(out);
        RadiusAuthenticators.signResponse(RadiusView.wrap(out), authenticator, secret);
        answered.increment();
        return new Decision.AnswerLocally(out);
    }

    /** A real in service: taking new work, or only throttled (not failed, out of service, draining or on test). */
    private boolean anyRealServes() {
        for (RealView real : farm.reals()) {
            RealState s = real.state();
            if (s == RealState.OPERATIONAL || s == RealState.MAXCONNS_THROTTLED || s == RealState.MAXCLIENTS_THROTTLED
                    || s == RealState.DFP_THROTTLED) {
                return true;
            }
        }
        return false;
    }
}
