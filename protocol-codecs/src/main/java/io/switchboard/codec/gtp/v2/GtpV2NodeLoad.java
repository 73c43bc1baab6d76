package io.switchboard.codec.gtp.v2;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpBytes;

/**
 * The node-level load and overload figures a GTPv2-C peer reports in its messages (TS 29.274 §12.2
 * load control, §12.3 overload control): Load Control Information (IE 181, §8.112) and Overload
 * Control Information (IE 180, §8.111), both grouped IEs of a Sequence Number (IE 183, §8.114), a
 * Metric (IE 182, §8.113) and, for overload, the Period of Validity as an EPC Timer (IE 156, §8.87).
 *
 * <p>Which instance is whose (TS 29.274 Table 7.2.2-1 for Create Session Response, and likewise in
 * Modify Bearer and Delete Session Responses): LCI 0 is the PGW's node-level figure, LCI 1 the PGW's
 * APN-level one (not read here), LCI 2 the SGW's node-level figure; OCI 0 is the PGW's, OCI 1 the
 * SGW's. An SGW relays the PGW's figures beside its own, so the answering node's own figure is the
 * SGW's when present, else the PGW's: that is what {@link #of} returns.
 *
 * @param load     null when the message carries no node-level Load Control Information
 * @param overload null when it carries no Overload Control Information
 */
public record GtpV2NodeLoad(Load load, Overload overload) {

    /** TS 29.274 §8.113: a percentage; larger values are read as 100. */
    public static final int MAX_METRIC = 100;
    /** {@link Overload#validityMillis()} of a Period of Validity with the "infinite" unit. */
    public static final long INFINITE = Long.MAX_VALUE;

    private static final int LCI_PGW_NODE = 0;
    private static final int LCI_SGW_NODE = 2;
    private static final int OCI_PGW = 0;
    private static final int OCI_SGW = 1;

    /** Load Control Information: the sender's load, 0 (idle) to 100 (full). */
    public record Load(long sequence, int loadMetric) {
    }

    /**
     * Overload Control Information: the share of traffic, 0..100 %, the sender asks its peers to
     * hold back, for {@code validityMillis} ({@link #INFINITE} until replaced).
     */
    public record Overload(long sequence, int reductionMetric, long validityMillis) {
    }

    /**
     * The answering node's own node-level figures in the message {@code header} is wrapped around,
     * or null when it carries neither (no allocation then).
     *
     * @throws DecodeException when an element is present but malformed (a missing mandatory element,
     *                         a wrong length)
     */
    public static GtpV2NodeLoad of(ByteBuf buf, GtpV2Header header) throws DecodeException {
        int lciPgw = -1;
        int lciSgw = -1;
        int ociPgw = -1;
        int ociSgw = -1;
        int offset = header.bodyOffset();
        int end = header.endOffset();
        while (offset < end) {
            GtpBytes.requireWithin(offset, GtpV2Ies.IE_HEADER_LENGTH, end, "GTPv2 IE header");
            int size = GtpV2Ies.IE_HEADER_LENGTH + buf.getUnsignedShort(offset + 1);
            GtpBytes.requireWithin(offset, size, end, "GTPv2 IE ", buf.getUnsignedByte(offset));
            int type = buf.getUnsignedByte(offset);
            int instance = buf.getUnsignedByte(offset + 3) & 0x0F;
            if (type == GtpV2IeType.LOAD_CONTROL_INFORMATION.value()) {
                if (instance == LCI_PGW_NODE) {
                    lciPgw = offset;
                } else if (instance == LCI_SGW_NODE) {
                    lciSgw = offset;
                }
            } else if (type == GtpV2IeType.OVERLOAD_CONTROL_INFORMATION.value()) {
                if (instance == OCI_PGW) {
                    ociPgw = offset;
                } else if (instance == OCI_SGW) {
                    ociSgw = offset;
                }
            }
            offset += size;
        }
        int lci = lciSgw >= 0 ? lciSgw : lciPgw;
        int oci = ociSgw >= 0 ? ociSgw : ociPgw;
        if (lci < 0 && oci < 0) {
            return null;
        }
        return new GtpV2NodeLoad(lci < 0 ? null : load(buf, lci), oci < 0 ? null : overload(buf, oci));
    }

    private static Load load(ByteBuf buf, int ie) throws DecodeException {
        int from = ie + GtpV2Ies.IE_HEADER_LENGTH;
        int end = from + GtpV2Ies.valueLength(buf, ie);
        return new Load(sequence(buf, from, end, "Load"), metric(buf, from, end, "Load"));
    }

    private static Overload overload(ByteBuf buf, int ie) throws DecodeException {
        int from = ie + GtpV2Ies.IE_HEADER_LENGTH;
        int end = from + GtpV2Ies.valueLength(buf, ie);
        int timer = GtpV2Ies.indexOf(buf, from, end, GtpV2IeType.EPC_TIMER.value(), 0);
        if (timer < 0 || GtpV2Ies.valueLength(buf, timer) < 1) {
            throw GtpBytes.malformed("Overload Control Information without Period of Validity");
        }
        return new Overload(sequence(buf, from, end, "Overload"), metric(buf, from, end, "Overload"),
                epcTimerMillis(buf.getUnsignedByte(timer + GtpV2Ies.IE_HEADER_LENGTH)));
    }

    private static long sequence(ByteBuf buf, int from, int end, String what) throws DecodeException {
        int ie = GtpV2Ies.indexOf(buf, from, end, GtpV2IeType.SEQUENCE_NUMBER.value(), 0);
        if (ie < 0 || GtpV2Ies.valueLength(buf, ie) < 4) {
            throw GtpBytes.malformed(what + " Control Information without Sequence Number");
        }
        return buf.getUnsignedInt(ie + GtpV2Ies.IE_HEADER_LENGTH);
    }

    private static int metric(ByteBuf buf, int from, int end, String what) throws DecodeException {
        int ie = GtpV2Ies.indexOf(buf, from, end, GtpV2IeType.METRIC.value(), 0);
        if (ie < 0 || GtpV2Ies.valueLength(buf, ie) < 1) {
            throw GtpBytes.malformed(what + " Control Information without Metric");
        }
        return Math.min(MAX_METRIC, buf.getUnsignedByte(ie + GtpV2Ies.IE_HEADER_LENGTH));
    }

    /**
     * TS 29.274 §8.87 EPC Timer: bits 8-6 the unit (0: 2 s, 1: 1 min, 2: 10 min, 3: 1 h, 4: 10 h,
     * 7: infinite; other values are read as 1 min), bits 5-1 the value.
     */
    public static long epcTimerMillis(int octet) {
        int value = octet & 0x1F;
        long unitMillis = switch (octet >> 5) {
            case 0 -> 2_000L;
            case 2 -> 600_000L;
            case 3 -> 3_600_000L;
            case 4 -> 36_000_000L;
            case 7 -> -1L;
            default -> 60_000L;
        };
        return unitMillis < 0 ? INFINITE : value * unitMillis;
    }

    /**
     * Whether {@code candidate} is newer than {@code current} in 32-bit serial-number arithmetic
     * (RFC 1982 §3.2): TS 29.274 §12.2.5.1.2.3 / §12.3.5.1.2.2 have a receiver take a figure only when
     * its sequence number is higher than the last one from that node, and a counter may wrap.
     */
    public static boolean newer(long candidate, long current) {
        int delta = (int) (candidate - current);
        return delta > 0;
    }
}
