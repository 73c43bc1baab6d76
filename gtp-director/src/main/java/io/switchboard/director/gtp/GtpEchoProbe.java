package io.switchboard.director.gtp;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpEcho;
import io.switchboard.director.probe.Probe;
import io.switchboard.director.probe.ProbeExchange;
import io.switchboard.director.probe.RealRestartListener;
import io.switchboard.director.spi.RealView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A GTP Echo probe: the real passes when it answers an Echo Request with an Echo Response of the same
 * version and sequence number. The Recovery value of each real's answers is remembered; a different
 * value in a later answer means the real restarted (TS 23.007 §18), which the listener is told.
 */
final class GtpEchoProbe implements Probe {

    private final Vertx vertx;
    private final GtpEchoCheck check;
    private final long timeoutMillis;
    private final RealRestartListener restarts;
    private final AtomicInteger sequence = new AtomicInteger(ThreadLocalRandom.current().nextInt(1 << 16));
    /** The last Recovery value each real answered with. */
    private final Map<RealView, Integer> recoveries = new ConcurrentHashMap<>();

    GtpEchoProbe(Vertx vertx, GtpEchoCheck check, Duration timeout, RealRestartListener restarts) {
        this.vertx = vertx;
        this.check = check;
        this.timeoutMillis = timeout.toMillis();
        this.restarts = restarts;
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        return check(null, target);
    }

    @Override
    public Future<Void> check(RealView real, InetSocketAddress target) {
        int seq = sequence.getAndIncrement() & (check.version() == 1 ? 0xFFFF : 0xFF_FFFF);
        byte[] request = GtpEcho.request(check.version(), seq, check.recovery());
        return ProbeExchange.exchange(vertx, target, request, timeoutMillis, "no Echo Response", (answer, result) -> {
            int recovery;
            try {
                recovery = GtpEcho.responseRecovery(Unpooled.wrappedBuffer(answer), check.version(), seq);
            } catch (DecodeException e) {
                result.tryFail("malformed Echo Response: " + e.getMessage());
                return;
            }
            if (recovery >= 0 && result.tryComplete() && real != null) {
                observe(real, recovery);
            }
        });
    }

    private void observe(RealView real, int recovery) {
        Integer previous = recoveries.put(real, recovery);
        if (previous != null && previous != recovery) {
            restarts.restarted(real, previous, recovery, check.purgeOnRestart());
        }
    }

    /** The Recovery value {@code real} last answered with, or -1 before its first answer. */
    int recovery(RealView real) {
        return recoveries.getOrDefault(real, -1);
    }
}
