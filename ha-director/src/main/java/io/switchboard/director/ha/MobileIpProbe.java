package io.switchboard.director.ha;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.mip.MipAuthenticators;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.director.probe.Probe;
import io.switchboard.director.probe.ProbeExchange;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The Home Agent Director's probe (IOS {@code probe} for Mobile IP): a deregistering Registration
 * Request for a probe mobile node, signed with its MN-HA key; the real passes when it answers a
 * Registration Reply with the same Identification (low-order 32 bits, RFC 5944 §5.7) and the expected
 * code.
 */
final class MobileIpProbe implements Probe {

    /** Seconds from 1900 (NTP era 0) to 1970. */
    private static final long NTP_UNIX_OFFSET = 2_208_988_800L;

    private final Vertx vertx;
    private final MobileIpCheck check;
    private final long timeoutMillis;

    MobileIpProbe(Vertx vertx, MobileIpCheck check, Duration timeout) {
        this.vertx = vertx;
        this.check = check;
        this.timeoutMillis = timeout.toMillis();
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        if (!(target.getAddress() instanceof Inet4Address)) {
            return Future.failedFuture("Mobile IPv4 probe needs an IPv4 real");
        }
        long identification = ntpNow();
        byte[] request = registrationRequest(check, check.homeAgent().orElse(target.getAddress()), identification);
        return ProbeExchange.exchange(vertx, target, request, timeoutMillis, "no Registration Reply",
                (answer, result) -> {
                    try {
                        MipHeaderView view = MipHeaderView.wrap(Unpooled.wrappedBuffer(answer));
                        if (view.isRequest() || (int) view.identification() != (int) identification) {
                            return; // not the answer to this probe
                        }
                        if (view.code() == check.expectCode()) {
                            result.tryComplete();
                        } else {
                            result.tryFail("Registration Reply code " + view.code() + ", expected "
                                    + check.expectCode());
                        }
                    } catch (DecodeException e) {
                        result.tryFail("malformed answer: " + e.getMessage());
                    }
                });
    }

    /** The current time as an NTP time stamp (RFC 5944 §5.7.1 time-stamp Identification). */
    static long ntpNow() {
        long millis = System.currentTimeMillis();
        long seconds = millis / 1000 + NTP_UNIX_OFFSET;
        long fraction = ((millis % 1000) << 32) / 1000;
        return (seconds << 32) | fraction;
    }

    /** RRQ: deregistration (lifetime 0, care-of = home address), MN-NAI if configured, MN-HA authentication. */
    static byte[] registrationRequest(MobileIpCheck check, InetAddress homeAgent, long identification) {
        byte[] nai = check.nai().map(n -> n.getBytes(StandardCharsets.UTF_8)).orElse(new byte[0]);
        int naiLength = check.nai().isPresent() ? 2 + nai.length : 0;
        ByteBuffer out = ByteBuffer.allocate(MipHeaderView.REQUEST_LENGTH + naiLength + 2 + 4 + 16);
        byte[] home = check.homeAddress().getAddress();
        out.put((byte) 1).put((byte) 0).putShort((short) 0).put(home).put(homeAgent.getAddress()).put(home)
                .putLong(identification);
        if (check.nai().isPresent()) {
            out.put((byte) MipExtensionType.MN_NAI.value()).put((byte) nai.length).put(nai);
        }
        int auth = out.position();
        out.put((byte) MipExtensionType.MN_HA_AUTHENTICATION.value()).put((byte) 20).putInt((int) check.spi());
        try {
            MipAuthenticators.sign(MipHeaderView.wrap(Unpooled.wrappedBuffer(out.array())), auth, check.key());
        } catch (DecodeException e) {
            throw new IllegalStateException("a probe request that does not decode", e);
        }
        return out.array();
    }
}
