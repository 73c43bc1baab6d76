package io.switchboard.codec.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.HexFormat;

/** Hex vectors for tests: whitespace is ignored and {@code #} starts a comment that runs to the end of the line. */
public final class Hex {

    private Hex() {
    }

    public static byte[] bytes(String commentedHex) {
        StringBuilder digits = new StringBuilder();
        for (String line : commentedHex.split("\n")) {
            int hash = line.indexOf('#');
            digits.append((hash >= 0 ? line.substring(0, hash) : line).replaceAll("\\s+", ""));
        }
        return HexFormat.of().parseHex(digits);
    }

    public static String of(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    public static String of(ByteBuf buf) {
        return ByteBufUtil.hexDump(buf);
    }
}
