package io.switchboard.codec.gtp.v0;

import io.switchboard.codec.gtp.v1.GtpV1Ie;
import java.util.List;
import java.util.Objects;

/** The plain immutable {@link GtpV0Message}. */
public final class DefaultGtpV0Message implements GtpV0Message {

    /** Version 0, PT 1, spare '111', SNN 0 (GSM 09.60 §6). */
    public static final int FLAGS = 0x1E;
    /** Octets 10-12: spare, all ones. */
    public static final int SPARE = 0xFFFFFF;

    private static final byte[] EMPTY = new byte[0];

    private final int flags;
    private final GtpV0MessageType type;
    private final int sequence;
    private final int flowLabel;
    private final int sndcpNpduNumber;
    private final int spare;
    private final long tid;
    private final List<GtpV1Ie> ies;
    private final byte[] opaqueBody;

    public DefaultGtpV0Message(int flags, GtpV0MessageType type, int sequence, int flowLabel, int sndcpNpduNumber,
            int spare, long tid, List<GtpV1Ie> ies, byte[] opaqueBody) {
        this.flags = flags;
        this.type = Objects.requireNonNull(type, "type");
        this.sequence = sequence;
        this.flowLabel = flowLabel;
        this.sndcpNpduNumber = sndcpNpduNumber;
        this.spare = spare;
        this.tid = tid;
        this.ies = List.copyOf(ies);
        this.opaqueBody = opaqueBody.clone();
    }

    /** A signalling message with the usual flags and spare octets, SNDCP N-PDU number 0xFF. */
    public DefaultGtpV0Message(GtpV0MessageType type, int sequence, int flowLabel, long tid, List<GtpV1Ie> ies) {
        this(FLAGS, type, sequence, flowLabel, 0xFF, SPARE, tid, ies, EMPTY);
    }

    @Override
    public int flags() {
        return flags;
    }

    @Override
    public GtpV0MessageType type() {
        return type;
    }

    @Override
    public int sequence() {
        return sequence;
    }

    @Override
    public int flowLabel() {
        return flowLabel;
    }

    @Override
    public int sndcpNpduNumber() {
        return sndcpNpduNumber;
    }

    @Override
    public int spare() {
        return spare;
    }

    @Override
    public long tid() {
        return tid;
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
        return "GtpV0Message[" + type + ", seq=" + sequence + ", flowLabel=" + flowLabel + ", tid="
                + Long.toHexString(tid) + ", ies=" + ies + "]";
    }
}
