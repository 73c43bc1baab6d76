package io.switchboard.director.probe;

import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.spi.RealView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;

/** One health check, run asynchronously on Vert.x against one real at a time. */
public interface Probe {

    /** Succeeds when the target passes; fails, with the reason as message, when it does not in time. */
    Future<Void> check(InetSocketAddress target);

    /**
     * {@link #check(InetSocketAddress)} for probes that need more of the real than its address (a
     * RADIUS probe without a secret of its own uses the real's; a GTP Echo probe remembers each
     * real's restart counter). The scheduler calls this one; by default it ignores the real.
     */
    default Future<Void> check(RealView real, InetSocketAddress target) {
        return check(target);
    }

    /** Releases sockets and clients. */
    default void close() {
    }

    static Probe create(Vertx vertx, ProbeConfig config) {
        return create(vertx, config, RealRestartListener.NONE);
    }

    /** @param restarts told when a probe that tracks restart counters (GTP Echo) sees one change */
    static Probe create(Vertx vertx, ProbeConfig config, RealRestartListener restarts) {
        return config.check().probe(vertx, config.timeout(), restarts);
    }
}
