package io.switchboard.codec.gtp.v2;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * The interface type of an F-TEID (TS 29.274 §8.22, Table 8.22-1): which node and which interface an
 * endpoint belongs to. Open: every value of the six bits has an instance; the ones this project
 * reads are named, the rest are {@code unknown(NN)}.
 *
 * <p>A director reads it where a message's table lets one F-TEID IE stand for two things: on S11
 * the instance-1 F-TEID of a Create Session Response is the PGW's S5/S8 endpoint, information for the
 * MME (Table 7.2.2-1), while on S5/S8, S2a and S2b it is the answering PGW's own control plane. Only
 * a GTP-C type ({@link #isPgwControlPlane}) makes it the latter.
 */
public final class GtpV2InterfaceType extends OctetCode {

    private static final OctetCodes<GtpV2InterfaceType> CODES = new OctetCodes<>("GTPv2 F-TEID interface type");

    public static final GtpV2InterfaceType S1U_ENODEB_GTP_U = define(0, "s1-u-enodeb-gtp-u");
    public static final GtpV2InterfaceType S1U_SGW_GTP_U = define(1, "s1-u-sgw-gtp-u");
    public static final GtpV2InterfaceType S12_RNC_GTP_U = define(2, "s12-rnc-gtp-u");
    public static final GtpV2InterfaceType S12_SGW_GTP_U = define(3, "s12-sgw-gtp-u");
    public static final GtpV2InterfaceType S5S8_SGW_GTP_U = define(4, "s5-s8-sgw-gtp-u");
    public static final GtpV2InterfaceType S5S8_PGW_GTP_U = define(5, "s5-s8-pgw-gtp-u");
    public static final GtpV2InterfaceType S5S8_SGW_GTP_C = define(6, "s5-s8-sgw-gtp-c");
    public static final GtpV2InterfaceType S5S8_PGW_GTP_C = define(7, "s5-s8-pgw-gtp-c");
    public static final GtpV2InterfaceType S5S8_SGW_PMIPV6 = define(8, "s5-s8-sgw-pmipv6");
    public static final GtpV2InterfaceType S5S8_PGW_PMIPV6 = define(9, "s5-s8-pgw-pmipv6");
    public static final GtpV2InterfaceType S11_MME_GTP_C = define(10, "s11-mme-gtp-c");
    public static final GtpV2InterfaceType S11S4_SGW_GTP_C = define(11, "s11-s4-sgw-gtp-c");
    public static final GtpV2InterfaceType S10_MME_GTP_C = define(12, "s10-n26-mme-gtp-c");
    public static final GtpV2InterfaceType S3_MME_GTP_C = define(13, "s3-mme-gtp-c");
    public static final GtpV2InterfaceType S3_SGSN_GTP_C = define(14, "s3-sgsn-gtp-c");
    public static final GtpV2InterfaceType S4_SGSN_GTP_U = define(15, "s4-sgsn-gtp-u");
    public static final GtpV2InterfaceType S4_SGW_GTP_U = define(16, "s4-sgw-gtp-u");
    public static final GtpV2InterfaceType S4_SGSN_GTP_C = define(17, "s4-sgsn-gtp-c");
    public static final GtpV2InterfaceType S16_SGSN_GTP_C = define(18, "s16-sgsn-gtp-c");
    public static final GtpV2InterfaceType S2B_EPDG_GTP_C = define(30, "s2b-epdg-gtp-c");
    public static final GtpV2InterfaceType S2B_U_EPDG_GTP_U = define(31, "s2b-u-epdg-gtp-u");
    public static final GtpV2InterfaceType S2B_PGW_GTP_C = define(32, "s2b-pgw-gtp-c");
    public static final GtpV2InterfaceType S2B_U_PGW_GTP_U = define(33, "s2b-u-pgw-gtp-u");
    public static final GtpV2InterfaceType S2A_TWAN_GTP_U = define(34, "s2a-twan-gtp-u");
    public static final GtpV2InterfaceType S2A_TWAN_GTP_C = define(35, "s2a-twan-gtp-c");
    public static final GtpV2InterfaceType S2A_PGW_GTP_C = define(36, "s2a-pgw-gtp-c");
    public static final GtpV2InterfaceType S2A_PGW_GTP_U = define(37, "s2a-pgw-gtp-u");

    static {
        CODES.complete(value -> new GtpV2InterfaceType(value, "unknown(" + value + ")", false));
    }

    private GtpV2InterfaceType(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static GtpV2InterfaceType define(int value, String name) {
        return CODES.define(new GtpV2InterfaceType(value, name, true));
    }

    /** The type of these six bits (the low bits of an F-TEID's first octet). */
    public static GtpV2InterfaceType of(int value) {
        return CODES.of(value & GtpV2Ies.FTEID_INTERFACE_TYPE);
    }

    /**
     * A PGW's GTP-C endpoint: S5/S8 (7), S2b (32), S2a (36). The PMIPv6 one (9) is not: a PGW on
     * PMIP speaks no GTP-C to its peer, so nothing of GTP-C is to be learnt from it.
     */
    public boolean isPgwControlPlane() {
        return this == S5S8_PGW_GTP_C || this == S2B_PGW_GTP_C || this == S2A_PGW_GTP_C;
    }
}
