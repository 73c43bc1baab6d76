package io.switchboard.codec.gtp.v1;

import java.util.List;
import java.util.Objects;

/** The plain immutable {@link GtpV1Message}. */
public final class DefaultGtpV1Message implements GtpV1Message {

    /** Version 1, PT 1, S set: what every GTPv1-C message carries (TS 29.060 §6). */
    public static final int CONTROL_FLAGS = 0x32;

    private static final byte[] EMPTY = new byte[0];

    private final int flags;
    private final GtpV1MessageType type;
    private final long teid;
    private final int sequence;
    private final int npduNumber;
    private final int nextExtensionType;
    private final byte[] extensionHeaders;
    private final List<GtpV1Ie> ies;
    private final byte[] opaqueBody;

    public DefaultGtpV1Message(int flags, GtpV1MessageType type, long teid, int sequence, int npduNumber,
            int nextExtensionType, byte[] extensionHeaders, List<GtpV1Ie> ies, byte[] opaqueBody) {
        this.flags = flags;
        this.type = Objects.requireNonNull(type, "type");
        this.teid = teid;
        this.sequence = sequence;
        this.npduNumber = npduNumber;
        this.nextExtensionType = nextExtensionType;
        this.extensionHeaders = extensionHeaders.clone();
        this.ies = List.copyOf(ies);
        this.opaqueBody = opaqueBody.clone();
    }

    /** A GTPv1-C message with the S flag set and no extension headers. */
    public DefaultGtpV1Message(GtpV1MessageType type, long teid, int sequence, List<GtpV1Ie> ies) {
        this(CONTROL_FLAGS, type, teid, sequence, 0, 0, EMPTY, ies, EMPTY);
    }

    @Override
    public int flags() {
        return flags;
    }

    @Override
    public GtpV1MessageType type() {
        return type;
    }

    @Override
    public long teid() {
        return teid;
    }

    @Override
    public int sequence() {
        return sequence;
    }

    @Override
    public int npduNumber() {
        return npduNumber;
    }

    @Override
    public int nextExtensionType() {
        return nextExtensionType;
    }

    @Override
    public byte[] extensionHeaders() {
        return extensionHeaders.clone();
    }

    @Override
    public List<GtpV1Ie> ies() {
        return ies;
    }

    @Override
    public byte[] opaqueBody() {
        return opaqueBody.clone();
    }

    @Override
    public String toString() {
        return "GtpV1Message[" + type + ", teid=" + Long.toHexString(teid) + ", seq=" + sequence + ", ies=" + ies
                + (opaqueBody.length > 0 ? ", opaque=" + opaqueBody.length + " octets" : "") + "]";
    }
}
