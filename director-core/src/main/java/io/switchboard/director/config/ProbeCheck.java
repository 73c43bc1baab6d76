package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/** What a probe checks, one record per probe type. */
public sealed interface ProbeCheck {

    /** The type name in the configuration. */
    String type();

    /** ICMP echo (IOS {@code probe ping}). */
    record Ping() implements ProbeCheck {
        @Override
        public String type() {
            return "ping";
        }
    }

    /** A TCP connection is accepted. */
    record TcpConnect() implements ProbeCheck {
        @Override
        public String type() {
            return "tcp";
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
    }

    /** A DNS A query for {@code name}, sent to the real, answered with {@code expectAddress}. */
    record Dns(String name, InetAddress expectAddress) implements ProbeCheck {
        @Override
        public String type() {
            return "dns";
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

    /**
     * RADIUS health (RFC 5997): a Status-Server with Message-Authenticator, answered by an
     * Access-Accept whose Response Authenticator verifies with {@code secret}; or, with {@code user}
     * and {@code password}, an Access-Request answered by an Access-Accept or Access-Reject that
     * verifies (the server is alive either way). An empty {@code secret} means each real's own
     * {@code secret}.
     */
    record Radius(String secret, Optional<String> user, Optional<String> password) implements ProbeCheck {
        @Override
        public String type() {
            return "radius";
        }

        @Override
        public String toString() {
            return "Radius[secret=***, user=" + user.orElse("-") + "]";
        }
    }
}
