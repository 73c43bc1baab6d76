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
     * A Mobile IP Registration Request (RFC 5944) for a probe mobile node, answered with the expected
     * reply code. The request deregisters ({@code lifetime} 0, care-of address = home address), so a
     * probe leaves no binding behind; its Identification is the current NTP time (valid under
     * time-stamp replay protection) and it carries the MN-NAI when given and an MN-HA authenticator
     * (HMAC-MD5, RFC 5944 §3.5.1) with {@code spi} and {@code key}.
     *
     * @param homeAgent the Home Agent field; empty: the real's own address
     */
    record MobileIp(InetAddress homeAddress, Optional<InetAddress> homeAgent, Optional<String> nai, long spi,
            byte[] key, int expectCode) implements ProbeCheck {

        public MobileIp {
            key = key.clone();
        }

        @Override
        public byte[] key() {
            return key.clone();
        }

        @Override
        public String type() {
            return "mip";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof MobileIp m && m.homeAddress.equals(homeAddress) && m.homeAgent.equals(homeAgent)
                    && m.nai.equals(nai) && m.spi == spi && Arrays.equals(m.key, key) && m.expectCode == expectCode;
        }

        @Override
        public int hashCode() {
            return homeAddress.hashCode() * 31 + Arrays.hashCode(key);
        }

        @Override
        public String toString() {
            return "MobileIp[homeAddress=" + homeAddress.getHostAddress() + ", nai=" + nai.orElse("-") + ", spi=" + spi
                    + ", expectCode=" + expectCode + "]"; // the key stays out of logs
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

    /**
     * GTP path management (TS 29.060 §7.2.1, TS 29.274 §7.1.1): an Echo Request of {@code version} 1
     * or 2, answered by an Echo Response with the same sequence number. The Recovery value of the
     * answers is the real's restart counter: when it changes, the real restarted and lost its
     * sessions, and with {@code purgeOnRestart} the director purges what it holds for the real (the
     * sticky bindings to it, and whatever the plug-ins of its virtual servers keep).
     *
     * @param recovery the director's own restart counter in a GTPv2 request (mandatory there)
     */
    record GtpEcho(int version, int recovery, boolean purgeOnRestart) implements ProbeCheck {
        @Override
        public String type() {
            return "gtp-echo";
        }
    }
}
