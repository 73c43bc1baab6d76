package io.switchboard.director.config;

import io.switchboard.director.probe.DnsProbe;
import io.switchboard.director.probe.HttpProbe;
import io.switchboard.director.probe.PingProbe;
import io.switchboard.director.probe.Probe;
import io.switchboard.director.probe.RealRestartListener;
import io.switchboard.director.probe.TcpConnectProbe;
import io.switchboard.director.probe.UdpProbe;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * What a probe checks, one record per probe type, each creating the probe that runs it. The
 * engine's generic checks are here; a plug-in's (RADIUS, Mobile IP, GTP Echo) live in its module,
 * bound by the {@link io.switchboard.director.spi.ProbeType} it declares.
 */
public interface ProbeCheck {

    /** The type name in the configuration. */
    String type();

    /**
     * The probe running this check.
     *
     * @param timeout  how long one check waits for its answer
     * @param restarts told when a probe that tracks restart counters (GTP Echo) sees one change
     */
    Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts);

    /** Zombie and dead reals as FreeRADIUS's status checks judge them; empty (the default) for none. */
    default Optional<ZombieChecks> zombies() {
        return Optional.empty();
    }

    /** ICMP echo (IOS {@code probe ping}). */
    record Ping() implements ProbeCheck {
        @Override
        public String type() {
            return "ping";
        }

        @Override
        public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
            return new PingProbe(vertx, timeout);
        }
    }

    /** A TCP connection is accepted. */
    record TcpConnect() implements ProbeCheck {
        @Override
        public String type() {
            return "tcp";
        }

        @Override
        public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
            return new TcpConnectProbe(vertx, timeout);
        }
    }

    /**
     * An HTTP GET answered with the expected status (IOS {@code expect status}; 401 for a
     * password-protected page).
     */
    record Http(String path, int expectStatus, Optional<String> host) implements ProbeCheck {
        @Override
        public String type() {
            return "http";
        }

        @Override
        public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
            return new HttpProbe(vertx, this, timeout);
        }
    }

    /** A DNS A query for {@code name}, sent to the real, answered with {@code expectAddress}. */
    record Dns(String name, InetAddress expectAddress) implements ProbeCheck {
        @Override
        public String type() {
            return "dns";
        }

        @Override
        public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
            return new DnsProbe(vertx, this, timeout);
        }
    }

    /** A datagram sent to the real, answered with a datagram that starts with {@code expect}. */
    record Udp(byte[] send, byte[] expect) implements ProbeCheck {

        public Udp {
            send = send.clone();
            expect = expect.clone();
        }

        @Override
        public byte[] send() {
            return send.clone();
        }

        @Override
        public byte[] expect() {
            return expect.clone();
        }

        @Override
        public String type() {
            return "udp";
        }

        @Override
        public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
            return new UdpProbe(vertx, this, timeout);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Udp u && Arrays.equals(u.send, send) && Arrays.equals(u.expect, expect);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(send) + Arrays.hashCode(expect);
        }

        @Override
        public String toString() {
            return "Udp[send=" + HexFormat.of().formatHex(send) + ", expect=" + HexFormat.of().formatHex(expect) + "]";
        }
    }
}
