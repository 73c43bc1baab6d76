package io.switchboard.director.routing;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * An address as the routing daemons print it: dotted IPv4, and IPv6 in RFC 5952's canonical form
 * (Java's {@code getHostAddress} writes every group, {@code fd99:0:0:0:0:0:0:1}), so that what FRR
 * shows in its running configuration compares equal to what Switchboard asked for.
 */
final class AddressText {

    private AddressText() {
    }

    static String of(InetAddress address) {
        if (address instanceof Inet4Address) {
            return address.getHostAddress();
        }
        byte[] b = address.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        // RFC 5952 §4.2.2-4.2.3: the longest run of two or more zero groups, the first of equals, is "::".
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLength - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            // RFC 5952 §4.1 and §4.3: no leading zeros, lower case.
            s.append(Integer.toHexString(groups[i]));
        }
        return s.toString();
    }
}
