package io.switchboard.director.probe;

import io.switchboard.director.config.ProbeCheck;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;

/** Sends configured bytes to the real, which must answer with a datagram starting with the expected ones. */
public final class UdpProbe implements Probe {

    private final Vertx vertx;
    private final ProbeCheck.Udp check;
    private final long timeoutMillis;

    public UdpProbe(Vertx vertx, ProbeCheck.Udp check, Duration timeout) {
        this.vertx = vertx;
        this.check = check;
        this.timeoutMillis = timeout.toMillis();
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        byte[] expect = check.expect();
        return ProbeExchange.exchange(vertx, target, check.send(), timeoutMillis, "no answer", (got, result) -> {
            if (got.length >= expect.length && Arrays.equals(got, 0, expect.length, expect, 0, expect.length)) {
                result.tryComplete();
            } else {
                result.tryFail("unexpected answer of " + got.length + " bytes");
            }
        });
    }
}
