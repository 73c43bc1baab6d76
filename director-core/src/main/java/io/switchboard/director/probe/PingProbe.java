package io.switchboard.director.probe;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * ICMP echo through {@link java.net.InetAddress#isReachable}: a real ICMP echo when the JVM may open
 * raw sockets (root, or CAP_NET_RAW), otherwise the JDK falls back to a TCP connection to port 7.
 * It blocks, so it runs on a worker thread.
 */
public final class PingProbe implements Probe {

    private final Vertx vertx;
    private final int timeoutMillis;

    public PingProbe(Vertx vertx, Duration timeout) {
        this.vertx = vertx;
        this.timeoutMillis = (int) timeout.toMillis();
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        return vertx.executeBlocking(() -> target.getAddress().isReachable(timeoutMillis), false)
                .compose(reachable -> reachable ? Future.succeededFuture()
                        : Future.failedFuture("no echo reply within " + timeoutMillis + " ms"));
    }
}
