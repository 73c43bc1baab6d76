package io.switchboard.director.radius;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.radius.RadiusOptions.Tristate;
import io.switchboard.director.spi.RealView;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The BlastRADIUS defences (CVE-2024-3596) of one virtual server, as FreeRADIUS 3.2.5 has them: which
 * Access-Requests a client must sign with a Message-Authenticator, and which Access-Accept, -Reject and
 * -Challenge a real must. The attack forges an answer by a chosen-prefix MD5 collision that it smuggles
 * into the request as Proxy-State (which the server echoes); the Response Authenticator, an MD5, then
 * still verifies, but a Message-Authenticator (HMAC-MD5 keyed with the secret, RFC 3579 §3.2, RFC 2869
 * §5.14) cannot be forged that way.
 *
 * <ul>
 *   <li>{@code require-message-authenticator} (per client entry, and per real): {@code true} drops what
 *       lacks one; {@code auto} (FreeRADIUS 3.2.5's default) turns into {@code true} for the peer the
 *       first time it sends one, logged, and stays so; {@code false} checks nothing. A Message-
 *       Authenticator that is present is always verified (RFC 3579 §3.2: "MUST be silently
 *       discarded").</li>
 *   <li>{@code limit-proxy-state} (per client entry; a real sends no Proxy-State of its own): an
 *       Access-Request with Proxy-State but no Message-Authenticator is dropped. A NAS never sends
 *       Proxy-State (RFC 2865 §5.33: proxies add it), so one that does carries the attack. {@code auto}
 *       (FreeRADIUS 3.2.5's default) lets the client's first Access-Request decide: with Proxy-State and
 *       no Message-Authenticator the client is an old proxy that does not sign, and the limit stays off
 *       (logged as a warning); otherwise it turns on (logged).</li>
 * </ul>
 *
 * <p>What is learned is kept per client entry (an entry may be a subnet: FreeRADIUS keeps it per
 * client definition too) and per real (by {@link RealView#slot()}, as the real secrets are), in this
 * node's memory: after a restart "auto" learns again. Shared by all event loops of the virtual server.
 */
final class MessageAuthenticatorPolicy {

    /** An Access-Request, or an answer to one, without the Message-Authenticator its peer must send. */
    static final DropReason MISSING = DropReason.of("radius-missing-message-authenticator");
    /** An Access-Request with Proxy-State but no Message-Authenticator, from a client limited so. */
    static final DropReason UNSIGNED_PROXY_STATE = DropReason.of("radius-proxy-state-without-message-authenticator");

    private static final Logger LOG = LoggerFactory.getLogger(MessageAuthenticatorPolicy.class);

    /** Per client entry, what "auto" learned: these bits. */
    private static final int REQUIRED = 1;
    private static final int LIMIT_DECIDED = 2;
    private static final int LIMITED = 4;

    private final String name;
    private final RadiusOptions.Client[] clients;
    private final AtomicIntegerArray learned;
    /** Slots of the reals whose "auto" turned on. */
    private final Set<Integer> signingReals = ConcurrentHashMap.newKeySet();

    /** Answers refused for want of a Message-Authenticator. */
    private final Counter refusedAnswers;

    /** @param clients the virtual server's client entries, in the order the plug-in indexes them */
    MessageAuthenticatorPolicy(String name, RadiusOptions.Client[] clients, MeterRegistry registry) {
        this.name = name;
        this.clients = clients.clone();
        this.learned = new AtomicIntegerArray(clients.length);
        this.refusedAnswers = RadiusMeters.ANSWERS_REFUSED.counter().tag("vserver", name)
                .tag("reason", MISSING.name()).register(registry);
    }

    /**
     * Admits an Access-Request of client entry {@code client} whose Message-Authenticator, if any,
     * verified; other codes pass (Accounting-Request has none to require: RFC 2866 signs it whole).
     */
    void admitRequest(int client, RadiusView request, boolean signed) throws DecodeException {
        if (request.code() != RadiusCode.ACCESS_REQUEST.value()) {
            return;
        }
        RadiusOptions.Client entry = clients[client];
        if (signed) {
            if (entry.requireMessageAuthenticator() == Tristate.AUTO && learn(client, REQUIRED)) {
                LOG.info("virtual server {}: client {} sent a Message-Authenticator: require-message-authenticator"
                        + " is now true for it", name, entry.label());
            }
            if (entry.limitProxyState() == Tristate.AUTO && decideLimit(client, true)) {
                LOG.info("virtual server {}: client {} signs its Access-Requests: limit-proxy-state is now true"
                        + " for it", name, entry.label());
            }
            return;
        }
        if (required(entry.requireMessageAuthenticator(), client)) {
            throw new DecodeException(MISSING, "Access-Request without Message-Authenticator from " + entry.label()
                    + ", which must send one (require-message-authenticator)");
        }
        boolean proxyState = request.find(RadiusAttributeType.PROXY_STATE.value()) >= 0;
        if (entry.limitProxyState() == Tristate.AUTO && decideLimit(client, !proxyState)) {
            if (proxyState) {
                LOG.warn("virtual server {}: client {} sent Proxy-State without Message-Authenticator in its first"
                        + " Access-Request: a proxy that does not sign, so limit-proxy-state stays false for it"
                        + " (BlastRADIUS: make it sign, then set require-message-authenticator: true)",
                        name, entry.label());
            } else {
                LOG.info("virtual server {}: client {} sent no Proxy-State in its first Access-Request:"
                        + " limit-proxy-state is now true for it", name, entry.label());
            }
        }
        if (proxyState && limited(client, entry.limitProxyState())) {
            throw new DecodeException(UNSIGNED_PROXY_STATE, "Access-Request with Proxy-State but no"
                    + " Message-Authenticator from " + entry.label() + " (limit-proxy-state)");
        }
    }

    /**
     * Admits an answer of {@code real} to an Access-Request, its authenticators verified: it must carry
     * a Message-Authenticator when the real must send one. Other codes pass.
     */
    void admitAnswer(RealView real, RadiusView answer) throws DecodeException {
        if (!RadiusCode.isAccessAnswer(answer.code())) {
            return;
        }
        Tristate mode = real.value(RadiusModule.REQUIRE_MESSAGE_AUTHENTICATOR).orElse(RadiusOptions.DEFAULT_REQUIRE);
        if (mode == Tristate.OFF) {
            return;
        }
        boolean signed = answer.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value()) >= 0;
        if (signed) {
            if (mode == Tristate.AUTO && signingReals.add(real.slot())) {
                LOG.info("virtual server {}: real {} sent a Message-Authenticator: require-message-authenticator is now"
                        + " true for it", name, real.id());
            }
            return;
        }
        if (mode == Tristate.ON || signingReals.contains(real.slot())) {
            refusedAnswers.increment();
            throw new DecodeException(MISSING, RadiusCode.valueOf(answer.code()) + " without Message-Authenticator from "
                    + real.id() + ", which must send one");
        }
    }

    private boolean required(Tristate mode, int client) {
        return mode == Tristate.ON || mode == Tristate.AUTO && (learned.get(client) & REQUIRED) != 0;
    }

    private boolean limited(int client, Tristate mode) {
        return mode == Tristate.ON || mode == Tristate.AUTO && (learned.get(client) & LIMITED) != 0;
    }

    /** "auto" decides once, at the client's first Access-Request; true if this call decided. */
    private boolean decideLimit(int client, boolean limit) {
        return (learned.get(client) & LIMIT_DECIDED) == 0 && learn(client, limit ? LIMIT_DECIDED | LIMITED : LIMIT_DECIDED);
    }

    /** Sets {@code bits} for the client entry; true if this call set them (the first to). */
    private boolean learn(int client, int bits) {
        while (true) {
            int old = learned.get(client);
            if ((old & bits) == bits || (bits & LIMIT_DECIDED) != 0 && (old & LIMIT_DECIDED) != 0) {
                return false;
            }
            if (learned.compareAndSet(client, old, old | bits)) {
                return true;
            }
        }
    }
}
