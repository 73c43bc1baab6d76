package io.switchboard.app.ios;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.regex.Pattern;

/** The values IOS writes in SLB commands (addresses, masks, ports by name, numbers), checked. */
final class IosValues {

    private static final Pattern DOTTED = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    /**
     * The port names IOS accepts in {@code virtual} (Cisco IOS SLB command reference, "virtual"),
     * with their IANA numbers.
     */
    static final Map<String, Integer> PORT_NAMES = Map.ofEntries(Map.entry("dns", 53), Map.entry("ftp", 21),
            Map.entry("https", 443), Map.entry("matip-a", 350), Map.entry("mms", 1755), Map.entry("nntp", 119),
            Map.entry("pop2", 109), Map.entry("pop3", 110), Map.entry("rtsp", 554), Map.entry("smtp", 25),
            Map.entry("telnet", 23), Map.entry("www", 80));

    private IosValues() {
    }

    /** A dotted-quad IPv4 address (IOS SLB commands take no host names). */
    static InetAddress ipv4(IosCommand c, int i) {
        if (!c.hasArg(i)) {
            throw c.error(i, "an IPv4 address is missing");
        }
        String text = c.arg(i);
        var m = DOTTED.matcher(text);
        if (!m.matches()) {
            throw c.error(i, "'" + text + "' is not an IPv4 address");
        }
        byte[] bytes = new byte[4];
        for (int k = 0; k < 4; k++) {
            int octet = Integer.parseInt(m.group(k + 1));
            if (octet > 255) {
                throw c.error(i, "'" + text + "' is not an IPv4 address (octet " + octet + " > 255)");
            }
            bytes[k] = (byte) octet;
        }
        try {
            return Inet4Address.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an address", e);
        }
    }

    /** Whether argument {@code i} looks like a dotted quad (an optional address or mask is present). */
    static boolean isDotted(IosCommand c, int i) {
        return c.hasArg(i) && DOTTED.matcher(c.arg(i)).matches();
    }

    /** A contiguous netmask such as {@code 255.255.255.0}, as a prefix length. */
    static int maskBits(IosCommand c, int i) {
        byte[] mask = ipv4(c, i).getAddress();
        int value = ((mask[0] & 0xff) << 24) | ((mask[1] & 0xff) << 16) | ((mask[2] & 0xff) << 8) | (mask[3] & 0xff);
        int bits = Integer.bitCount(value);
        if (value != (bits == 0 ? 0 : -1 << (32 - bits))) {
            throw c.error(i, "'" + c.arg(i) + "' is not a contiguous netmask");
        }
        return bits;
    }

    /** The netmask of a prefix length, dotted. */
    static String mask(int bits) {
        int value = bits == 0 ? 0 : -1 << (32 - bits);
        return ((value >>> 24) & 0xff) + "." + ((value >>> 16) & 0xff) + "." + ((value >>> 8) & 0xff) + "."
                + (value & 0xff);
    }

    /** A decimal integer in {@code min..max}. */
    static int integer(IosCommand c, int i, int min, int max) {
        if (!c.hasArg(i)) {
            throw c.error(i, "a number (" + min + ".." + max + ") is missing");
        }
        try {
            int value = Integer.parseInt(c.arg(i));
            if (value < min || value > max) {
                throw c.error(i, "'" + c.arg(i) + "' must be " + min + ".." + max);
            }
            return value;
        } catch (NumberFormatException e) {
            throw c.error(i, "'" + c.arg(i) + "' is not a number (" + min + ".." + max + ")");
        }
    }

    /** A port by number (0 for all ports) or by the names {@code virtual} accepts. */
    static int port(IosCommand c, int i) {
        if (c.hasArg(i)) {
            Integer named = PORT_NAMES.get(c.arg(i).toLowerCase(java.util.Locale.ROOT));
            if (named != null) {
                return named;
            }
        }
        return integer(c, i, 0, 65535);
    }

    /** A name argument (farm, probe, virtual server). */
    static String name(IosCommand c, int i, String what) {
        if (!c.hasArg(i)) {
            throw c.error(i, what + " is missing");
        }
        return c.arg(i);
    }
}
