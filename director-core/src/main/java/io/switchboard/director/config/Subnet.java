package io.switchboard.director.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An address prefix ({@code 10.0.0.0/8}, {@code 2001:db8::/32}); a plain address is a /32 or /128. */
public record Subnet(InetAddress network, int prefixLength) {

    public Subnet {
        int max = network.getAddress().length * 8;
        if (prefixLength < 0 || prefixLength > max) {
            throw new IllegalArgumentException("prefix length must be 0.." + max + ": " + prefixLength);
        }
        network = masked(network, prefixLength);
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        byte[] n = network.getAddress();
        if (a.length != n.length) {
            return false;
        }
        return masked(address, prefixLength).equals(network);
    }

    private static InetAddress masked(InetAddress address, int bits) {
        byte[] bytes = address.getAddress();
        for (int i = 0; i < bytes.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            bytes[i] &= (byte) (0xff00 >> keep);
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return network.getHostAddress() + "/" + prefixLength;
    }
}
