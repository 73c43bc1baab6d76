package io.switchboard.codec.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Bounds checks and small field readers shared by the GTP codecs. Every read of a length-prefixed
 * field goes through {@link #require} first, so a declared length can never run past the bytes that
 * are really there.
 */
public final class GtpBytes {

    private GtpBytes() {
    }

    /** Checks that {@code need} bytes are readable at absolute {@code offset} (up to the writer index). */
    public static void require(ByteBuf buf, int offset, int need, String what) throws DecodeException {
        int have = buf.writerIndex() - offset;
        if (offset < 0 || need < 0 || have < need) {
            throw DecodeException.truncated(what, offset, need, Math.max(have, 0));
        }
    }

    /** Checks that {@code need} bytes fit between {@code offset} and {@code end}. */
    public static void requireWithin(int offset, int need, int end, String what) throws DecodeException {
        if (need < 0 || end - offset < need) {
            throw DecodeException.truncated(what, offset, need, Math.max(end - offset, 0));
        }
    }

    /**
     * {@link #requireWithin(int, int, int, String)} for an element of type {@code type}: the message
     * ({@code what} and the type) is only built when the check fails, since IE walks run per packet.
     */
    public static void requireWithin(int offset, int need, int end, String what, int type) throws DecodeException {
        if (need < 0 || end - offset < need) {
            throw DecodeException.truncated(what + type, offset, need, Math.max(end - offset, 0));
        }
    }

    public static DecodeException malformed(String message) {
        return new DecodeException(DropReason.MALFORMED, message);
    }

    public static DecodeException unsupportedVersion(int version, int expected) {
        return new DecodeException(DropReason.UNSUPPORTED_VERSION,
                "GTP version " + version + ", expected " + expected);
    }

    /** Copies {@code length} bytes at {@code offset} into a new array (model decoding only, never the hot path). */
    public static byte[] copy(ByteBuf buf, int offset, int length) {
        byte[] bytes = new byte[length];
        buf.getBytes(offset, bytes);
        return bytes;
    }

    /** An IPv4 (4 bytes) or IPv6 (16 bytes) address, or {@code null} for any other length. */
    public static InetAddress address(byte[] bytes) {
        if (bytes.length == 16) {
            return ipv6(bytes);
        }
        if (bytes.length != 4) {
            return null;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) {
            throw new AssertionError(impossible);
        }
    }

    public static Inet4Address ipv4(byte[] bytes) {
        return (Inet4Address) address(bytes);
    }

    /**
     * IPv6 without {@link InetAddress}'s IPv4-mapped shortcut: {@code InetAddress.getByAddress} turns
     * ::ffff:a.b.c.d into an Inet4Address, which would lose bytes on re-encoding.
     */
    public static Inet6Address ipv6(byte[] bytes) {
        try {
            return Inet6Address.getByAddress(null, bytes, -1);
        } catch (UnknownHostException impossible) {
            throw new AssertionError(impossible);
        }
    }
}
