package io.switchboard.l4.dispatch;

import java.util.HexFormat;

/** MAC addresses written {@code 02:00:5e:00:01:02}. */
final class Macs {

    private Macs() {
    }

    static byte[] parse(String text) {
        byte[] mac = HexFormat.ofDelimiter(":").parseHex(text);
        if (mac.length != 6) {
            throw new IllegalArgumentException("not a MAC address: " + text);
        }
        return mac;
    }

    static String format(byte[] mac) {
        return HexFormat.ofDelimiter(":").formatHex(mac);
    }
}
