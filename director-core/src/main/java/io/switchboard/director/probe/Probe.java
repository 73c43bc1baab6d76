package io.switchboard.director.probe;

import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;

/** One health check, run asynchronously on Vert.x against one real at a time. */
public interface Probe {

    /** Succeeds when the target passes; fails, with the reason as message, when it does not in time. */
    Future<Void> check(InetSocketAddress target);

    /**
     * {@link #check(InetSocketAddress)} for probes that need more of the real than its address (a
     * RADIUS probe without a secret of its own uses the real's {@code secret}). The scheduler calls
     * this one; by default it ignores the real.
     */
    default Future<Void> check(io.switchboard.director.real.RealServer real, InetSocketAddress target) {
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
        ProbeCheck check = config.check();
        if (check instanceof ProbeCheck.GtpEcho gtp) {
            return new GtpEchoProbe(vertx, gtp, config.timeout(), restarts);
        } else if (check instanceof ProbeCheck.Http http) {
            return new HttpProbe(vertx, http, config.timeout());
        } else if (check instanceof ProbeCheck.Dns dns) {
            return new DnsProbe(vertx, dns, config.timeout());
        } else if (check instanceof ProbeCheck.Udp udp) {
            return new UdpProbe(vertx, udp, config.timeout());
        } else if (check instanceof ProbeCheck.Radius radius) {
            return new RadiusProbe(vertx, radius, config.timeout());
        } else if (check instanceof ProbeCheck.MobileIp mip) {
            return new MobileIpProbe(vertx, mip, config.timeout());
        } else if (check instanceof ProbeCheck.TcpConnect) {
            return new TcpConnectProbe(vertx, config.timeout());
        }
        return new PingProbe(vertx, config.timeout());
    }
}
