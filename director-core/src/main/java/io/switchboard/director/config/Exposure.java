package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.Optional;

/**
 * Whether a listener (the cluster member, the admin API) may face a public network. By default it may
 * not: a bind to an address that is neither loopback, link-local nor private (RFC 1918, RFC 4193), or
 * to every address, is refused unless the configuration says {@code exposure: public-acknowledged}.
 */
public enum Exposure {
    /** Loopback, link-local or private addresses only (the default). */
    PRIVATE("private"),
    /** The operator knows the listener faces a public network (and has filtered or tunnelled it). */
    PUBLIC_ACKNOWLEDGED("public-acknowledged");

    private final String configName;

    Exposure(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /**
     * Whether {@code address} stays off public networks: loopback, link-local, private IPv4 (RFC 1918),
     * shared address space (RFC 6598 §7, 100.64.0.0/10, a carrier's own) or unique local IPv6
     * (RFC 4193 §3, fc00::/7). A wildcard is not: it binds every interface, public ones included.
     */
    public static boolean isPrivate(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return false;
        }
        if (address.isLoopbackAddress() || address.isLinkLocalAddress() || address.isSiteLocalAddress()) {
            return true;
        }
        byte[] b = address.getAddress();
        if (b.length == 4) {
            return (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
        }
        return (b[0] & 0xfe) == 0xfc;
    }

    public static Optional<Exposure> fromConfigName(String text) {
        for (Exposure e : values()) {
            if (e.configName.equals(text)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
