package io.switchboard.director.dfp;

import java.util.List;
import java.util.Optional;

/**
 * One DFP message (draft-eck-dfp-01 §4.1): its type and its TLVs other than the Security TLV, which
 * {@link DfpWire} adds and checks.
 *
 * @param type the Message Type of the signal header (§6)
 * @param tlvs the TLVs, in order
 */
public record DfpMessage(int type, List<Tlv> tlvs) {

    /** draft-eck-dfp-01 §4.1: {@code Version = 0x01}. */
    public static final int VERSION = 1;

    // draft-eck-dfp-01 §6: message types.
    public static final int PREFERENCE_INFORMATION = 0x0101;
    public static final int SERVER_STATE = 0x0201;
    public static final int DFP_PARAMETERS = 0x0301;
    public static final int BIND_ID_REQUEST = 0x0401;
    public static final int BIND_ID_REPORT = 0x0402;

    // draft-eck-dfp-01 §5: TLV types.
    public static final int TLV_SECURITY = 0x0001;
    public static final int TLV_LOAD = 0x0002;
    public static final int TLV_KEEP_ALIVE = 0x0101;
    public static final int TLV_BIND_ID_TABLE = 0x0301;

    public DfpMessage {
        if (type < 0 || type > 0xFFFF) {
            throw new IllegalArgumentException("message type must be 16 bits: " + type);
        }
        tlvs = List.copyOf(tlvs);
    }

    /** A TLV: its type and its value (without the 4-byte TLV header). */
    public record Tlv(int type, byte[] value) {
        public Tlv {
            if (type < 0 || type > 0xFFFF || value.length > 0xFFFF - 4) {
                throw new IllegalArgumentException("TLV type must be 16 bits and its length fit 16 bits");
            }
            value = value.clone();
        }

        @Override
        public byte[] value() {
            return value.clone();
        }
    }

    /** A Preference Information message with one Load TLV per group (§6.1); none is a keep-alive. */
    public static DfpMessage preferences(List<DfpLoad> loads) {
        return new DfpMessage(PREFERENCE_INFORMATION, loads.stream().map(DfpLoad::tlv).toList());
    }

    /** A DFP Parameters message with the keep-alive time in seconds (§6.3, §5.3). */
    public static DfpMessage parameters(long keepAliveSeconds) {
        byte[] v = new byte[4];
        int s = (int) Math.min(keepAliveSeconds, 0xFFFF_FFFFL);
        v[0] = (byte) (s >>> 24);
        v[1] = (byte) (s >>> 16);
        v[2] = (byte) (s >>> 8);
        v[3] = (byte) s;
        return new DfpMessage(DFP_PARAMETERS, List.of(new Tlv(TLV_KEEP_ALIVE, v)));
    }

    /** The Load TLVs, read (§5.2). @throws DfpException when one is malformed */
    public List<DfpLoad> loads() {
        return tlvs.stream().filter(t -> t.type() == TLV_LOAD).map(t -> DfpLoad.read(t.value())).toList();
    }

    /** The keep-alive time of a Keep-alive TLV, in seconds (§5.3). @throws DfpException when malformed */
    public Optional<Long> keepAliveSeconds() {
        for (Tlv t : tlvs) {
            if (t.type() == TLV_KEEP_ALIVE) {
                byte[] v = t.value();
                if (v.length != 4) {
                    throw new DfpException("Keep-alive TLV value is " + v.length + " bytes, not 4");
                }
                return Optional.of(((v[0] & 0xFFL) << 24) | ((v[1] & 0xFFL) << 16) | ((v[2] & 0xFFL) << 8) | (v[3] & 0xFFL));
            }
        }
        return Optional.empty();
    }
}
