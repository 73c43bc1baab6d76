package io.switchboard.director.config.bind;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.Subnet;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.OptionalInt;

/**
 * IPv4 and IPv6 address literals, endpoints and netmasks, parsed without ever asking a resolver:
 * the bytes are computed here and handed to {@link InetAddress#getByAddress(byte[])}, which does no
 * lookup. A host name is an error, not a DNS query at start-up.
 *
 * <p>Every method throws {@link IllegalArgumentException} with a message fit to follow a
 * configuration path.
 */
public final class AddressLiterals {

    private static final String NOT_A_LITERAL = " is not an IPv4 or IPv6 address (host names are not resolved)";

    private AddressLiterals() {
    }

    /**
     * An IPv4 literal in dotted-quad form ({@code 10.0.0.1}, no leading zeros, no short forms such
     * as {@code 10.1}) or an IPv6 literal ({@code 2001:db8::1}, {@code ::ffff:10.0.0.1}), with or
     * without brackets. Zone ids ({@code fe80::1%eth0}) are not accepted.
     */
    public static InetAddress parseAddress(String text) {
        String literal = text;
        if (text.startsWith("[") && text.endsWith("]") && text.length() > 2) {
            literal = text.substring(1, text.length() - 1);
            if (!literal.contains(":")) {
                throw new IllegalArgumentException("'" + text + "': brackets are only for IPv6 addresses");
            }
        }
        byte[] bytes = literal.contains(":") ? ipv6(literal, text) : ipv4(literal, text);
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 or 16 bytes are always an address", e);
        }
    }

    /**
     * {@code ADDRESS/PREFIX}, e.g. {@code 10.0.0.0/8} or {@code 2001:db8::/32}. Host bits below the
     * prefix are cleared ({@link Subnet} holds the network); {@link #hasHostBits} tells whether any
     * were set.
     */
    public static Subnet parseSubnet(String text) {
        String[] parts = text.split("/", -1);
        if (parts.length != 2 || !parts[1].matches("[0-9]{1,3}")) {
            throw new IllegalArgumentException("'" + text + "' must be ADDRESS/PREFIX, e.g. 10.0.0.0/8");
        }
        InetAddress network = parseAddress(parts[0]);
        int bits = Integer.parseInt(parts[1]);
        if (bits > network.getAddress().length * 8) {
            throw new IllegalArgumentException("'" + text + "': prefix longer than the address");
        }
        return new Subnet(network, bits);
    }

    /** Whether the address of {@code ADDRESS/PREFIX} (valid for {@link #parseSubnet}) has bits below the prefix. */
    public static boolean hasHostBits(String text) {
        return !parseAddress(text.substring(0, text.indexOf('/'))).equals(parseSubnet(text).network());
    }

    /**
     * {@code IPv4:port} or {@code [IPv6]:port}, port 0..65535 (0 asks the kernel for an ephemeral
     * port).
     */
    public static Endpoint parseEndpoint(String text) {
        String address;
        String port;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("'" + text + "': missing ']' after the IPv6 address");
            }
            address = text.substring(0, close + 1);
            String rest = text.substring(close + 1);
            if (!rest.startsWith(":")) {
                throw new IllegalArgumentException("'" + text + "': missing port, e.g. [::1]:2123");
            }
            port = rest.substring(1);
        } else {
            int colon = text.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("'" + text + "': missing port, e.g. 127.0.0.1:2123");
            }
            if (text.indexOf(':', colon + 1) >= 0) {
                throw new IllegalArgumentException(
                        "'" + text + "': write an IPv6 address in brackets, e.g. [::1]:2123");
            }
            address = text.substring(0, colon);
            port = text.substring(colon + 1);
        }
        return new Endpoint(parseAddress(address), parsePort(port, text));
    }

    /**
     * The prefix length of a contiguous IPv4 netmask: {@code 255.255.255.0} is 24. The all-zero
     * mask is refused: it would make every client one subscriber.
     */
    public static int parseNetmaskBits(String text) {
        if (text.contains(":")) {
            throw new IllegalArgumentException("'" + text + "': must be an IPv4 netmask such as 255.255.255.0");
        }
        byte[] b = ipv4(text, text);
        int mask = (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
        int host = ~mask;
        if ((host & (host + 1)) != 0) {
            throw new IllegalArgumentException("'" + text + "' is not a contiguous netmask");
        }
        if (mask == 0) {
            throw new IllegalArgumentException("'" + text + "' would put every client in one subnet");
        }
        return Integer.bitCount(mask);
    }

    private static int parsePort(String port, String text) {
        OptionalInt value = decimal(port, 5);
        if (value.isEmpty() || value.getAsInt() > 65535) {
            throw new IllegalArgumentException("'" + text + "': port must be 0..65535");
        }
        return value.getAsInt();
    }

    private static byte[] ipv4(String literal, String text) {
        String[] parts = literal.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("'" + text + "'" + NOT_A_LITERAL);
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            OptionalInt octet = decimal(parts[i], 3);
            if (octet.isEmpty() || octet.getAsInt() > 255 || (parts[i].length() > 1 && parts[i].charAt(0) == '0')) {
                throw new IllegalArgumentException("'" + text + "'" + NOT_A_LITERAL);
            }
            bytes[i] = (byte) octet.getAsInt();
        }
        return bytes;
    }

    private static byte[] ipv6(String literal, String text) {
        if (literal.indexOf('%') >= 0) {
            throw new IllegalArgumentException("'" + text + "': IPv6 zone ids are not supported");
        }
        int gap = literal.indexOf("::");
        if (gap >= 0 && literal.indexOf("::", gap + 1) >= 0) {
            throw new IllegalArgumentException("'" + text + "'" + NOT_A_LITERAL);
        }
        byte[] bytes = new byte[16];
        if (gap < 0) {
            if (groups(literal, text, bytes, 0, true) != 16) {
                throw new IllegalArgumentException("'" + text + "'" + NOT_A_LITERAL);
            }
            return bytes;
        }
        byte[] head = new byte[16];
        byte[] tail = new byte[16];
        int headLength = groups(literal.substring(0, gap), text, head, 0, false);
        int tailLength = groups(literal.substring(gap + 2), text, tail, 0, true);
        if (headLength + tailLength > 14) { // "::" stands for at least one group
            throw new IllegalArgumentException("'" + text + "'" + NOT_A_LITERAL);
        }
        System.arraycopy(head, 0, bytes, 0, headLength);
        System.arraycopy(tail, 0, bytes, 16 - tailLength, tailLength);
        return bytes;
    }

    /** Writes the colon-separated groups of {@code part} into {@code out}; returns the bytes written. */
    private static int groups(String part, String text, byte[] out, int offset, boolean ipv4Tail) {
        if (part.isEmpty()) {
            return 0;
        }
        String[] groups = part.split(":", -1);
        int at = offset;
        for (int i = 0; i < groups.length; i++) {
            String g = groups[i];
            boolean last = i == groups.length - 1;
            if (last && ipv4Tail && g.indexOf('.') >= 0) {
                if (at + 4 > out.length) {
                    throw new IllegalArgumentException("'" + text + "'" + NOT_A_LITERAL);
                }
                System.arraycopy(ipv4(g, text), 0, out, at, 4);
                at += 4;
                continue;
            }
            if (g.isEmpty() || g.length() > 4 || at + 2 > out.length) {
                throw new IllegalArgumentException("'" + text + "'" + NOT_A_LITERAL);
            }
            int value = 0;
            for (int c = 0; c < g.length(); c++) {
                char ch = g.charAt(c);
                int digit = ch < 128 ? Character.digit(ch, 16) : -1; // ASCII only
                if (digit < 0) {
                    throw new IllegalArgumentException("'" + text + "'" + NOT_A_LITERAL);
                }
                value = value << 4 | digit;
            }
            out[at++] = (byte) (value >>> 8);
            out[at++] = (byte) value;
        }
        return at - offset;
    }

    /** ASCII decimal digits only, at most {@code maxDigits} of them. */
    private static OptionalInt decimal(String s, int maxDigits) {
        if (s.isEmpty() || s.length() > maxDigits) {
            return OptionalInt.empty();
        }
        int value = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalInt.empty();
            }
            value = value * 10 + (c - '0');
        }
        return OptionalInt.of(value);
    }
}
