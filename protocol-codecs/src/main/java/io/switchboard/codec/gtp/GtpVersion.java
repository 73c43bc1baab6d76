package io.switchboard.codec.gtp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;

/**
 * Sniffs the GTP version from the first octet of a datagram, so a plug-in listening on one port
 * (2123 carries both GTPv1-C and GTPv2-C) can pick the right header view. Reads without moving the
 * reader index.
 */
public final class GtpVersion {

    /** GSM 09.60 §6: version 0 (UDP 3386). */
    public static final int V0 = 0;
    /** TS 29.060 §6: version 1. */
    public static final int V1 = 1;
    /** TS 29.274 §5.1: version 2. */
    public static final int V2 = 2;

    private GtpVersion() {
    }

    /** The version bits (the 3 high bits of octet 1) of the message starting at {@code offset}. */
    public static int of(ByteBuf buf, int offset) throws DecodeException {
        GtpBytes.require(buf, offset, 1, "GTP flags");
        return (buf.getUnsignedByte(offset) >> 5) & 0x07;
    }

    /** The version of the message at the reader index. */
    public static int of(ByteBuf buf) throws DecodeException {
        return of(buf, buf.readerIndex());
    }

    /** Like {@link #of(ByteBuf, int)} but raises {@code unsupported-version} for anything but 0, 1 or 2. */
    public static int supported(ByteBuf buf, int offset) throws DecodeException {
        int version = of(buf, offset);
        if (version > V2) {
            throw new DecodeException(DropReason.UNSUPPORTED_VERSION, "GTP version " + version);
        }
        return version;
    }
}
