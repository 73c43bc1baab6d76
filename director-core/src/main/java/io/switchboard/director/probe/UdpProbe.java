package io.switchboard.director.probe;

import io.switchboard.director.config.ProbeCheck;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;

/** Sends configured bytes to the real, which must answer with a datagram starting with the expected ones. */
final class UdpProbe implements Probe {

    private final Vertx vertx;
    private final ProbeCheck.Udp check;
    private final long timeoutMillis;

    UdpProbe(Vertx vertx, ProbeCheck.Udp check, Duration timeout) {
        this.vertx = vertx;
        this.check = check;
        this.timeoutMillis = timeout.toMillis();
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        DatagramSocket socket = vertx.createDatagramSocket();
        Promise<Void> result = Promise.promise();
        byte[] expect = check.expect();
        socket.handler(packet -> {
            if (!packet.sender().host().equals(target.getAddress().getHostAddress())) {
                return;
            }
            byte[] got = packet.data().getBytes();
            if (got.length >= expect.length && Arrays.equals(got, 0, expect.length, expect, 0, expect.length)) {
                result.tryComplete();
            } else {
                result.tryFail("unexpected answer of " + got.length + " bytes");
            }
        });
        long timer = vertx.setTimer(timeoutMillis, t -> result.tryFail("no answer within " + timeoutMillis + " ms"));
        String bind = target.getAddress() instanceof java.net.Inet6Address ? "::" : "0.0.0.0";
        socket.listen(0, bind)
                .compose(s -> s.send(Buffer.buffer(check.send()), target.getPort(), target.getAddress().getHostAddress()))
                .onFailure(result::tryFail);
        return result.future().eventually(() -> {
            vertx.cancelTimer(timer);
            return socket.close();
        });
    }
}
