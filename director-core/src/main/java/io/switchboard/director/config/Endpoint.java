package io.switchboard.director.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;

/** An IP address and UDP/TCP port; port 0 asks the kernel for an ephemeral port. */
public record Endpoint(InetAddress address, int port) {

    public Endpoint {
        Objects.requireNonNull(address, "address");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535: " + port);
        }
    }

    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(address, port);
    }

    /** {@code 127.0.0.1:2123} or {@code [::1]:2123}, the form the configuration uses. */
    @Override
    public String toString() {
        String host = address.getHostAddress();
        return (address instanceof Inet6Address ? "[" + host + "]" : host) + ":" + port;
    }
}
