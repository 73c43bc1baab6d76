package io.switchboard.codec.gtp;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Where a GTP peer wants its control-plane messages for a session: its TEID-C and its address(es).
 * GTPv1 carries one address (the first GSN Address IE); a GTPv2 F-TEID may carry IPv4, IPv6 or both.
 */
public record GtpControlEndpoint(long teid, Inet4Address ipv4, Inet6Address ipv6) {

    public GtpControlEndpoint {
        if (ipv4 == null && ipv6 == null) {
            throw new IllegalArgumentException("an endpoint needs an address");
        }
    }

    public static GtpControlEndpoint of(long teid, InetAddress address) {
        return address instanceof Inet4Address v4
                ? new GtpControlEndpoint(teid, v4, null)
                : new GtpControlEndpoint(teid, null, (Inet6Address) address);
    }

    /** The IPv4 address if there is one, else the IPv6 address. */
    public InetAddress address() {
        return ipv4 != null ? ipv4 : ipv6;
    }
}
