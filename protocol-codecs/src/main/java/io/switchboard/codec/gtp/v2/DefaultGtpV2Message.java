package io.switchboard.codec.gtp.v2;

import java.util.List;
import java.util.Objects;

/** The plain immutable {@link GtpV2Message}. */
public final class DefaultGtpV2Message implements GtpV2Message {

    /** Version 2 with a TEID (TS 29.274 §5.1): every message but Echo and Version Not Supported. */
    public static final int FLAGS_WITH_TEID = 0x48;
    /** Version 2 without a TEID: Echo Request/Response, Version Not Supported. */
    public static final int FLAGS_WITHOUT_TEID = 0x40;

    private static final byte[] EMPTY = new byte[0];

    private final int flags;
    private final GtpV2MessageType type;
    private final long teid;
    private final int sequence;
    private final int spareOctet;
    private final List<GtpV2Ie> ies;
    private final byte[] opaqueBody;

    public DefaultGtpV2Message(int flags, GtpV2MessageType type, long teid, int sequence, int spareOctet,
            List<GtpV2Ie> ies, byte[] opaqueBody) {
        this.flags = flags;
        this.type = Objects.requireNonNull(type, "type");
        this.teid = teid;
        this.sequence = sequence;
        this.spareOctet = spareOctet;
        this.ies = List.copyOf(ies);
        this.opaqueBody = opaqueBody.clone();
    }

    /** A message with a TEID, no piggybacking, spare octet 0. */
    public DefaultGtpV2Message(GtpV2MessageType type, long teid, int sequence, List<GtpV2Ie> ies) {
        this(FLAGS_WITH_TEID, type, teid, sequence, 0, ies, EMPTY);
    }

    /** A message without a TEID (Echo, Version Not Supported). */
    public DefaultGtpV2Message(GtpV2MessageType type, int sequence, List<GtpV2Ie> ies) {
        this(FLAGS_WITHOUT_TEID, type, 0, sequence, 0, ies, EMPTY);
    }

    @Override
    public int flags() {
        return flags;
    }

    @Override
    public GtpV2MessageType type() {
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
    public int spareOctet() {
        return spareOctet;
    }

    @Override
    public List<GtpV2Ie> ies() {
        return ies;
    }

    @Override
    public byte[] opaqueBody() {
        return opaqueBody.clone();
    }

    @Override
    public String toString() {
        return "GtpV2Message[" + type + (hasTeid() ? ", teid=" + Long.toHexString(teid) : "") + ", seq=" + sequence
                + (piggybacked() ? ", piggybacked" : "") + ", ies=" + ies + "]";
    }
}
