package io.switchboard.codec.mip;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import java.nio.charset.StandardCharsets;

/**
 * A cheap view of a Registration Request or Reply (RFC 5944 §3.3, §3.4) for the hot path: type,
 * identification, home address, home agent, and extensions by offset. {@link #wrap} checks the fixed
 * part and the framing of every extension once. The view borrows the buffer and never moves its
 * indices; offsets are relative to the message's first octet. UDP carries one message per datagram,
 * so the message ends where the readable bytes end.
 *
 * <pre>
 * Request: type(1)=1 flags(1) lifetime(2) home address(4) home agent(4) care-of address(4) identification(8)
 * Reply:   type(1)=3 code(1)  lifetime(2) home address(4) home agent(4) identification(8)
 * </pre>
 */
public final class MipHeaderView {

    public static final int REQUEST_LENGTH = 24;  // RFC 5944 §3.3
    public static final int REPLY_LENGTH = 20;    // RFC 5944 §3.4
    private static final int HOME_ADDRESS = 4;
    private static final int HOME_AGENT = 8;
    private static final int CARE_OF_ADDRESS = 12;

    /** An extension whose header or declared length runs past the message. */
    public static final DropReason BAD_EXTENSION = DropReason.of("mip-bad-extension");

    private final ByteBuf buf;
    private final int base;
    private final int length;
    private final int fixedLength;

    private MipHeaderView(ByteBuf buf, int base, int length, int fixedLength) {
        this.buf = buf;
        this.base = base;
        this.length = length;
        this.fixedLength = fixedLength;
    }

    /**
     * Views the message at the reader index. Types other than Registration Request and Reply raise
     * {@link DropReason#UNEXPECTED_MESSAGE}: they have no identification to direct on (the full model
     * keeps them as raw bytes).
     */
    public static MipHeaderView wrap(ByteBuf buf) throws DecodeException {
        int base = buf.readerIndex();
        int length = buf.readableBytes();
        if (length < 1) {
            throw DecodeException.truncated("Mobile IP message", 0, 1, 0);
        }
        int type = buf.getUnsignedByte(base);
        int fixed;
        if (type == MipMessageType.REGISTRATION_REQUEST.value()) {
            fixed = REQUEST_LENGTH;
        } else if (type == MipMessageType.REGISTRATION_REPLY.value()) {
            fixed = REPLY_LENGTH;
        } else {
            throw new DecodeException(DropReason.UNEXPECTED_MESSAGE, "Mobile IP message type " + type);
        }
        if (length < fixed) {
            throw DecodeException.truncated(MipMessageType.valueOf(type).name(), 0, fixed, length);
        }
        checkExtensions(buf, base, fixed, length);
        return new MipHeaderView(buf, base, length, fixed);
    }

    /** Checks the framing of the extensions in [{@code offset}, {@code end}) relative to {@code base}. */
    static void checkExtensions(ByteBuf buf, int base, int offset, int end) throws DecodeException {
        while (offset < end) {
            int type = buf.getUnsignedByte(base + offset);
            boolean longHeader = MipExtensionType.hasLongHeader(type);
            int header = longHeader ? 4 : 2;
            if (end - offset < header) {
                throw new DecodeException(BAD_EXTENSION, "extension " + type + " header cut at offset " + offset);
            }
            int dataLength = longHeader ? buf.getUnsignedShort(base + offset + 2) : buf.getUnsignedByte(base + offset + 1);
            if (offset + header + dataLength > end) {
                throw new DecodeException(BAD_EXTENSION, "extension " + type + " at offset " + offset + " runs "
                        + (offset + header + dataLength - end) + " bytes past the message");
            }
            offset += header + dataLength;
        }
    }

    public ByteBuf buffer() {
        return buf;
    }

    public int base() {
        return base;
    }

    /** Octets of the message: fixed part and extensions. */
    public int length() {
        return length;
    }

    public int type() {
        return buf.getUnsignedByte(base);
    }

    public boolean isRequest() {
        return fixedLength == REQUEST_LENGTH;
    }

    /** Flags S B D M G r T x of a request (see {@link MipFlags}); 0 for a reply. */
    public int flags() {
        return isRequest() ? buf.getUnsignedByte(base + 1) : 0;
    }

    /** The Code of a reply (see {@link MipReplyCode}); -1 for a request. */
    public int code() {
        return isRequest() ? -1 : buf.getUnsignedByte(base + 1);
    }

    /** Lifetime in seconds; 0 is deregistration, 0xffff infinite (RFC 5944 §3.3). */
    public int lifetime() {
        return buf.getUnsignedShort(base + 2);
    }

    /** Home Address as a 32-bit value in network order. */
    public int homeAddress() {
        return buf.getInt(base + HOME_ADDRESS);
    }

    public int homeAgent() {
        return buf.getInt(base + HOME_AGENT);
    }

    /** Care-of Address of a request; throws for a reply, which has none. */
    public int careOfAddress() {
        if (!isRequest()) {
            throw new IllegalStateException("a Registration Reply has no care-of address");
        }
        return buf.getInt(base + CARE_OF_ADDRESS);
    }

    /** The 64-bit Identification that matches a reply to its request (RFC 5944 §3.3, §5.7). */
    public long identification() {
        return buf.getLong(base + fixedLength - 8);
    }

    /**
     * Rewrites the Home Agent field in place. The MN-HA authenticator covers it (RFC 5944 §3.5.1), so a
     * rewritten message verifies only if whoever holds the MN-HA key re-computes that authenticator.
     */
    public void rewriteHomeAgent(int address) {
        buf.setInt(base + HOME_AGENT, address);
    }

    // ---- extensions by offset ----

    /** Offset of the first extension, or -1. */
    public int firstExtension() {
        return fixedLength < length ? fixedLength : -1;
    }

    public int nextExtension(int offset) {
        int next = extensionDataOffset(offset) + extensionDataLength(offset);
        return next < length ? next : -1;
    }

    public int extensionType(int offset) {
        return buf.getUnsignedByte(base + offset);
    }

    public int extensionDataOffset(int offset) {
        return offset + (MipExtensionType.hasLongHeader(extensionType(offset)) ? 4 : 2);
    }

    public int extensionDataLength(int offset) {
        return MipExtensionType.hasLongHeader(extensionType(offset))
                ? buf.getUnsignedShort(base + offset + 2) : buf.getUnsignedByte(base + offset + 1);
    }

    /** Offset of the first extension of {@code type}, or -1. */
    public int findExtension(int type) {
        for (int e = firstExtension(); e >= 0; e = nextExtension(e)) {
            if (extensionType(e) == type) {
                return e;
            }
        }
        return -1;
    }

    /** The MN-NAI (RFC 2794), or null. */
    public String nai() {
        int e = findExtension(MipExtensionType.MN_NAI.value());
        return e < 0 ? null : buf.toString(base + extensionDataOffset(e), extensionDataLength(e), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "MipHeaderView(" + MipMessageType.valueOf(type()) + ", id=" + Long.toHexString(identification()) + ")";
    }
}
